/**
 * Similarity of a SEARCH block to a run of file lines, line by line on whitespace-normalized keys:
 * 1 - (edit distance summed over the lines) / (longer line length summed over the lines).
 * Line-aligned rather than over the joined text, so one comparison costs the sum of small per-line
 * tables, not one table of the block's size squared.
 */

let previous = new Int32Array(256);
let current = new Int32Array(256);

/** Levenshtein distance, or any number above `max` once it is sure to exceed it. */
export function editDistance(a: string, b: string, max = Number.MAX_SAFE_INTEGER): number {
  let start = 0;
  let endA = a.length;
  let endB = b.length;
  while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const la = endA - start;
  const lb = endB - start;
  if (la === 0 || lb === 0) return la + lb;
  if (Math.abs(la - lb) > max) return max + 1;
  if (previous.length <= lb) {
    previous = new Int32Array(lb * 2);
    current = new Int32Array(lb * 2);
  }
  let prev = previous;
  let cur = current;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(start + i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= lb; j++) {
      const substitute = prev[j - 1]! + (ca === b.charCodeAt(start + j - 1) ? 0 : 1);
      const v = Math.min(substitute, prev[j]! + 1, cur[j - 1]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  return prev[lb]!;
}

export function lineSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/** The best similarity `blockSimilarity` could find at `start`: edits cost at least the length gaps. */
export function similarityBound(search: readonly string[], keyAt: (line: number) => string, start: number): number {
  let shorter = 0;
  let longer = 0;
  for (let k = 0; k < search.length; k++) {
    const a = search[k]!.length;
    const b = keyAt(start + k).length;
    shorter += Math.min(a, b);
    longer += Math.max(a, b);
  }
  return longer === 0 ? 1 : shorter / longer;
}

/** Similarity of `search` to the lines from `start`, or -1 as soon as it is sure to fall below `atLeast`. */
export function blockSimilarity(search: readonly string[], keyAt: (line: number) => string, start: number, atLeast: number): number {
  let total = 0;
  for (let k = 0; k < search.length; k++) total += Math.max(search[k]!.length, keyAt(start + k).length);
  if (total === 0) return 1;
  const allowed = Math.floor((1 - atLeast) * total + 1e-9);
  let spent = 0;
  for (let k = 0; k < search.length; k++) {
    spent += editDistance(search[k]!, keyAt(start + k), allowed - spent);
    if (spent > allowed) return -1;
  }
  return 1 - spent / total;
}
