import { defineTool } from "./defineTool";
import { p } from "./params";
import { resolvePath } from "./paths";

export const MAX_ENTRIES = 200;
/** Folders nobody wants listed entry by entry; .gitignore support comes with the full tool set. */
const SKIPPED = new Set([".git", "node_modules", ".hg", ".svn"]);

export const listFilesTool = defineTool({
  name: "list_files",
  group: "read",
  description: `List the files and folders in a folder (folders end with /). With recursive true, everything below it, up to ${MAX_ENTRIES} entries.`,
  params: {
    path: p.string("Folder to list, relative to the workspace"),
    recursive: p.boolean("List everything below the folder", { optional: true }),
  },
  approval: (args) => ({ summary: `List ${args.path}${args.recursive ? " recursively" : ""}`, paths: [args.path] }),
  async execute(args, context) {
    const root = resolvePath(context.cwd, args.path);
    const stat = await context.fs.stat(root.absolute);
    if (!stat) return { kind: "result", text: `Error: ${root.display} does not exist.` };
    if (stat.type !== "directory") return { kind: "result", text: `Error: ${root.display} is not a folder; use read_file to read a file.` };
    const out: string[] = [];
    let truncated = false;
    const queue: string[] = [""];
    while (queue.length > 0 && !truncated) {
      const rel = queue.shift()!;
      const entries = await context.fs.readDirectory(rel ? `${root.absolute}/${rel}` : root.absolute);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (context.signal.aborted) return { kind: "result", text: "Cancelled." };
        const name = rel ? `${rel}/${entry.name}` : entry.name;
        if (out.length >= MAX_ENTRIES) {
          truncated = true;
          break;
        }
        if (entry.type === "directory") {
          out.push(`${name}/`);
          if (args.recursive && !SKIPPED.has(entry.name)) queue.push(name);
        } else {
          out.push(name);
        }
      }
    }
    if (out.length === 0) return { kind: "result", text: `${root.display} is empty.` };
    const note = truncated ? `\n[Stopped at ${MAX_ENTRIES} entries. List a subfolder to see more.]` : "";
    return { kind: "result", text: `${out.join("\n")}${note}` };
  },
});
