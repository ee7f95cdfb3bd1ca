import { createTwoFilesPatch } from "diff";
import type { ToolContext, ToolOutcome } from "./defineTool";
import { DirectEditReview } from "../ports/directEditReview";
import type { ResolvedPath } from "./paths";
import { REDACTED } from "../llm/redact";

/** A text file as it is on disk, with what an edit must keep: its line endings and a BOM. */
export interface TextFile {
  /** Content without the BOM, line endings as in the file. */
  text: string;
  bom: boolean;
  eol: "\r\n" | "\n";
}

export function decodeText(bytes: Uint8Array): TextFile {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = new TextDecoder().decode(bom ? bytes.subarray(3) : bytes);
  const crlf = text.indexOf("\r\n");
  const lf = text.indexOf("\n");
  return { text, bom, eol: crlf !== -1 && crlf < lf ? "\r\n" : "\n" };
}

/** Back to the file's own conventions: its line endings and its BOM. */
export function encodeLike(file: TextFile | undefined, text: string): string {
  if (!file) return text;
  const eolFixed = file.eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text;
  return file.bom ? `\uFEFF${eolFixed}` : eolFixed;
}

/** The file's text, or undefined when it does not exist; an error outcome when it is not a text file. */
export async function readTextFile(context: ToolContext, target: ResolvedPath): Promise<TextFile | undefined | ToolOutcome> {
  const stat = await context.fs.stat(target.absolute);
  if (!stat) return undefined;
  if (stat.type !== "file") return { kind: "result", text: `Error: ${target.display} is ${stat.type === "directory" ? "a folder" : "not a regular file"}.` };
  return decodeText(await context.fs.readFile(target.absolute));
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
}

export type EditApplied =
  /** note: for the model: what the user changed in the proposal (a patch), and new problems after the save. */
  | { applied: true; content: string | null; userEdited: boolean; note: string }
  | { applied: false; outcome: ToolOutcome };

/**
 * Sends an edit through review: the user (or auto-approval) sees the unified diff and decides;
 * then it is written atomically. Rejected: nothing changed and the model is told.
 */
export async function proposeEdit(context: ToolContext, proposal: EditProposal): Promise<EditApplied> {
  const { target, before, after, tool } = proposal;
  const original = before ? encodeLike(before, before.text) : undefined;
  const patch = createTwoFilesPatch(target.display, target.display, original ?? "", after ?? "", before ? "before" : "new file", after === null ? "deleted" : "proposed");
  // From the ---/+++ header on: the Index and ==== lines say nothing a reviewer needs.
  const diff = patch.slice(Math.max(0, patch.indexOf("--- ")));
  const edits = context.edits ?? new DirectEditReview(context.fs);
  const approve = context.approve ?? (async () => ({ approved: true }) as const);
  // The model saw [redacted] where a file it read held a secret; writing the mark back would put it
  // in place of the real value. A person decides, whatever is auto-approved.
  const writesMark = original !== undefined && count(after ?? "", REDACTED) > count(original, REDACTED);
  const details = writesMark
    ? { diff, alwaysAsk: true, reason: `The change writes ${REDACTED}, the mark Kiln puts where it hid a secret from the model: saved, it would replace the real value in ${target.display}.` }
    : { diff };
  const result = await edits.apply({ path: target.absolute, display: target.display, original, proposed: after, tool }, () => approve(details));
  if (!result.applied) return { applied: false, outcome: { kind: "denied", feedback: result.feedback } };
  context.changes?.record(target.absolute, target.display, original, result.content);
  const problems = result.newProblems?.length ? problemNote(target.display, result.newProblems) : "";
  const discarded = result.discardedChanges?.length ? ` The user discarded ${result.discardedChanges.length === 1 ? "this change" : "these changes"} of your proposal: ${result.discardedChanges.join("; ")}; the rest was saved.` : "";
  return { ...result, note: discarded + (result.userEdited ? userEditNote(target.display, after ?? "", result.content ?? "") : "") + problems };
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
  const patch = createTwoFilesPatch(display, display, proposed, saved, "your proposal", "saved by the user");
  return ` The user edited your proposal before saving; the file as saved differs from it by this patch:\n${patch.slice(Math.max(0, patch.indexOf("--- ")))}`;
}
