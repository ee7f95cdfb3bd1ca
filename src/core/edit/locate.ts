import type { DiffBlock } from "./parse";
import { nestingDiffers } from "./indent";
import { blockSimilarity, similarityBound } from "./similarity";
import { keyOf, type SourceFile } from "./source";

export type MatchLevel = "exact" | "whitespace" | "fuzzy";

export type Located =
  | { kind: "found"; start: number; level: MatchLevel; similarity: number }
  | { kind: "ambiguous"; level: MatchLevel; starts: number[] }
  /** nesting: SEARCH matches at `start` ignoring whitespace, but line `line` is nested unlike the file. */
  | { kind: "missing"; best?: Scored; nesting?: { start: number; line: number } };

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

/** Lines each side of the hint that fuzzy matching tries, whatever else points there. */
const FUZZY_WINDOW = 40;
/** Scores this close to the best are looked at too: they may be rivals or the best may shift. */
const TIE = 0.02;
/** Words of SEARCH shorter than this say too little about where it is. */
const MIN_TOKEN = 3;
const MAX_TOKENS = 24;
/** A word found on more lines than this says little about where a block is. */
const MAX_TOKEN_LINES = 64;
/** Places compared in full at most, per pass; the likeliest first. */
const MAX_EVALUATED = 400;
/** Below this, what the words and the hint pointed to is poor enough to compare every place... */
const RESCAN_BELOW = 0.8;
/** ...if that is at most this many line comparisons. */
const FULL_SCAN_BUDGET = 60_000;

/** Where the lines of `search` occur exactly: one indexOf pass over the file, on past each hit to find them all. */
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

/**
 * Where the normalized lines occur. Whitespace differs, but a run of non-space characters cannot:
 * the longest one in SEARCH is found with indexOf like an exact match, and only the places it
 * occurs are compared line by line. No key is made for the rest of the file.
 */
function keyStarts(file: SourceFile, keys: readonly string[]): number[] {
  let token = "";
  let tokenLine = 0;
  keys.forEach((key, k) => {
    for (const word of key.split(" ")) {
      if (word.length > token.length) {
        token = word;
        tokenLine = k;
      }
    }
  });
  const starts: number[] = [];
  const text = file.text;
  let previous = -1;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
    const start = file.lineAt(at) - tokenLine;
    if (start === previous || start < 0 || start + keys.length > file.lineCount) continue;
    previous = start;
    let k = 0;
    while (k < keys.length && file.key(start + k) === keys[k]) k++;
    if (k === keys.length) starts.push(start);
  }
  return starts;
}

/**
 * Places where SEARCH's words occur, by how much of SEARCH they would line up: a typo spoils one
 * word of a line, not the others. Each word is one indexOf pass; common words are dropped early.
 */
function wordVotes(file: SourceFile, keys: readonly string[], last: number): Map<number, number> {
  const linesOf = new Map<string, number[]>();
  keys.forEach((key, k) => {
    for (const word of key.split(" ")) {
      if (word.length < MIN_TOKEN) continue;
      const lines = linesOf.get(word);
      if (!lines) linesOf.set(word, [k]);
      else if (lines[lines.length - 1] !== k) lines.push(k);
    }
  });
  const votes = new Map<number, number>();
  const words = [...linesOf.keys()].sort((a, b) => b.length - a.length).slice(0, MAX_TOKENS);
  for (const word of words) {
    const hits: number[] = [];
    for (let at = file.text.indexOf(word); at !== -1 && hits.length <= MAX_TOKEN_LINES; at = file.text.indexOf(word, at + 1)) {
      const line = file.lineAt(at);
      if (hits[hits.length - 1] !== line) hits.push(line);
    }
    if (hits.length > MAX_TOKEN_LINES) continue;
    for (const line of hits) {
      for (const k of linesOf.get(word)!) {
        const start = line - k;
        if (start >= 0 && start <= last) votes.set(start, (votes.get(start) ?? 0) + word.length);
      }
    }
  }
  return votes;
}

/**
 * The places most like `keys`, best first. Candidates are where SEARCH's words point and a window
 * around the hint; only a small file is compared everywhere when those are poor. Each candidate is
 * bounded by line lengths before edit distances are computed, and those stop once past the bar.
 */
function fuzzyScores(file: SourceFile, keys: readonly string[], hint: number | undefined, threshold: number): Scored[] {
  const m = keys.length;
  const last = file.lineCount - m;
  if (last < 0) return [];
  const keyAt = (line: number) => file.key(line);
  const votes = [...wordVotes(file, keys, last)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const candidates = new Set(votes.slice(0, MAX_EVALUATED).map(([start]) => start));
  if (hint !== undefined) {
    const h = hint - 1;
    for (let s = Math.max(0, h - FUZZY_WINDOW); s <= Math.min(last, h + FUZZY_WINDOW); s++) candidates.add(s);
  }
  const scored: Scored[] = [];
  const tried = new Set<number>();
  let best = -1;
  const evaluate = (starts: Iterable<number>) => {
    const bounded = [...starts].map((start) => ({ start, bound: similarityBound(keys, keyAt, start) })).sort((a, b) => b.bound - a.bound || a.start - b.start);
    let count = 0;
    for (const { start, bound } of bounded) {
      // Keep whatever could be the best, a near tie, or (fuzzy on) a rival above the threshold.
      const keep = Math.max(0, Math.min(best - TIE, threshold));
      if (bound < keep || count++ >= MAX_EVALUATED) break;
      tried.add(start);
      const similarity = blockSimilarity(keys, keyAt, start, keep);
      if (similarity < 0) continue;
      scored.push({ start, similarity });
      if (similarity > best) best = similarity;
    }
  };
  evaluate(candidates);
  if (best < RESCAN_BELOW && (last + 1) * m <= FULL_SCAN_BUDGET) {
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
  const m = block.search.length;
  const misnested = (start: number) => nestingDiffers(block.search, file.lines(start, start + m));
  const keys = block.search.map(keyOf);
  const loose = keyStarts(file, keys);
  const fitting = loose.filter((start) => misnested(start) === -1);
  if (fitting.length > 0) return decide(fitting, "whitespace", block.startLine, () => 1);
  if (loose.length > 0) {
    const h = (block.startLine ?? 1) - 1;
    const start = loose.reduce((best, s) => (Math.abs(s - h) < Math.abs(best - h) ? s : best));
    return { kind: "missing", nesting: { start, line: start + misnested(start) } };
  }
  const fuzzyOn = threshold < 1;
  const scored = fuzzyScores(file, keys, block.startLine, fuzzyOn ? threshold : 1);
  const top = scored[0];
  if (fuzzyOn && top && top.similarity >= threshold) {
    const passing = scored.filter((s) => s.similarity >= threshold && misnested(s.start) === -1);
    const starts = passing.map((s) => s.start).sort((a, b) => a - b);
    if (starts.length > 0) return decide(starts, "fuzzy", block.startLine, (start) => passing.find((s) => s.start === start)!.similarity);
  }
  return { kind: "missing", best: top };
}

function decide(starts: number[], level: MatchLevel, hint: number | undefined, similarity: (start: number) => number): Located {
  const start = hintPicks(starts, hint);
  return start === undefined ? { kind: "ambiguous", level, starts } : { kind: "found", start, level, similarity: similarity(start) };
}
