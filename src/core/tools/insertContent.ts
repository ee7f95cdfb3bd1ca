import * as l10n from "@vscode/l10n";
import { defineTool, toolError, type ToolOutcome } from "./defineTool";
import { encodeLike, isOutcome, proposeEdit, readTextFile, type TextFile } from "./fileEdit";
import { p } from "./params";
import { editing, fieldsBody, linkTo, said, toLines, view } from "./present";
import { resolvePath } from "./paths";

/** Lines of a text in "\n" form, and whether it ended with a line break. */
function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === "") return { lines: [], finalNewline: false };
  const finalNewline = text.endsWith("\n");
  const lines = (finalNewline ? text.slice(0, -1) : text).split("\n");
  return { lines, finalNewline };
}

export const insertContentTool = defineTool({
  name: "insert_content",
  group: "edit",
  description:
    "Insert lines into an existing file without rewriting it: the content goes before the given line (1-based), and line 0 appends it at the end. Existing lines are kept as they are; the file's line endings are kept.",
  params: {
    path: p.string("Path of the file, relative to the workspace"),
    line: p.integer("Insert before this line (1-based); 0 appends at the end of the file", { min: 0 }),
    content: p.string("The lines to insert", { raw: true }),
  },
  approval: (args) => ({
    summary: args.line === 0 ? l10n.t("Insert into {0} at the end", args.path) : l10n.t("Insert into {0} before line {1}", args.path, args.line),
    paths: [args.path],
    reviewed: true,
  }),
  present(args, status) {
    const where = !args.line ? undefined : args.line.trim() === "0" ? l10n.t("at the end") : l10n.t("before line {0}", args.line);
    const heading = { icon: "edit" as const, title: said(status, editing()), target: args.path, link: linkTo(args.path) };
    if (args.content === undefined) return view(heading, fieldsBody([[l10n.t("where"), where]]));
    return view(heading, { kind: "diff", hunks: [{ ...(where && { label: where }), removed: [], added: toLines(args.content) }] });
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    if (args.content === "") return toolError("invalid_args", "content is empty; give the lines to insert.");
    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    if (!before) return toolError("not_found", `${target.display} does not exist. insert_content adds to existing files; create a file with write_to_file.`);

    const inserted = splitLines(args.content.replace(/\r\n/g, "\n")).lines;
    const insertion = insertLines(before, inserted, args.line, target.display);
    if (isOutcome(insertion)) return insertion;
    const { after, at } = insertion;
    // Appending still appends when the file changed while this waited; a line number may then point
    // elsewhere, so such an insertion is refused (see WriteGuard).
    const remake =
      args.line === 0
        ? (current: TextFile) => {
            const again = insertLines(current, inserted, 0, target.display);
            return isOutcome(again) ? again : again.after;
          }
        : undefined;
    const edit = await proposeEdit(context, { target, before, after, tool: "insert_content", ...(remake && { remake }) });
    if (!edit.applied) return edit.outcome;
    const where = args.line === 0 ? "at the end" : `before line ${args.line}`;
    const count = `${inserted.length} ${inserted.length === 1 ? "line" : "lines"}`;
    return { kind: "result", text: `Inserted ${count} into ${target.display} ${where} (lines ${at + 1}-${at + inserted.length} now).${edit.note}` };
  },
});

/** The file with `inserted` before line `line` (0: at the end), in the file's conventions; an error past the end. */
function insertLines(before: TextFile, inserted: string[], line: number, display: string): { after: string; at: number } | ToolOutcome {
  // Work in "\n" form; encodeLike puts the file's own line endings (and BOM) back.
  const file = splitLines(before.text.replace(/\r\n/g, "\n"));
  const total = file.lines.length;
  if (line > total) {
    return toolError("invalid_args", `${display} has ${total} lines, so there is no line ${line} to insert before. Use line 0 to append at the end, or a line from 1 to ${total}.`);
  }
  const at = line === 0 ? total : line - 1;
  const lines = [...file.lines.slice(0, at), ...inserted, ...file.lines.slice(at)];
  // Appending to a file that had no final line break would glue the last line to the new one;
  // the result ends with a line break when the file did, or when it gained lines at its end.
  const finalNewline = file.finalNewline || (line === 0 && total > 0) || total === 0;
  return { after: encodeLike(before, lines.join("\n") + (finalNewline ? "\n" : "")), at };
}
