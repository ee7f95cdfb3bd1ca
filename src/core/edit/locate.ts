import type { DiffBlock } from "./parse";
import { blockSimilarity, similarityBound } from "./similarity";
import { keyOf, type SourceFile } from "./source";

export type MatchLevel = "exact" | "whitespace" | "fuzzy";

export type Located =
  | { kind: "found"; start: number; level: MatchLevel; similarity: number }
  | { kind: "ambiguous"; level: MatchLevel; starts: number[] }
  | { kind: "missing"; best?: Scored };

export interface Scored {
  start: number;
  similarity: number;
}

/** A hint picks one of several equal matches only when that one is this close to it (in lines)... */
export const HINT_WINDOW = 20;
/** ...and the next one is more than twice as far: a hint halfway between two places picks neither. */
function hintPicks(starts: readonly number[], hint: number | undefined): number | undefined {
  if (starts.length === 1) return starts[0];
  if (hint === undefined) return undefined;
  const h = hint - 1;
  const [first, second] = [...starts].sort((a, b) => Math.abs(a - h) - Math.abs(b - h));
  const d0 = Math.abs(first! - h);
  const d1 = Math.abs(second! - h);
  return d0 <= HINT_WINDOW && d1 > 2 * d0 ? first : undefined;
}

/** Lines each side of the hint that fuzzy matching tries, anchors or not. */
const FUZZY_WINDOW = 40;
/** Scores this close to the best are looked at too: they may be rivals or the best may shift. */
const TIE = 0.02;
/** A line found more often than this says little about where a block is. */
const MAX_ANCHOR_HITS = 64;
/** Full comparisons per block at most; candidates are tried best bound first. */
const MAX_EVALUATED = 400;
/** Below this, what anchors and the hint found is poor enough to be worth a scan of the whole file. */
const RESCAN_BELOW = 0.8;

/** Where the lines of `search` occur exactly: one indexOf pass over the file per hit. */
function exactStarts(file: SourceFile, search: readonly string[]): number[] {
  const needle = search.join("\n");
  const text = file.text;
  const starts: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (at > 0 && text.charCodeAt(at - 1) !== 10) continue;
    if (end < text.length && text.charCodeAt(end) !== 10) continue;
    const start = file.lineAt(at);
    // A SEARCH ending in a blank line must not match the empty "line" after the final newline.
    if (start + search.length <= file.lineCount) starts.push(start);
  }
  return starts;
}

/** Where the normalized lines occur: looked up from the rarest of them, then checked in place. */
function keyStarts(file: SourceFile, keys: readonly string[]): number[] {
  const index = file.index;
  const fileKeys = file.keys;
  let anchor = 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (let k = 0; k < keys.length; k++) {
    const hits = index.get(keys[k]!)?.length ?? 0;
    if (hits === 0) return [];
    if (hits < fewest) {
      fewest = hits;
      anchor = k;
    }
  }
  const starts: number[] = [];
  for (const line of index.get(keys[anchor]!)!) {
    const start = line - anchor;
    if (start < 0 || start + keys.length > file.lineCount) continue;
    let k = 0;
    while (k < keys.length && fileKeys[start + k] === keys[k]) k++;
    if (k === keys.length) starts.push(start);
  }
  return starts;
}

/**
 * The places most like `keys`, best first: candidates come from lines of the block found verbatim
 * (anchors) and a window around the hint; only when those are poor is every place considered.
 * Each is bounded cheaply by line lengths before the edit distances are computed.
 */
function fuzzyScores(file: SourceFile, keys: readonly string[], hint: number | undefined, threshold: number): Scored[] {
  const m = keys.length;
  const last = file.lineCount - m;
  if (last < 0) return [];
  const fileKeys = file.keys;
  const index = file.index;
  const candidates = new Set<number>();
  for (let k = 0; k < m; k++) {
    if (keys[k]!.length < 3) continue;
    const hits = index.get(keys[k]!);
    if (!hits || hits.length > MAX_ANCHOR_HITS) continue;
    for (const line of hits) if (line - k >= 0 && line - k <= last) candidates.add(line - k);
  }
  if (hint !== undefined) {
    const h = hint - 1;
    for (let s = Math.max(0, h - FUZZY_WINDOW); s <= Math.min(last, h + FUZZY_WINDOW); s++) candidates.add(s);
  }
  const scored: Scored[] = [];
  const tried = new Set<number>();
  const evaluate = (starts: Iterable<number>) => {
    const bounded = [...starts].map((start) => ({ start, bound: similarityBound(keys, fileKeys, start) })).sort((a, b) => b.bound - a.bound || a.start - b.start);
    let best = scored.reduce((max, s) => Math.max(max, s.similarity), -1);
    let count = 0;
    for (const { start, bound } of bounded) {
      // Keep whatever could be the best, a near tie, or (fuzzy on) a rival above the threshold.
      const keep = Math.max(0, Math.min(best - TIE, threshold));
      if (bound < keep || count++ >= MAX_EVALUATED) break;
      tried.add(start);
      const similarity = blockSimilarity(keys, fileKeys, start, keep);
      if (similarity < 0) continue;
      scored.push({ start, similarity });
      if (similarity > best) best = similarity;
    }
  };
  evaluate(candidates);
  const best = scored.reduce((max, s) => Math.max(max, s.similarity), -1);
  if (best < RESCAN_BELOW) {
    const rest: number[] = [];
    for (let s = 0; s <= last; s++) if (!tried.has(s)) rest.push(s);
    evaluate(rest);
  }
  return scored.sort((a, b) => b.similarity - a.similarity || a.start - b.start);
}

/**
 * Finds where one block applies: exact, else ignoring whitespace, else (threshold below 1) by
 * similarity. The first level with any match decides; several matches there are refused unless the
 * hint singles one out, so a block is never applied at a place the model may not have meant.
 */
export function locate(file: SourceFile, block: DiffBlock, threshold: number): Located {
  const exact = exactStarts(file, block.search);
  if (exact.length > 0) return decide(exact, "exact", block.startLine, () => 1);
  const keys = block.search.map(keyOf);
  const loose = keyStarts(file, keys);
  if (loose.length > 0) return decide(loose, "whitespace", block.startLine, () => 1);
  const fuzzyOn = threshold < 1;
  const scored = fuzzyScores(file, keys, block.startLine, fuzzyOn ? threshold : 1);
  const top = scored[0];
  if (fuzzyOn && top && top.similarity >= threshold) {
    const passing = scored.filter((s) => s.similarity >= threshold);
    const starts = passing.map((s) => s.start).sort((a, b) => a - b);
    return decide(starts, "fuzzy", block.startLine, (start) => passing.find((s) => s.start === start)!.similarity);
  }
  return { kind: "missing", best: top };
}

function decide(starts: number[], level: MatchLevel, hint: number | undefined, similarity: (start: number) => number): Located {
  const start = hintPicks(starts, hint);
  return start === undefined ? { kind: "ambiguous", level, starts } : { kind: "found", start, level, similarity: similarity(start) };
}
