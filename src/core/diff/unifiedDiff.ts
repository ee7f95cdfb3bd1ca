import { formatPatch, lineDiff, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from "diff";

/** Context lines around each change, jsdiff's default and what Kiln has always shown. */
const DEFAULT_CONTEXT = 4;

/**
 * The exact diff's budget, in edits (a changed line is two: a removal and an addition). jsdiff's
 * Myers algorithm costs about edits² (1,000 edits: ~0.1 s; 5,000: ~2 s), plus up to
 * (old lines + new lines) × edits where lines repeat, so the budget shrinks as the files grow past
 * 10k lines (200k lines of one repeated line took ~0.35 s more at 1,000 edits than at 10).
 */
const MAX_EDITS = 1_000;
const MIN_EDITS = 100;
const LINE_EDIT_BUDGET = 10_000_000;
const NO_NEWLINE = "\\ No newline at end of file";

/**
 * The unified diff jsdiff's `createTwoFilesPatch` gives, with a bound on its cost: jsdiff's exact
 * diff is quadratic when most lines change (a whole-file rewrite of 1 MB took 18 s), so past the
 * budget the change is shown as one hunk that removes every old line between the common start and
 * end and adds every new one — still a patch that applies, in linear time and space.
 */
export function unifiedDiff(oldName: string, newName: string, oldText: string, newText: string, oldHeader?: string, newHeader?: string): string {
  return formatPatch(boundedStructuredPatch(oldName, newName, oldText, newText, oldHeader, newHeader));
}

/** `structuredPatch` with the same bound (see unifiedDiff). */
export function boundedStructuredPatch(oldName: string, newName: string, oldText: string, newText: string, oldHeader?: string, newHeader?: string, context = DEFAULT_CONTEXT): StructuredPatch {
  const lines = lineBreaks(oldText) + lineBreaks(newText) + 2;
  const maxEditLength = Math.min(MAX_EDITS, Math.max(MIN_EDITS, Math.floor(LINE_EDIT_BUDGET / lines)));
  const exact = structuredPatch(oldName, newName, oldText, newText, oldHeader, newHeader, { context, maxEditLength });
  if (exact) return exact;
  const hunks = wholeRangeHunks(lineDiff.tokenize(oldText, {}), lineDiff.tokenize(newText, {}), context);
  return { oldFileName: oldName, newFileName: newName, oldHeader, newHeader, hunks };
}

/** Cheaper than splitting the text into lines, which only the fallback needs. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * One hunk replacing everything between the lines both texts start and end with, laid out as
 * jsdiff lays out a hunk of one removal and one addition. Lines are jsdiff's line tokens: each with
 * its line end, the last one without where the text has none.
 */
function wholeRangeHunks(oldLines: readonly string[], newLines: readonly string[], context: number): StructuredPatchHunk[] {
  const shorter = Math.min(oldLines.length, newLines.length);
  let prefix = 0;
  while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  const removed = oldLines.slice(prefix, oldLines.length - suffix);
  const added = newLines.slice(prefix, newLines.length - suffix);
  if (removed.length === 0 && added.length === 0) return [];
  const before = oldLines.slice(Math.max(0, prefix - context), prefix);
  const after = oldLines.slice(oldLines.length - suffix, oldLines.length - suffix + Math.min(suffix, context));
  const lines: string[] = [];
  const push = (mark: string, tokens: readonly string[]) => {
    for (const token of tokens) {
      if (token.endsWith("\n")) lines.push(mark + token.slice(0, -1));
      else lines.push(mark + token, NO_NEWLINE);
    }
  };
  push(" ", before);
  push("-", removed);
  push("+", added);
  push(" ", after);
  return [
    {
      oldStart: prefix - before.length + 1,
      oldLines: before.length + removed.length + after.length,
      newStart: prefix - before.length + 1,
      newLines: before.length + added.length + after.length,
      lines,
    },
  ];
}
