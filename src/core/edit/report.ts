/** What the model reads when a block fails: where the closest text is, and what exactly differs. */
import type { MatchLevel, Scored } from "./locate";
import { HINT_WINDOW } from "./locate";
import type { DiffBlock } from "./parse";
import { lineSimilarity } from "./similarity";
import { keyOf, type SourceFile } from "./source";

export interface LineDifference {
  /** 1-based line in the file. */
  line: number;
  kind: "whitespace" | "typo" | "changed";
  file: string;
  search: string;
  similarity: number;
}

export interface BlockFailure {
  /** 1-based block number in the diff; 0 for a diff with no blocks at all. */
  block: number;
  reason: "malformed" | "not_found" | "ambiguous" | "overlap";
  message: string;
  /** not_found: the most similar place, 1-based lines. */
  candidate?: { line: number; endLine: number; similarity: number; differences: LineDifference[] };
  /** ambiguous: the 1-based first lines of the places that match; overlap: the other block's number. */
  lines?: number[];
  otherBlock?: number;
}

/** Below this the closest text is too unlike SEARCH to be worth showing line by line. */
const SHOW_BELOW = 0.5;
const MAX_SHOWN = 4;
const TYPO_AT_LEAST = 0.75;

export const percent = (similarity: number) => `${Math.floor(similarity * 1000) / 10}%`;

const quote = (text: string, max = 120) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

export function label(block: DiffBlock): string {
  const first = block.search.find((line) => line.trim() !== "")?.trim() ?? "";
  const hint = block.startLine !== undefined ? `, :start_line: ${block.startLine}` : "";
  return `Block ${block.index} (SEARCH starts ${quote(first, 50)}${hint})`;
}

function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 10);
  const more = lines.length > shown.length ? ` and ${lines.length - shown.length} more` : "";
  return shown.length === 1 ? `${shown[0]}` : `${shown.slice(0, -1).join(", ")}${more ? `, ${shown.at(-1)}${more}` : ` and ${shown.at(-1)}`}`;
}

const LEVEL_WORDS: Record<MatchLevel, string> = {
  exact: "exactly",
  whitespace: "when whitespace is ignored",
  fuzzy: "by similarity",
};

export function ambiguous(block: DiffBlock, level: MatchLevel, starts: readonly number[]): BlockFailure {
  const lines = starts.map((s) => s + 1);
  const hint =
    block.startLine === undefined
      ? "Add :start_line: with the line where the place you mean starts, or"
      : `Its :start_line: ${block.startLine} does not single one out (it must be within ${HINT_WINDOW} lines of one of them and clearly closer to it than to any other). Correct :start_line:, or`;
  return {
    block: block.index,
    reason: "ambiguous",
    lines,
    message: `${label(block)}: SEARCH matches ${lines.length} places ${LEVEL_WORDS[level]}, starting at lines ${listLines(lines)}, so it was not applied. ${hint} include more lines around the change so that SEARCH matches only one place.`,
  };
}

function differences(file: SourceFile, block: DiffBlock, start: number): LineDifference[] {
  const found: LineDifference[] = [];
  block.search.forEach((search, k) => {
    const line = file.line(start + k);
    if (line === search) return;
    const a = keyOf(line);
    const b = keyOf(search);
    const similarity = lineSimilarity(a, b);
    const kind = a === b ? "whitespace" : similarity >= TYPO_AT_LEAST ? "typo" : "changed";
    found.push({ line: start + k + 1, kind, file: line, search, similarity });
  });
  return found;
}

const KIND_WORDS: Record<LineDifference["kind"], string> = {
  whitespace: "differs only in whitespace",
  typo: "a few characters differ (a typo?)",
  changed: "the file has a different line here now (is SEARCH out of date?)",
};

export function notFound(file: SourceFile, block: DiffBlock, best: Scored | undefined, threshold: number): BlockFailure {
  const head = `${label(block)}: SEARCH was not found in the file`;
  if (!best) {
    const why = block.search.length > file.lineCount ? `; SEARCH has ${block.search.length} lines but the file only ${file.lineCount}.` : ", and nothing in it is close.";
    return { block: block.index, reason: "not_found", message: `${head}${why} Read the file again; the code may have changed or be in another file.` };
  }
  const line = best.start + 1;
  const endLine = best.start + block.search.length;
  const lines = line === endLine ? `line ${line}` : `lines ${line}-${endLine}`;
  const diffs = differences(file, block, best.start);
  const candidate = { line, endLine, similarity: best.similarity, differences: diffs };
  if (best.similarity < SHOW_BELOW) {
    return {
      block: block.index,
      reason: "not_found",
      candidate,
      message: `${head}, and nothing in it is close (the most similar text, ${lines}, is ${percent(best.similarity)} alike). The code may have changed or be in another file: read the file again and copy the lines to replace exactly.`,
    };
  }
  const needs = threshold < 1 ? `, under the ${percent(threshold)} needed` : "";
  const far = block.startLine !== undefined && Math.abs(block.startLine - line) > 0 ? ` (:start_line: says ${block.startLine})` : "";
  const shown = diffs.slice(0, MAX_SHOWN).map((d) => `  - line ${d.line}: ${KIND_WORDS[d.kind]}\n      file:   ${quote(d.file)}\n      SEARCH: ${quote(d.search)}`);
  if (diffs.length > MAX_SHOWN) shown.push(`  - …and ${diffs.length - MAX_SHOWN} more lines differ.`);
  return {
    block: block.index,
    reason: "not_found",
    candidate,
    message: `${head}. Closest: ${lines}${far}, ${percent(best.similarity)} alike${needs}:\n${shown.join("\n")}\n  Read ${lines} again and copy ${line === endLine ? "it" : "them"} into SEARCH exactly.`,
  };
}

/** SEARCH matches ignoring whitespace, but nests its lines unlike the file does there. */
export function misnested(file: SourceFile, block: DiffBlock, start: number, line: number): BlockFailure {
  const k = line - start;
  const first = block.search.findIndex((l) => l.trim() !== "");
  return {
    block: block.index,
    reason: "not_found",
    candidate: { line: start + 1, endLine: start + block.search.length, similarity: 1, differences: differences(file, block, start) },
    message: `${label(block)}: SEARCH matches lines ${start + 1}-${start + block.search.length} only when indentation is ignored, and there it is nested differently from the file: line ${line + 1} is indented ${quote(indentText(file.line(line)))} in the file where line ${start + first + 1} is ${quote(indentText(file.line(start + first)))}, but SEARCH has ${quote(indentText(block.search[k]!))} and ${quote(indentText(block.search[first]!))}. Copy the lines with their indentation from the file.`,
  };
}

function indentText(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

export function overlap(a: DiffBlock, aStart: number, b: DiffBlock, bStart: number): BlockFailure {
  const range = (block: DiffBlock, start: number) => `${start + 1}-${start + block.search.length}`;
  return {
    block: b.index,
    reason: "overlap",
    otherBlock: a.index,
    message: `Blocks ${a.index} and ${b.index} change overlapping lines (${range(a, aStart)} and ${range(b, bStart)}); merge them into one block.`,
  };
}

export const FORMAT = "<<<<<<< SEARCH\n:start_line:N\n-------\n[exact lines from the file]\n=======\n[new lines]\n>>>>>>> REPLACE";

export function summarize(failures: readonly BlockFailure[], total: number, malformed: boolean): string {
  const details = failures.map((f) => (f.reason === "malformed" && f.block > 0 ? `- Block ${f.block}: ${f.message}` : `- ${f.message}`)).join("\n");
  if (malformed) return `the diff is malformed, so nothing was changed:\n${details}\nEach block is written:\n${FORMAT}`;
  if (total === 1) return `the block could not be applied, so nothing was changed:\n${details}`;
  return `${failures.length} of ${total} blocks could not be applied, so nothing was changed (the blocks of a diff apply all together or not at all). Fix ${failures.length === 1 ? "it" : "them"} and send the whole diff again, every block included:\n${details}`;
}
