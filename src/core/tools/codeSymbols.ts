import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { CallHierarchyCall, CallHierarchyItem, WorkspaceSymbol } from "../ports/languageServices";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { positionFields } from "./codeNavigation";
import { linkTo, said, view } from "./present";
import { AnswerFiles, askAtSymbol, askServer, count, nothingFound, servicesOf, type Placed } from "./symbolLookup";

/** Symbols shown of a workspace search. */
export const MAX_SYMBOLS = 50;
/** Callers or callees shown, and call sites shown of each. */
export const MAX_CALLS = 50;
export const MAX_CALL_SITES = 5;

export const workspaceSymbolsTool = defineTool({
  name: "workspace_symbols",
  group: "read",
  description: `Search the names of the workspace's classes, functions, methods, types, variables… as the editor's language servers index them (matching is fuzzy: \`parseCfg\` finds \`parseConfig\`). Shows each symbol's kind, name, container and \`path:line\`, exact matches first, at most ${MAX_SYMBOLS}. Use it to find where a name you know is declared; then go_to_definition, find_references or read_file.`,
  params: {
    query: p.string("The name or part of it, e.g. `UserService` or `parseConf`"),
  },
  approval: (args) => ({ summary: l10n.t('Search the workspace symbols for "{0}"', args.query), paths: ["."] }),
  present(args, status) {
    return view({
      icon: "symbol-misc",
      title: said(status, {
        wants: () => l10n.t("Kiln wants to search the workspace symbols for {0}", TARGET_SLOT),
        doing: () => l10n.t("Kiln is searching the workspace symbols for {0}", TARGET_SLOT),
        did: () => l10n.t("Kiln searched the workspace symbols for {0}", TARGET_SLOT),
        denied: () => l10n.t("Kiln was not allowed to search the workspace symbols for {0}", TARGET_SLOT),
        failed: () => l10n.t("Kiln could not search the workspace symbols for {0}", TARGET_SLOT),
      }),
      target: args.query?.trim(),
      code: true,
    });
  },
  async execute(args, context) {
    const services = servicesOf(context, "workspace_symbols");
    if (!services.ok) return services.outcome;
    const query = args.query.trim();
    if (query === "") return toolError("invalid_args", "<query> is empty; give a name or part of one.");
    const answer = await askServer(context, "workspace_symbols", () => services.value.workspaceSymbols(query));
    if (!answer.ok) return answer.outcome;
    const files = new AnswerFiles(context);
    let outside = 0;
    const symbols = answer.value.flatMap((symbol) => {
      const [where] = files.place([symbol.location]);
      if (where?.outside) outside++;
      return where && !where.outside ? [{ where, symbol }] : [];
    });
    const leftOut = [files.hidden > 0 ? `${files.hidden} in files hidden from Kiln by .kilocodeignore` : "", outside > 0 ? `${outside} outside the workspace` : ""].filter(Boolean);
    const note = leftOut.length > 0 ? ` (${leftOut.join(" and ")} left out)` : "";
    if (symbols.length === 0) {
      return {
        kind: "result",
        text: `No symbols in the workspace match "${query}"${note}. Language servers search the projects they have loaded: one may load a project only when a file of it is opened (go_to_definition or find_references on a file does that), and some do not answer this search at all. Try codebase_search or search_files.`,
      };
    }
    const ranked = rank(symbols, query).slice(0, MAX_SYMBOLS);
    const head = `${count(symbols.length, "symbol")} match "${query}"${symbols.length > ranked.length ? ` (the first ${ranked.length} shown; a longer name narrows it)` : ""}${note}:`;
    return {
      kind: "result",
      text: [head, ...ranked.map(({ symbol, where }) => `- ${symbol.kind} ${symbol.name}${symbol.container ? ` in ${symbol.container}` : ""} — ${where.display}:${where.line}`)].join("\n"),
    };
  },
});

/** Exact names first, then those that start with the query, then the rest, each in the server's order. */
function rank<T extends { symbol: WorkspaceSymbol }>(symbols: readonly T[], query: string): T[] {
  const q = query.toLowerCase();
  const score = (name: string) => (name.toLowerCase() === q ? 0 : name.toLowerCase().startsWith(q) ? 1 : 2);
  return symbols
    .map((s, i) => ({ s, i, score: score(s.symbol.name) }))
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .map(({ s }) => s);
}

export const callHierarchyTool = defineTool({
  name: "call_hierarchy",
  group: "read",
  description: `One level of the call hierarchy of a function, method or constructor, from the editor's language server: who calls it (incoming) or what it calls (outgoing). Give the file and line where its name is written and the name as written there. Shows each caller or callee as \`path:line\` with the lines of the calls (at most ${MAX_CALLS}, ${MAX_CALL_SITES} calls each). Call it again on a result to go a level further.`,
  params: {
    path: p.string("The file the function's name is written in (its declaration or a call), relative to the workspace"),
    line: p.integer("The line (1-based) where the name is written", { min: 1 }),
    symbol: p.string("The function's name as written on that line"),
    direction: p.string("incoming: its callers; outgoing: what it calls", { enum: ["incoming", "outgoing"] }),
  },
  approval: (args) => ({
    summary:
      args.direction === "incoming" ? l10n.t("Find the callers of {0} ({1}:{2})", args.symbol, args.path, args.line) : l10n.t("Find what {0} calls ({1}:{2})", args.symbol, args.path, args.line),
    paths: [args.path],
  }),
  present(args, status) {
    const outgoing = args.direction === "outgoing";
    return view(
      {
        icon: outgoing ? "call-outgoing" : "call-incoming",
        title: outgoing
          ? said(status, {
              wants: () => l10n.t("Kiln wants to find what {0} calls", TARGET_SLOT),
              doing: () => l10n.t("Kiln is finding what {0} calls", TARGET_SLOT),
              did: () => l10n.t("Kiln found what {0} calls", TARGET_SLOT),
              denied: () => l10n.t("Kiln was not allowed to find what {0} calls", TARGET_SLOT),
              failed: () => l10n.t("Kiln could not find what {0} calls", TARGET_SLOT),
            })
          : said(status, {
              wants: () => l10n.t("Kiln wants to find the callers of {0}", TARGET_SLOT),
              doing: () => l10n.t("Kiln is finding the callers of {0}", TARGET_SLOT),
              did: () => l10n.t("Kiln found the callers of {0}", TARGET_SLOT),
              denied: () => l10n.t("Kiln was not allowed to find the callers of {0}", TARGET_SLOT),
              failed: () => l10n.t("Kiln could not find the callers of {0}", TARGET_SLOT),
            }),
        target: args.symbol?.trim(),
        code: true,
        link: linkTo(args.path, args.line),
      },
      positionFields(args),
    );
  },
  async execute(args, context) {
    const direction = args.direction === "outgoing" ? "outgoing" : "incoming";
    const asked = await askAtSymbol(context, "call_hierarchy", args, (services, at) => services.calls(at, direction));
    if (!asked.ok) return asked.outcome;
    const { symbol, where } = asked.value.target;
    const { language, result } = asked.value.answer;
    const { items, calls } = result;
    if (items.length === 0) return { kind: "result", text: nothingFound(`No function, method or constructor \`${symbol}\` for the call hierarchy at ${where}`, language) };
    const files = new AnswerFiles(context);
    const [item] = files.place([items[0]!.location]);
    const about = `\`${items[0]!.name}\` (${items[0]!.kind}${item ? `, ${item.display}:${item.line}` : ""})`;
    // The calls' items and their sites: for incoming calls the sites are in each caller's file, for outgoing ones in the item's own.
    const entries = calls.flatMap((call) => {
      const [placed] = files.place([call.item.location]);
      return placed ? [{ call, placed }] : [];
    });
    if (entries.length === 0) {
      const none = direction === "incoming" ? `Nothing calls ${about}` : `${about} calls no function`;
      return {
        kind: "result",
        text: `${none}, as far as the ${language} language server sees (calls through callbacks, dynamic dispatch or unloaded files may be missing).${files.hiddenNote()}`,
      };
    }
    const shown = entries.slice(0, MAX_CALLS);
    const sites = entries.reduce((n, e) => n + e.call.callSites.length, 0);
    const head =
      direction === "incoming"
        ? `Calls to ${about}: ${count(sites, "call")} from ${count(entries.length, "caller")}${entries.length > shown.length ? ` (the first ${shown.length} shown)` : ""}.`
        : `Calls from ${about}: ${count(entries.length, "function")} called${entries.length > shown.length ? ` (the first ${shown.length} shown)` : ""}.`;
    const out = [head];
    for (const { call, placed } of shown) out.push("", ...(await callText(call, placed, direction === "incoming" ? placed : item, files)));
    return { kind: "result", text: out.join("\n") + files.hiddenNote() };
  },
});

function named(item: CallHierarchyItem): string {
  return `${item.name} (${item.kind}${item.detail ? `, ${item.detail}` : ""})`;
}

/**
 * `## name (kind) — path:line` and the lines of its calls as `path:line | code`, from `sitesIn`: the
 * caller's file (incoming) or the file of the function asked about (outgoing); none where that is hidden.
 */
async function callText(call: CallHierarchyCall, placed: Placed, sitesIn: Placed | undefined, files: AnswerFiles): Promise<string[]> {
  const out = [`## ${named(call.item)} — ${placed.display}:${placed.line}${placed.outside ? " (outside the workspace)" : ""}`];
  if (!sitesIn) return out;
  const lines = [...new Map(call.callSites.map((range) => [range.start.line, range])).values()].sort((a, b) => a.start.line - b.start.line);
  for (const range of lines.slice(0, MAX_CALL_SITES)) {
    const text = await files.lineAt(sitesIn, range);
    out.push(`${sitesIn.display}:${range.start.line + 1}${text === undefined ? "" : ` | ${text}`}`);
  }
  if (lines.length > MAX_CALL_SITES) out.push(`[… ${count(lines.length - MAX_CALL_SITES, "more call")}.]`);
  return out;
}
