import { defineTool } from "./defineTool";
import { p } from "./params";
import { resolvePath } from "./paths";
import { encodeLike, isOutcome, proposeEdit, readTextFile } from "./fileEdit";
import { findPlaceholder } from "./placeholders";
import { plural } from "../../shared/plural";

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
  approval: (args) => {
    const lines = countLines(args.content);
    return { summary: `Write ${args.path} (${lines} ${lines === 1 ? "line" : "lines"})`, paths: [args.path], reviewed: true };
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    const lines = countLines(args.content);
    if (args.line_count !== undefined && args.line_count > 0 && lines < args.line_count * 0.5) {
      return {
        kind: "result",
        text: `Error: content has ${lines} lines but line_count says ${args.line_count}; the content looks cut off, so nothing was written. Send the complete file.`,
      };
    }
    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    // Only a rewrite can lose code to a placeholder; a new file has nothing to leave out.
    const placeholder = before ? findPlaceholder(args.content, { existing: before.text, path: target.display }) : undefined;
    if (placeholder) {
      return {
        kind: "result",
        text: `Error: line ${placeholder.line} of content, "${placeholder.text}", looks like a placeholder for code you left out. write_to_file replaces the whole file, so that code would be lost; nothing was written. Send the complete file content with every line written out, or change only part of the file with apply_diff.`,
      };
    }
    // A new file takes the content as sent; an existing one keeps its line endings and BOM.
    const edit = await proposeEdit(context, { target, before, after: encodeLike(before, args.content), tool: "write_to_file" });
    if (!edit.applied) return edit.outcome;
    return { kind: "result", text: `${before ? "Overwrote" : "Created"} ${target.display} (${plural(lines, "line")}).${edit.note}` };
  },
});
