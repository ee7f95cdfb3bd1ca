/**
 * The text side of the chunker (chunker.ts): a file's lines, cutting a range of them into pieces
 * that fit the limits, Markdown sections, and turning pieces into chunks. Nothing here knows
 * about syntax trees.
 */
import { createHash } from "node:crypto";
import type { ChunkKind, CodeChunk } from "./types";

export interface ChunkLimits {
  maxLines: number;
  maxChars: number;
  /** A run of lines shorter than this between definitions joins its neighbour instead of standing alone. */
  minLines: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxLines: 80, maxChars: 4000, minLines: 3 };

/** A chunk before its text is taken: 0-based, inclusive rows. `text` only for a part of one over-long line. */
export interface Piece {
  start: number;
  end: number;
  kind: ChunkKind;
  symbols: string[];
  text?: string;
  /** Code between definitions, which may join the definition next to it when short. */
  gap?: boolean;
}

export class SourceLines {
  readonly lines: string[];
  /** offsets[i]: the characters of lines 0…i-1, newlines left out; ranges are then measured in O(1). */
  private readonly offsets: number[];

  constructor(source: string) {
    // The index reads hits back with the same BOM strip and split, so line numbers agree with it.
    this.lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
    this.offsets = [0];
    for (const line of this.lines) this.offsets.push(this.offsets[this.offsets.length - 1]! + line.length);
  }

  get count(): number {
    return this.lines.length;
  }

  line(row: number): string {
    return this.lines[row] ?? "";
  }

  isBlank(row: number): boolean {
    return !/\S/.test(this.line(row));
  }

  indent(row: number): number {
    return /^\s*/.exec(this.line(row))![0].length;
  }

  /** The characters of rows start…end joined with "\n". */
  chars(start: number, end: number): number {
    return this.offsets[end + 1]! - this.offsets[start]! + (end - start);
  }

  text(start: number, end: number): string {
    return this.lines.slice(start, end + 1).join("\n");
  }

  fits(start: number, end: number, limits: ChunkLimits): boolean {
    return end - start + 1 <= limits.maxLines && this.chars(start, end) <= limits.maxChars;
  }

  /** The range without its blank first and last lines; undefined when nothing but blank lines is left. */
  trim(start: number, end: number): [number, number] | undefined {
    while (start <= end && this.isBlank(start)) start++;
    while (end >= start && this.isBlank(end)) end--;
    return start <= end ? [start, end] : undefined;
  }
}

/**
 * Rows start…end cut into pieces that fit the limits. A cut goes where the code is least likely to
 * be in the middle of something: before a blank line, else before the least indented line, looked
 * for in the second half of what fits (so no piece is much smaller than the limits allow).
 */
export function splitRange(src: SourceLines, start: number, end: number, kind: ChunkKind, symbols: string[], limits: ChunkLimits): Piece[] {
  const pieces: Piece[] = [];
  const range = src.trim(start, end);
  if (!range) return pieces;
  const last = range[1];
  let from = range[0];
  while (from <= last) {
    if (src.isBlank(from)) {
      from++;
      continue;
    }
    if (src.line(from).length > limits.maxChars) {
      pieces.push(...cutLine(src, from, kind, symbols, limits));
      from++;
      continue;
    }
    let to = from;
    const longNext = () => src.line(to + 1).length > limits.maxChars;
    while (to < last && !longNext() && src.fits(from, to + 1, limits)) to++;
    // Before an over-long line is a cut already; only a cut forced by the limits is looked for.
    if (to < last && !longNext()) to = bestCut(src, from, to);
    const trimmed = src.trim(from, to)!;
    pieces.push({ start: trimmed[0], end: trimmed[1], kind, symbols });
    from = to + 1;
  }
  return pieces;
}

function bestCut(src: SourceLines, from: number, to: number): number {
  let best = to;
  let bestScore = Infinity;
  for (let row = to; row >= from + Math.floor((to - from) / 2); row--) {
    const next = src.line(row + 1);
    // A closing bracket belongs with what it closes: cutting before it scores a little worse.
    const score = src.isBlank(row + 1) ? -1 : src.indent(row + 1) + (/^\s*[)\]}]/.test(next) ? 0.5 : 0);
    if (score < bestScore) {
      best = row;
      bestScore = score;
    }
  }
  return best;
}

/** A line longer than maxChars (minified code, embedded data) in pieces, cut after a space or punctuation where one is near. */
function cutLine(src: SourceLines, row: number, kind: ChunkKind, symbols: string[], limits: ChunkLimits): Piece[] {
  const line = src.line(row);
  const pieces: Piece[] = [];
  let from = 0;
  while (from < line.length) {
    let to = Math.min(from + limits.maxChars, line.length);
    if (to < line.length) {
      const window = line.slice(from + Math.floor(limits.maxChars * 0.75), to);
      const soft = Math.max(window.lastIndexOf(" "), window.lastIndexOf(";"), window.lastIndexOf(","), window.lastIndexOf("}"));
      if (soft >= 0) to = from + Math.floor(limits.maxChars * 0.75) + soft + 1;
    }
    const text = line.slice(from, to);
    if (/\S/.test(text)) pieces.push({ start: row, end: row, kind, symbols, text });
    from = to;
  }
  return pieces;
}

/**
 * Pieces of a short run (`gap`, fewer than minLines lines) join the next piece, or failing that
 * the previous one, when that is not a gap itself and the two still fit: a doc comment or a
 * decorator the tree did not tie to its definition then travels with it, and a class's closing
 * brace does not stand alone.
 */
export function joinShortGaps(pieces: Piece[], src: SourceLines, limits: ChunkLimits): Piece[] {
  const joinable = (p: Piece | undefined): p is Piece => p !== undefined && !p.gap && p.text === undefined;
  const queue = [...pieces];
  const out: Piece[] = [];
  for (let i = 0; i < queue.length; i++) {
    const piece = queue[i]!;
    if (piece.gap && piece.text === undefined && piece.end - piece.start + 1 < limits.minLines) {
      const next = queue[i + 1];
      if (joinable(next) && src.fits(piece.start, next.end, limits)) {
        queue[i + 1] = { ...next, start: piece.start, symbols: union(next.symbols, piece.symbols) };
        continue;
      }
      const previous = out[out.length - 1];
      if (joinable(previous) && src.fits(previous.start, piece.end, limits)) {
        out[out.length - 1] = { ...previous, end: piece.end, symbols: union(previous.symbols, piece.symbols) };
        continue;
      }
    }
    out.push(piece);
  }
  return out;
}

export function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** Plain "lines" pieces over the whole file: for files without a grammar, or whose parse failed. */
export function linePieces(src: SourceLines, limits: ChunkLimits): Piece[] {
  return splitRange(src, 0, src.count - 1, "lines", [], limits);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/**
 * One "section" per ATX heading, from the heading to the next one (of any level), named by its
 * text; what comes before the first heading is a section without a name. A heading with nothing
 * under it (a title right over its first subsection) joins the next section. Fenced code is not
 * searched for headings: `# comment` in a shell sample is not one.
 */
export function markdownPieces(src: SourceLines, limits: ChunkLimits): Piece[] {
  const headings: { row: number; text: string }[] = [];
  let fence: string | undefined;
  for (let row = 0; row < src.count; row++) {
    const line = src.line(row);
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && !line.slice(line.indexOf(marker) + marker.length).trim()) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) headings.push({ row, text: (heading[1] ?? "").trim() });
  }
  const sections: { start: number; end: number; symbols: string[] }[] = [];
  if (headings[0]?.row !== 0) sections.push({ start: 0, end: (headings[0]?.row ?? src.count) - 1, symbols: [] });
  headings.forEach((heading, i) => sections.push({ start: heading.row, end: (headings[i + 1]?.row ?? src.count) - 1, symbols: heading.text ? [heading.text] : [] }));

  // Built from the end, so a heading-only section can join the first piece of what follows it.
  const groups: Piece[][] = [];
  for (const section of sections.reverse()) {
    const range = src.trim(section.start, section.end);
    if (!range) continue;
    const [start, end] = range;
    const following = groups[groups.length - 1];
    const next = following?.[0];
    if (start === end && section.symbols.length > 0 && following && next && next.text === undefined && src.fits(start, next.end, limits)) {
      following[0] = { ...next, start, symbols: union(section.symbols, next.symbols) };
    } else {
      groups.push(src.fits(start, end, limits) ? [{ start, end, kind: "section", symbols: section.symbols }] : splitRange(src, start, end, "section", section.symbols, limits));
    }
  }
  return groups.reverse().flat();
}

export function toChunks(path: string, src: SourceLines, pieces: Piece[]): CodeChunk[] {
  return pieces.map((piece) => {
    const text = piece.text ?? src.text(piece.start, piece.end);
    return {
      path,
      startLine: piece.start + 1,
      endLine: piece.end + 1,
      kind: piece.kind,
      symbols: piece.symbols,
      text,
      hash: createHash("sha256").update(text).digest("hex"),
    };
  });
}
