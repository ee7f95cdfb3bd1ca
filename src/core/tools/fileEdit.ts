import { toolError, type ToolContext, type ToolOutcome } from "./defineTool";
import { unifiedDiff } from "../diff/unifiedDiff";
import { DirectEditReview } from "../edit/directEditReview";
import type { EncodingHint } from "../ports/fileSystem";
import type { ResolvedPath } from "./paths";
import { REDACTED } from "../llm/redact";
import { classify, guessBinaryType } from "./fileFormats";
import { decodeBytes, encodeText, label, unencodable, UTF8 } from "../files/textEncoding";
import { fingerprint, type Fingerprint, type Remade, type WriteGuard } from "../files/guardedWrite";

/** A text file as it is on disk, with what an edit must keep: its encoding, line endings and BOM. */
export interface TextFile {
  /** Content without the BOM, line endings as in the file. */
  text: string;
  bom: boolean;
  eol: "\r\n" | "\n";
  /** Its character encoding (see core/files/textEncoding): the edit is written back in it. */
  encoding: string;
  /** Its bytes as read, so the write can tell whether someone changed the file meanwhile. */
  fingerprint?: Fingerprint;
}

export type TextRead = { ok: true; file: TextFile } | { ok: false; binary: true; type: string } | { ok: false; binary: false; reason: string };

/**
 * The file's text and conventions; refused for a binary file, and (with why) for an encoding that
 * cannot be told for certain: an edit of either would rewrite bytes it never meant to touch.
 */
export function decodeText(path: string, bytes: Uint8Array, hint?: EncodingHint): TextRead {
  const kind = classify(path, bytes);
  if (kind.kind !== "text") return { ok: false, binary: true, type: guessBinaryType(path, bytes) };
  const decoded = decodeBytes(bytes, hint);
  if (!decoded.ok) return { ok: false, binary: false, reason: decoded.reason };
  const { text, bom, encoding } = decoded;
  const crlf = text.indexOf("\r\n");
  const lf = text.indexOf("\n");
  return { ok: true, file: { text, bom, encoding, eol: crlf !== -1 && crlf < lf ? "\r\n" : "\n" } };
}

/** Why an edit tool leaves a file alone that decodeText refused. */
function refusal(display: string, read: Exclude<TextRead, { ok: true }>): string {
  if (read.binary) return `${display} is a binary file (${read.type}), not text; the edit tools change text files only, so nothing was changed.`;
  return `${display} cannot be edited safely: ${read.reason}. Nothing was changed, so that no byte of it is rewritten wrongly. If the user knows its encoding, they can tell VS Code (the files.encoding setting, or Reopen with Encoding) or convert the file to UTF-8; otherwise leave the file as it is.`;
}

/** Back to the file's own conventions: its line endings and its BOM. */
export function encodeLike(file: TextFile | undefined, text: string): string {
  if (!file) return text;
  const eolFixed = file.eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text;
  return file.bom ? `\uFEFF${eolFixed}` : eolFixed;
}

/** The file's text, or undefined when it does not exist; an error outcome when it is not a text file that can be edited safely. */
export async function readTextFile(context: ToolContext, target: ResolvedPath): Promise<TextFile | undefined | ToolOutcome> {
  const stat = await context.fs.stat(target.absolute);
  if (!stat) return undefined;
  if (stat.type !== "file") return toolError("wrong_type", `${target.display} is ${stat.type === "directory" ? "a folder" : "not a regular file"}.`);
  const bytes = await context.fs.readFile(target.absolute);
  const read = decodeText(target.absolute, bytes, await context.fs.encodingHint?.(target.absolute));
  if (!read.ok) return toolError("unsupported", refusal(target.display, read));
  return { ...read.file, fingerprint: fingerprint(bytes) };
}

export function isOutcome(value: unknown): value is ToolOutcome {
  return typeof value === "object" && value !== null && "kind" in value;
}

export interface EditProposal {
  target: ResolvedPath;
  /** The file before the edit (undefined: a new file). */
  before: TextFile | undefined;
  /** The whole new text in the file's conventions (see encodeLike); null deletes. */
  after: string | null;
  tool: string;
  /**
   * The same edit made on the file as it is when the write comes (see WriteGuard): the whole new
   * text in its conventions, or an error outcome when the edit no longer applies. Absent: a file
   * changed meanwhile refuses the edit.
   */
  remake?(current: TextFile): string | ToolOutcome;
  /**
   * Leave out the errors the editor finds after the save: a change across files (a rename) leaves
   * the others wrong until the last is saved, so what is found meanwhile is not the edit's doing.
   */
  withoutProblems?: boolean;
}

export type EditApplied =
  /** note: for the model: what the user changed in the proposal (a patch), and new problems after the save. */
  { applied: true; content: string | null; userEdited: boolean; note: string } | { applied: false; outcome: ToolOutcome };

/**
 * Sends an edit through review: the user (or auto-approval) sees the unified diff and decides;
 * then it is written atomically. Rejected: nothing changed and the model is told.
 */
export async function proposeEdit(context: ToolContext, proposal: EditProposal): Promise<EditApplied> {
  const { target, before, after, tool } = proposal;
  const original = before ? encodeLike(before, before.text) : undefined;
  const encoding = before?.encoding ?? UTF8;
  // Caught before anyone reviews it: saved, such a character would become a "?" in the file.
  const missing = after === null ? [] : unencodable(after, encoding);
  if (missing.length > 0) {
    const chars = missing.map((c) => JSON.stringify(c)).join(", ");
    return {
      applied: false,
      outcome: toolError(
        "unsupported",
        `${target.display} is stored as ${label(encoding)}, which cannot hold ${chars}; nothing was changed. Write the change without ${missing.length === 1 ? "that character" : "those characters"} (an ASCII spelling, or an escape the file's language understands).`,
      ),
    };
  }
  const diffTo = (text: string | null) => {
    const patch = unifiedDiff(target.display, target.display, original ?? "", text ?? "", before ? "before" : "new file", text === null ? "deleted" : "proposed");
    // From the ---/+++ header on: the Index and ==== lines say nothing a reviewer needs.
    return patch.slice(Math.max(0, patch.indexOf("--- ")));
  };
  const diff = diffTo(after);
  const edits = context.edits ?? new DirectEditReview(context.fs);
  const approve = context.approve ?? (async () => ({ approved: true }) as const);
  // The model saw [redacted] where a file it read held a secret; writing the mark back would put it
  // in place of the real value. A person decides, whatever is auto-approved.
  const writesMark = original !== undefined && count(after ?? "", REDACTED) > count(original, REDACTED);
  const details = writesMark
    ? { diff, alwaysAsk: true, reason: `The change writes ${REDACTED}, the mark Kiln puts where it hid a secret from the model: saved, it would replace the real value in ${target.display}.` }
    : { diff };
  const hint = proposal.remake ? await context.fs.encodingHint?.(target.absolute) : undefined;
  // A file read without its fingerprint (by a caller that did not go through readTextFile) is not checked.
  const guard: WriteGuard | undefined =
    before && before.fingerprint === undefined
      ? undefined
      : { expected: before?.fingerprint ?? null, ...(proposal.remake && { remake: (current: Uint8Array) => remakeEdit(target, current, hint, proposal.remake!) }) };
  const result = await edits.apply(
    { path: target.absolute, display: target.display, original, proposed: after, encoding, tool, guard },
    (shown) => approve(shown?.inEditor ? { ...details, inEditor: true } : details),
    context.reviseApproval && ((proposed) => context.reviseApproval!(diffTo(proposed))),
  );
  if (!result.applied) {
    if (result.notWritten) return { applied: false, outcome: toolError("conflict", result.notWritten) };
    return { applied: false, outcome: { kind: "denied", feedback: result.feedback } };
  }
  context.changes?.record(target.absolute, target.display, result.remadeFrom ?? original, result.content, encoding);
  context.seen?.set(target.absolute, result.content === null ? null : fingerprint(encodeText(result.content, encoding)));
  const problems = result.newProblems?.length && !proposal.withoutProblems ? problemNote(target.display, result.newProblems) : "";
  const discarded = result.discardedChanges?.length
    ? ` The user discarded ${result.discardedChanges.length === 1 ? "this change" : "these changes"} of your proposal: ${result.discardedChanges.join("; ")}; the rest was saved.`
    : "";
  const remade =
    result.remadeFrom !== undefined
      ? ` ${target.display} had changed after you read it (the user or another task edited it meanwhile): your edit was made again on the file as it was then, and saved; its other changes are kept.`
      : "";
  return { ...result, note: remade + discarded + (result.userEdited ? userEditNote(target.display, after ?? "", result.content ?? "") : "") + problems };
}

/** The edit made again on the file's new bytes, through the same checks as the first time. */
function remakeEdit(target: ResolvedPath, current: Uint8Array, hint: EncodingHint | undefined, remake: (file: TextFile) => string | ToolOutcome): Remade {
  const read = decodeText(target.absolute, current, hint);
  if (!read.ok) return { ok: false, reason: refusal(target.display, read) };
  const after = remake(read.file);
  if (typeof after !== "string") return { ok: false, reason: after.kind === "error" ? after.message : "it could not be made again" };
  if (unencodable(after, read.file.encoding).length > 0) return { ok: false, reason: `it holds characters ${label(read.file.encoding)} cannot store` };
  return { ok: true, content: after, original: encodeLike(read.file, read.file.text) };
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** New errors after the save, so the model fixes what it broke before moving on. */
function problemNote(display: string, problems: readonly string[]): string {
  return `\n\nNew problems in ${display} after this edit (fix them if the edit caused them):\n${problems.map((p) => `- ${p}`).join("\n")}`;
}

/** What the user changed in the proposal, so the model knows the file as saved without reading it. */
function userEditNote(display: string, proposed: string, saved: string): string {
  const patch = unifiedDiff(display, display, proposed, saved, "your proposal", "saved by the user");
  return ` The user edited your proposal before saving; the file as saved differs from it by this patch:\n${patch.slice(Math.max(0, patch.indexOf("--- ")))}`;
}
