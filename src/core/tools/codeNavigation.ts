import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { CodeLocation } from "../ports/languageServices";
import { defineTool } from "./defineTool";
import { p } from "./params";
import { fieldsBody, linkTo, said, view } from "./present";
import { AnswerFiles, askAtSymbol, count, nothingFound, type Placed, type SymbolTarget } from "./symbolLookup";

/** Definitions shown (overloads, merged declarations); more is rare. */
export const MAX_DEFINITIONS = 10;
/** Lines of code shown of each definition, from where its declaration starts. */
export const DEFINITION_LINES = 8;
/** Lines with references shown in all, and in any one file. */
export const MAX_REFERENCE_LINES = 100;
export const MAX_REFERENCE_LINES_PER_FILE = 20;
/** Files named (with their counts) beyond those shown. */
const MAX_FILES_NAMED = 20;

const position = {
  path: p.string("The file the symbol is written in, relative to the workspace"),
  line: p.integer("The line (1-based) where the symbol is written", { min: 1 }),
};

/** `src/a.ts:12`, for a card, from arguments that may still be streaming. */
function at(path: string | undefined, line: string | undefined): string | undefined {
  if (!path?.trim()) return undefined;
  return line ? `${path.trim()}:${line}` : path.trim();
}

/** The card's rows: the file and line the symbol is on, and any more the tool has. */
export function positionFields(args: { path?: string; line?: string }, more: readonly (readonly [string, string | undefined])[] = []) {
  return fieldsBody([[l10n.t("file"), args.path?.trim()], [l10n.t("line"), args.line], ...more]);
}

export const goToDefinitionTool = defineTool({
  name: "go_to_definition",
  group: "read",
  description:
    "Find where a symbol is defined, as the editor's language server sees it (types, imports and overloads resolved; not a text search). Give the file and the line where the symbol is written, and its name as written there (the first occurrence on the line is used; for `obj.method` the method is looked up). Shows each definition as `path:line` with the first lines of its code. Without a symbol, the line's first name that is not a keyword is looked up.",
  params: {
    ...position,
    symbol: p.string("The name to look up, as written on that line, e.g. `parseConfig` or `config.load`", { optional: true }),
  },
  approval: (args) => ({
    summary: args.symbol ? l10n.t("Find the definition of {0} ({1}:{2})", args.symbol, args.path, args.line) : l10n.t("Find the definition at {0}:{1}", args.path, args.line),
    paths: [args.path],
  }),
  present(args, status) {
    const where = at(args.path, args.line);
    return view(
      {
        icon: "go-to-file",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to find the definition of {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is finding the definition of {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln found the definition of {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to find the definition of {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not find the definition of {0}", TARGET_SLOT),
        }),
        target: args.symbol?.trim() || where,
        code: Boolean(args.symbol?.trim()),
        link: linkTo(args.path, args.line),
      },
      args.symbol?.trim() ? positionFields(args) : undefined,
    );
  },
  async execute(args, context) {
    const asked = await askAtSymbol(context, "go_to_definition", args, (services, at) => services.definitions(at));
    if (!asked.ok) return asked.outcome;
    const { target, answer } = asked.value;
    const { symbol, where } = target;
    if (answer.result.length === 0) return { kind: "result", text: nothingFound(`No definition of \`${symbol}\` found from ${where}`, answer.language) };
    const files = new AnswerFiles(context);
    const placed = files.place(answer.result);
    if (placed.length === 0) return { kind: "result", text: `\`${symbol}\` (${where}) is defined only in files hidden from Kiln by .kilocodeignore.` };
    const shown = placed.slice(0, MAX_DEFINITIONS);
    const itself = shown.length === 1 && isAt(shown[0]!.location, target) ? " This is its definition." : "";
    const head = `\`${symbol}\` (${where}) is defined in ${count(placed.length, "place")}${placed.length > shown.length ? ` (the first ${shown.length} shown)` : ""}:${itself}`;
    const parts = [head];
    for (const definition of shown) parts.push("", ...(await definitionText(definition, files)));
    return { kind: "result", text: parts.join("\n") + files.hiddenNote() };
  },
});

/** Whether the definition is the very name that was asked about. */
function isAt(location: CodeLocation, target: SymbolTarget): boolean {
  const { start, end } = location.range;
  const asked = target.at.position;
  return location.path === target.at.path && start.line === asked.line && start.character <= asked.character && asked.character <= end.character;
}

/** `## path:line` and the definition's first lines, from where its declaration starts. */
async function definitionText(definition: Placed, files: AnswerFiles): Promise<string[]> {
  const head = `## ${definition.display}:${definition.line}`;
  const lines = await files.lines(definition);
  if (!lines) return [definition.outside ? `${head} (outside the workspace; read_file shows it)` : head];
  const { range, fullRange } = definition.location;
  const nameLine = range.start.line;
  // The declaration's start (its export, decorators, doc comment where the server counts them), unless that is far above the name.
  let first = fullRange && fullRange.start.line <= nameLine ? fullRange.start.line : nameLine;
  if (nameLine - first >= DEFINITION_LINES) first = nameLine;
  const declared = fullRange && fullRange.end.line >= nameLine ? fullRange.end.line : nameLine + 3;
  const last = Math.min(declared, first + DEFINITION_LINES - 1, lines.length - 1);
  const width = String(last + 1).length;
  const out = [head];
  for (let n = first; n <= last; n++) out.push(`${String(n + 1).padStart(width)} | ${lines[n]}`);
  if (declared > last && fullRange) out.push(`[… the definition goes on to line ${Math.min(declared, lines.length - 1) + 1}; read_file shows the rest.]`);
  return out;
}

export const findReferencesTool = defineTool({
  name: "find_references",
  group: "read",
  description: `Find every use of a symbol across the workspace, as the editor's language server sees it (the symbol itself, not other things of the same name; its declaration included). Give the file and line where the symbol is written and its name as written there. Shows the references grouped by file, each as its line number and line (at most ${MAX_REFERENCE_LINES} lines, ${MAX_REFERENCE_LINES_PER_FILE} per file; the other files are named with their counts).`,
  params: {
    ...position,
    symbol: p.string("The name whose uses to find, as written on that line"),
  },
  approval: (args) => ({ summary: l10n.t("Find the references to {0} ({1}:{2})", args.symbol, args.path, args.line), paths: [args.path] }),
  present(args, status) {
    return view(
      {
        icon: "references",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to find the references to {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is finding the references to {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln found the references to {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to find the references to {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not find the references to {0}", TARGET_SLOT),
        }),
        target: args.symbol?.trim(),
        code: true,
        link: linkTo(args.path, args.line),
      },
      positionFields(args),
    );
  },
  async execute(args, context) {
    const asked = await askAtSymbol(context, "find_references", args, (services, at) => services.references(at));
    if (!asked.ok) return asked.outcome;
    const { target, answer } = asked.value;
    const { symbol, where } = target;
    if (answer.result.length === 0) return { kind: "result", text: nothingFound(`No references to \`${symbol}\` found from ${where}`, answer.language) };
    const files = new AnswerFiles(context);
    const placed = files.place(answer.result);
    if (placed.length === 0) return { kind: "result", text: `Every reference to \`${symbol}\` (${where}) is in files hidden from Kiln by .kilocodeignore.` };
    return { kind: "result", text: (await referencesText(placed, files, target)) + files.hiddenNote() };
  },
});

/** References grouped by file (the asked file first, then by path), each file's lines in order, one line per line however many uses it holds. */
async function referencesText(placed: readonly Placed[], files: AnswerFiles, target: SymbolTarget): Promise<string> {
  const byFile = new Map<string, Placed[]>();
  for (const ref of placed) byFile.set(ref.display, [...(byFile.get(ref.display) ?? []), ref]);
  const order = [...byFile.keys()].sort((a, b) => Number(b === target.display) - Number(a === target.display) || a.localeCompare(b));
  const out = [`\`${target.symbol}\` (${target.where}): ${count(placed.length, "reference")} in ${count(byFile.size, "file")}.`];
  let budget = MAX_REFERENCE_LINES;
  const notShown: string[] = [];
  for (const display of order) {
    const refs = byFile.get(display)!;
    if (budget <= 0) {
      notShown.push(`${display} (${refs.length})`);
      continue;
    }
    const lines = new Map<number, Placed>();
    for (const ref of [...refs].sort((a, b) => a.line - b.line)) if (!lines.has(ref.line)) lines.set(ref.line, ref);
    const shown = [...lines.values()].slice(0, Math.min(budget, MAX_REFERENCE_LINES_PER_FILE));
    budget -= shown.length;
    out.push("", `# ${display}${refs[0]!.outside ? " (outside the workspace)" : ""}`);
    const width = String(shown.at(-1)!.line).length;
    for (const ref of shown) {
      const text = await files.lineAt(ref);
      out.push(text === undefined ? String(ref.line) : `${String(ref.line).padStart(width)} | ${text}`);
    }
    if (lines.size > shown.length) out.push(`[… ${count(lines.size - shown.length, "more line")} in this file not shown.]`);
  }
  if (notShown.length > 0) {
    const named = notShown.slice(0, MAX_FILES_NAMED).join(", ");
    const rest = notShown.length > MAX_FILES_NAMED ? ` and ${notShown.length - MAX_FILES_NAMED} more` : "";
    out.push("", `Not shown (the first ${MAX_REFERENCE_LINES} lines are): ${count(notShown.length, "more file")}, ${named}${rest}. search_files in one of them shows its lines.`);
  }
  return out.join("\n");
}
