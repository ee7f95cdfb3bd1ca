import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { ignoreRulesOf } from "../workspace/ignore";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { fieldsBody, linkTo, said, view } from "./present";
import { resolvePath } from "./paths";

export const MAX_ENTRIES = 200;
/** Folders shown but never walked into: their contents are noise to the model, .gitignore or not. */
const SKIPPED = new Set([".git", "node_modules", ".hg", ".svn"]);
/** How many unfinished folders the truncation note names. */
const NAMED_FOLDERS = 8;

export const listFilesTool = defineTool({
  name: "list_files",
  group: "read",
  description: `List the files and folders in a folder (folders end with /). With recursive true, everything below it, nearest entries first, up to ${MAX_ENTRIES} entries. Entries left out by .gitignore are not listed (list an ignored folder by name to see inside it).`,
  params: {
    path: p.string("Folder to list, relative to the workspace"),
    recursive: p.boolean("List everything below the folder", { optional: true }),
  },
  approval: (args) => ({ summary: args.recursive ? l10n.t("List {0} recursively", args.path) : l10n.t("List {0}", args.path), paths: [args.path] }),
  present(args, status) {
    const verbs = {
      wants: () => l10n.t("Kiln wants to list the files in {0}", TARGET_SLOT),
      doing: () => l10n.t("Kiln is listing the files in {0}", TARGET_SLOT),
      did: () => l10n.t("Kiln listed the files in {0}", TARGET_SLOT),
      denied: () => l10n.t("Kiln was not allowed to list the files in {0}", TARGET_SLOT),
      failed: () => l10n.t("Kiln could not list the files in {0}", TARGET_SLOT),
    };
    return view(
      { icon: "list-tree", title: said(status, verbs), target: args.path, link: linkTo(args.path) },
      fieldsBody([[l10n.t("depth"), args.recursive === undefined ? undefined : args.recursive === "true" ? l10n.t("recursive") : l10n.t("top level")]]),
    );
  },
  async execute(args, context) {
    const root = resolvePath(context.cwd, args.path);
    const stat = await context.fs.stat(root.absolute);
    if (!stat) return toolError("not_found", `${root.display} does not exist.`);
    if (stat.type !== "directory") return toolError("wrong_type", `${root.display} is not a folder; use read_file to read a file.`);
    const rules = ignoreRulesOf(context);
    if (rules.isHiddenFromAgent(root.absolute, true)) return toolError("ignored", `${root.display} is hidden from Kiln by .kilocodeignore.`);
    // Asked for by name, an ignored folder is listed; inside it only .kilocodeignore still applies.
    const useGitignore = !rules.isIgnored(root.absolute, true);

    const out: string[] = [];
    let ignoredCount = 0;
    let truncatedAt: number | undefined;
    const queue: string[] = [""];
    for (let q = 0; q < queue.length && truncatedAt === undefined; q++) {
      const rel = queue[q]!;
      const folder = rel ? `${root.absolute}/${rel}` : root.absolute;
      const entries = await context.fs.readDirectory(folder);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
        const isDirectory = entry.type === "directory";
        const absolute = `${folder}/${entry.name}`;
        // Hidden entries leave no trace; .gitignore'd ones are counted, so the model knows to look.
        if (rules.isHiddenFromAgent(absolute, isDirectory)) continue;
        if (useGitignore && rules.isIgnored(absolute, isDirectory)) {
          ignoredCount++;
          continue;
        }
        if (out.length >= MAX_ENTRIES) {
          truncatedAt = q;
          break;
        }
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        out.push(isDirectory ? `${name}/` : name);
        if (isDirectory && args.recursive && !SKIPPED.has(entry.name)) queue.push(name);
      }
    }
    const notes: string[] = [];
    if (truncatedAt === 0) {
      notes.push(`[Stopped at ${MAX_ENTRIES} entries; ${root.display} holds more, which list_files cannot show. To find a file among them, use search_files with a file_pattern (e.g. *.json).]`);
    } else if (truncatedAt !== undefined) {
      // The folder being read when the cap hit and every folder still waiting: none was listed in full.
      const unfinished = queue.slice(truncatedAt).map((f) => (f ? `${f}/` : root.display));
      const named = unfinished.slice(0, NAMED_FOLDERS).join(", ");
      const rest = unfinished.length > NAMED_FOLDERS ? ` and ${unfinished.length - NAMED_FOLDERS} more` : "";
      notes.push(`[Stopped at ${MAX_ENTRIES} entries. Not listed in full: ${named}${rest}. List one of those folders to see more.]`);
    }
    if (ignoredCount > 0) notes.push(`[${ignoredCount} ${ignoredCount === 1 ? "entry" : "entries"} left out by .gitignore.]`);
    if (out.length === 0) return { kind: "result", text: [ignoredCount > 0 ? `${root.display} holds nothing that is not ignored.` : `${root.display} is empty.`, ...notes].join("\n") };
    out.sort(byPath);
    return { kind: "result", text: [...out, ...notes].join("\n") };
  },
});

/** Folder by folder, so a folder's entries stay together right under it. */
function byPath(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}
