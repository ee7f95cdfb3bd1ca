import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { CodeSearchHit, RefreshSummary } from "../codeIndex/types";
import { ignoreRulesOf } from "../workspace/ignore";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { fieldsBody, linkTo, said, view } from "./present";
import { resolvePath } from "./paths";

/** Hits shown when the host sets no limit (kiln.index.maxResults). */
export const DEFAULT_MAX_RESULTS = 10;
const MAX_LINE_CHARS = 250;

export const codebaseSearchTool = defineTool({
  name: "codebase_search",
  group: "read",
  description:
    "Find code by what it does or is called, when you do not know the exact text to grep for: ranks the workspace's functions, classes, methods and Markdown sections by the words of the query (identifiers are split, so `hash password` finds `hashPassword` and `hash_password`; symbol names and path words count most), and by meaning too where the user has set up an embedder. Shows each hit as `path:start-end` with its score (relative to the best) and its code, grouped by file. Use it first to find where something lives, then read_file for more; use search_files for an exact regex. Files left out by .gitignore or .kilocodeignore, build folders, binaries and files over 1 MB are not indexed.",
  params: {
    query: p.string("What to look for, in words or identifiers, e.g. `where the session token is refreshed` or `parseConfig error`"),
    path: p.string("Only search in this folder or file, relative to the workspace; default the whole workspace", { optional: true }),
  },
  approval: (args) => ({
    summary: args.path ? l10n.t('Search {0} for "{1}"', args.path, args.query) : l10n.t('Search the codebase for "{0}"', args.query),
    paths: [args.path ?? "."],
  }),
  present(args, status) {
    return view(
      {
        icon: "search",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to search the codebase for {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is searching the codebase for {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln searched the codebase for {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to search the codebase for {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not search the codebase for {0}", TARGET_SLOT),
        }),
        target: args.query,
        link: args.path ? linkTo(args.path) : undefined,
      },
      fieldsBody([[l10n.t("in"), args.path]]),
    );
  },
  async execute(args, context) {
    const query = args.query.trim();
    if (query === "") return toolError("invalid_args", "<query> is empty; say what to look for.");
    const index = context.codeIndex;
    if (!index) return toolError("unavailable", "The codebase index is turned off here, so codebase_search cannot run. Use search_files and list_files instead.");
    let under: string | undefined;
    if (args.path !== undefined && args.path.trim() !== "" && args.path.trim() !== ".") {
      const target = resolvePath(context.cwd, args.path);
      if (target.outsideWorkspace) return toolError("invalid_args", `${target.display} is outside the workspace; codebase_search only searches the workspace's index.`);
      const stat = await context.fs.stat(target.absolute);
      if (!stat) return toolError("not_found", `${target.display} does not exist. Use list_files to see what is there.`);
      if (ignoreRulesOf(context).isHiddenFromAgent(target.absolute, stat.type === "directory")) return toolError("ignored", `${target.display} is hidden from Kiln by .kilocodeignore.`);
      if (target.display !== ".") under = target.display;
    }
    // Up to date before it answers: new and changed files are indexed now, and only those.
    let state: RefreshSummary;
    try {
      state = await index.refresh({
        signal: context.signal,
        onProgress: (p) => {
          if (p.filesDone % 200 === 0) context.progress?.(l10n.t("Indexing {0} of {1} files", p.filesDone, p.filesTotal));
        },
      });
    } catch (err) {
      if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
      return toolError("failed", `the codebase index could not be brought up to date: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
    const limit = context.codeSearchMaxResults ?? DEFAULT_MAX_RESULTS;
    let hits: CodeSearchHit[];
    try {
      hits = await index.search(query, { under, limit });
    } catch (err) {
      // A team index whose server went away between the refresh and the search.
      return toolError("failed", `the codebase index could not be searched: ${err instanceof Error ? err.message : String(err)}`);
    }
    const where = under ?? "the workspace";
    if (hits.length === 0) {
      return {
        kind: "result",
        text: `No indexed code in ${where} matches "${query}" (${state.filesTotal} files, ${state.chunks} chunks indexed). Try other words (a name, what it does), or search_files for an exact pattern.`,
      };
    }
    return { kind: "result", text: format(hits, query, where, limit) };
  },
});

function format(hits: readonly CodeSearchHit[], query: string, where: string, limit: number): string {
  const byFile = new Map<string, CodeSearchHit[]>();
  for (const hit of hits) byFile.set(hit.path, [...(byFile.get(hit.path) ?? []), hit]);
  const head = `${hits.length} result${hits.length === 1 ? "" : "s"} for "${query}" in ${byFile.size} file${byFile.size === 1 ? "" : "s"} of ${where}, best first${hits.length === limit ? ` (the first ${limit}; narrow with path or other words for more)` : ""}.`;
  const out = [head];
  // Files in the order of their best hit, each file's hits in line order: the best place first, read top down.
  for (const [path, fileHits] of byFile) {
    out.push("", `# ${path}`);
    for (const hit of [...fileHits].sort((a, b) => a.startLine - b.startLine)) {
      const named = hit.symbols.length > 0 ? ` (${hit.symbols.slice(0, 5).join(", ")})` : "";
      out.push(`## ${path}:${hit.startLine}-${hit.endLine} score ${hit.score.toFixed(2)}${named}`);
      const width = String(hit.endLine).length;
      hit.text.split("\n").forEach((line, k) => {
        const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut]` : line;
        out.push(`${String(hit.startLine + k).padStart(width)} | ${text}`);
      });
    }
  }
  return out.join("\n");
}
