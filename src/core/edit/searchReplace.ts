import { adaptReplacement } from "./indent";
import { locate, type MatchLevel } from "./locate";
import { parseDiff, type DiffBlock } from "./parse";
import { ambiguous, misnested, notFound, overlap, summarize, type BlockFailure } from "./report";
import { SourceFile } from "./source";

export interface SearchReplaceOptions {
  /** 1 (the default): only exact and whitespace-insensitive matches; e.g. 0.9 also takes near matches. */
  fuzzyThreshold?: number;
}

export interface BlockMatch {
  block: number;
  /** 1-based first and last line in the original file. */
  line: number;
  endLine: number;
  level: MatchLevel;
  similarity: number;
  /** The block's :start_line:, to tell the model when the text was found somewhere else. */
  hint?: number;
}

export type SearchReplaceResult = { ok: true; content: string; applied: number; matches: BlockMatch[] } | { ok: false; error: string; failures: BlockFailure[] };

/** Lines each side of a match that show the file's indentation style. */
const AROUND = 50;

interface Placed {
  block: DiffBlock;
  start: number;
  level: MatchLevel;
  similarity: number;
}

/**
 * Applies every SEARCH/REPLACE block of `diff` to `original`, or none. Blocks are located on the
 * original text, so their order does not matter and a block's :start_line: means a line of the file
 * as the model read it. Line endings (even mixed) and a BOM are kept.
 */
export function applySearchReplace(original: string, diff: string, options: SearchReplaceOptions = {}): SearchReplaceResult {
  const threshold = Math.min(1, Math.max(0, options.fuzzyThreshold ?? 1));
  const parsed = parseDiff(diff);
  if (!parsed.ok) {
    const failures: BlockFailure[] = parsed.errors.map((e) => ({ block: e.block, reason: "malformed", message: e.message }));
    return { ok: false, error: summarize(failures, failures.length, true), failures };
  }
  const file = new SourceFile(original);
  const failures: BlockFailure[] = [];
  const placed: Placed[] = [];
  for (const block of parsed.blocks) {
    const found = locate(file, block, threshold);
    if (found.kind === "found") placed.push({ block, start: found.start, level: found.level, similarity: found.similarity });
    else if (found.kind === "ambiguous") failures.push(ambiguous(block, found.level, found.starts));
    else if (found.nesting) failures.push(misnested(file, block, found.nesting.start, found.nesting.line));
    else failures.push(notFound(file, block, found.best, threshold));
  }
  placed.sort((a, b) => a.start - b.start);
  for (let i = 1; i < placed.length; i++) {
    const previous = placed[i - 1]!;
    if (placed[i]!.start < previous.start + previous.block.search.length) failures.push(overlap(previous.block, previous.start, placed[i]!.block, placed[i]!.start));
  }
  if (failures.length > 0) {
    failures.sort((a, b) => a.block - b.block);
    return { ok: false, error: summarize(failures, parsed.blocks.length, false), failures };
  }
  const edits = placed.map(({ block, start, level }) => ({
    start,
    end: start + block.search.length,
    lines: level === "exact" ? block.replace : adaptReplacement(block.search, block.replace, file.lines(start - AROUND, start + block.search.length + AROUND), Math.min(start, AROUND)),
  }));
  const matches = placed
    .map(({ block, start, level, similarity }) => ({ block: block.index, line: start + 1, endLine: start + block.search.length, level, similarity, hint: block.startLine }))
    .sort((a, b) => a.block - b.block);
  return { ok: true, content: file.render(edits), applied: placed.length, matches };
}
