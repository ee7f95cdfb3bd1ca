import { defineTool } from "./defineTool";
import { p } from "./params";
import { resolvePath } from "./paths";

function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

export const writeToFileTool = defineTool({
  name: "write_to_file",
  group: "edit",
  description: "Create a file or replace a file's whole content. Give the complete content, never a placeholder for unchanged parts. Folders are created as needed.",
  params: {
    path: p.string("Path of the file, relative to the workspace"),
    content: p.string("The complete new content of the file", { raw: true }),
    line_count: p.integer("Number of lines in content (a check against truncated output)", { optional: true, min: 0 }),
  },
  approval: (args) => ({ summary: `Write ${args.path} (${countLines(args.content)} lines)`, paths: [args.path] }),
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    const lines = countLines(args.content);
    if (args.line_count !== undefined && args.line_count > 0 && lines < args.line_count * 0.5) {
      return {
        kind: "result",
        text: `Error: content has ${lines} lines but line_count says ${args.line_count}; the content looks cut off, so nothing was written. Send the complete file.`,
      };
    }
    const before = await context.fs.stat(target.absolute);
    if (before && before.type !== "file") return { kind: "result", text: `Error: ${target.display} exists and is not a file.` };
    await context.fs.writeFile(target.absolute, args.content);
    return { kind: "result", text: `${before ? "Overwrote" : "Created"} ${target.display} (${lines} lines).` };
  },
});
