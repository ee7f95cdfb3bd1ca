/**
 * The file being edited, indexed by line offsets rather than split into lines: the common case (an
 * exact match) then costs about one indexOf over the text, and the result is a few slices of the
 * original joined around the new lines. Line strings and whitespace-normalized keys are made only
 * for lines a block needs. Each kept line keeps its own ending (mixed files stay mixed), the BOM
 * stays, and so does a missing final newline.
 */

/** A line with its whitespace made comparable: trimmed, runs of spaces and tabs as one space. */
export function keyOf(line: string): string {
  const trimmed = line.trim();
  return /\s\s|\t/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

/** Offsets where each line starts, then one past the end ("a\nb\n": [0, 2, 4]). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  // "a\nb\n" has two lines, not three: the final newline's start is the end; "a\nb" ends at its length.
  if (starts[starts.length - 1] !== text.length || starts.length === 1) starts.push(text.length);
  return starts;
}

export class SourceFile {
  private readonly bom: boolean;
  /** The original without its BOM. */
  private readonly body: string;
  /** Line starts in `body`; the same array as `starts` when the file has no "\r". */
  private readonly bodyStarts: number[];
  /** The first line ending: for new lines where no old ending applies (as decodeText decides). */
  private readonly eol: string;
  private readonly finalNewline: boolean;
  /** The lines joined with "\n" (and the final "\n" if any): what SEARCH text is looked up in. */
  readonly text: string;
  /** Line starts in `text`, plus one past the end. */
  private readonly starts: number[];
  readonly lineCount: number;
  /** Keys made so far, by line: most calls need a few lines' keys, not the whole file's. */
  private readonly someKeys = new Map<number, string>();

  constructor(original: string) {
    this.bom = original.charCodeAt(0) === 0xfeff;
    this.body = this.bom ? original.slice(1) : original;
    this.text = this.body.includes("\r") ? this.body.replace(/\r\n/g, "\n") : this.body;
    this.finalNewline = this.text.length > 0 && this.text.charCodeAt(this.text.length - 1) === 10;
    this.starts = lineStarts(this.text);
    this.lineCount = this.starts.length - 1;
    this.bodyStarts = this.text === this.body ? this.starts : lineStarts(this.body);
    const firstLf = this.body.indexOf("\n");
    this.eol = firstLf > 0 && this.body.charCodeAt(firstLf - 1) === 13 ? "\r\n" : "\n";
  }

  /** 0-based line of an offset into `text`. */
  lineAt(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = this.lineCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  line(i: number): string {
    const end = this.starts[i + 1]!;
    const hasEnding = i < this.lineCount - 1 || this.finalNewline;
    return this.text.slice(this.starts[i]!, hasEnding ? end - 1 : end);
  }

  lines(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.lineCount); i++) out.push(this.line(i));
    return out;
  }

  key(i: number): string {
    let key = this.someKeys.get(i);
    if (key === undefined) {
      key = keyOf(this.line(i));
      this.someKeys.set(i, key);
    }
    return key;
  }

  /** The ending of line i as the file has it, or undefined for a last line without one. */
  private endingOf(i: number): string | undefined {
    if (i >= this.lineCount - 1 && !this.finalNewline) return undefined;
    return this.body.charCodeAt(this.bodyStarts[i + 1]! - 2) === 13 ? "\r\n" : "\n";
  }

  /** The file with `edits` (sorted, not overlapping) applied, with its own endings and BOM. */
  render(edits: readonly { start: number; end: number; lines: readonly string[] }[]): string {
    let out = this.bom ? "\uFEFF" : "";
    let at = 0;
    for (const edit of edits) {
      out += this.body.slice(this.bodyStarts[at]!, this.bodyStarts[edit.start]!);
      const lastEnding = this.endingOf(edit.end - 1);
      // New lines end as the first line they replace did, so a file with mixed endings stays mixed.
      const ending = this.endingOf(edit.start) ?? this.eol;
      if (edit.lines.length > 0) {
        out += edit.lines.join(ending);
        if (lastEnding !== undefined) out += ending;
      } else if (lastEnding === undefined && edit.start > 0) {
        // The old last line, without a newline, is gone: the new last line loses its newline.
        out = out.slice(0, out.length - this.endingOf(edit.start - 1)!.length);
      }
      at = edit.end;
    }
    return out + this.body.slice(this.bodyStarts[at]!);
  }
}
