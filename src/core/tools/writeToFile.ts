import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { linkTo, said, view } from "./present";
import { resolvePath } from "./paths";
import { encodeLike, isOutcome, proposeEdit, readTextFile } from "./fileEdit";
import { findPlaceholder } from "./placeholders";
import { plural } from "../../shared/plural";

function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * The content ending as the file did: with a line break when the file had one at its end, without
 * when it had none, and with one in a new (or empty) file. The XML form of a call drops the value's
 * last line break, so how the content ends says nothing of what the model meant.
 */
function withFinalNewline(content: string, existing: string | undefined): string {
  if (content === "") return content;
  const body = content.replace(/\r?\n$/, "");
  const finalNewline = existing === undefined || existing === "" || existing.endsWith("\n");
  return finalNewline ? body + (content.includes("\r\n") ? "\r\n" : "\n") : body;
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
    return { summary: lines === 1 ? l10n.t("Write {0} (1 line)", args.path) : l10n.t("Write {0} ({1} lines)", args.path, lines), paths: [args.path], reviewed: true };
  },
  present(args, status) {
    return view(
      {
        icon: "new-file",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to write {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is writing {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln wrote {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to write {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not write {0}", TARGET_SLOT),
        }),
        target: args.path,
        link: linkTo(args.path),
      },
      args.content === undefined ? undefined : { kind: "file", path: args.path ?? "", content: args.content },
    );
  },
  async execute(args, context) {
    const target = resolvePath(context.cwd, args.path);
    const lines = countLines(args.content);
    if (args.line_count !== undefined && args.line_count > 0 && lines < args.line_count * 0.5) {
      return toolError("invalid_args", `content has ${lines} lines but line_count says ${args.line_count}; the content looks cut off, so nothing was written. Send the complete file.`);
    }
    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    // The content was written from what the model last saw of the file: a change made since (by the
    // user or another task) would silently go with the rewrite.
    const seen = context.seen?.get(target.absolute);
    if (seen !== undefined && seen !== (before?.fingerprint ?? null)) {
      return toolError(
        "conflict",
        `${target.display} ${before ? "changed" : "was deleted"} after you last read or wrote it (the user or another task ${before ? "edited" : "deleted"} it); nothing was written, so that change is kept. Read it again and write your content on top of what it holds now.`,
      );
    }
    // Only a rewrite can lose code to a placeholder; a new file has nothing to leave out.
    const placeholder = before ? findPlaceholder(args.content, { existing: before.text, path: target.display }) : undefined;
    if (placeholder) {
      return toolError(
        "invalid_args",
        `line ${placeholder.line} of content, "${placeholder.text}", looks like a placeholder for code you left out. write_to_file replaces the whole file, so that code would be lost; nothing was written. Send the complete file content with every line written out, or change only part of the file with apply_diff.`,
      );
    }
    // An existing file keeps its line endings, BOM and encoding, and a new one is written as sent,
    // but for the end: see withFinalNewline.
    const edit = await proposeEdit(context, { target, before, after: encodeLike(before, withFinalNewline(args.content, before?.text)), tool: "write_to_file" });
    if (!edit.applied) return edit.outcome;
    return { kind: "result", text: `${before ? "Overwrote" : "Created"} ${target.display} (${plural(lines, "line")}).${edit.note}` };
  },
});
