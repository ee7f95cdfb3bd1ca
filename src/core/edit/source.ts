/**
 * The file being edited, split once into lines without their endings, with what is needed to put
 * it back exactly: each line's ending (files with mixed endings stay mixed), the BOM, and whether
 * the last line ends with a newline. Whitespace-normalized keys are built only when a block needs
 * them, since exact matching (the common case) works on the joined text alone.
 */

/** A line with its whitespace made comparable: trimmed, runs of spaces and tabs as one space. */
export function keyOf(line: string): string {
  const trimmed = line.trim();
  return /\s\s|\t/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

export class SourceFile {
  readonly bom: boolean;
  readonly lines: string[];
  /** Per line, whether it ended with "\r\n"; null when the file has no "\r" at all. */
  readonly crlf: Uint8Array | null;
  /** The file's first line ending, as decodeText decides: for new lines where no old ending applies. */
  readonly eol: "\r\n" | "\n";
  readonly finalNewline: boolean;
  /** The lines joined with "\n" (a trailing "\n" may follow), for indexOf over the whole file. */
  readonly text: string;
  private starts: Int32Array | undefined;
  private keyList: string[] | undefined;
  private keyIndex: Map<string, number[]> | undefined;

  constructor(original: string) {
    this.bom = original.charCodeAt(0) === 0xfeff;
    const body = this.bom ? original.slice(1) : original;
    const lines = body.split("\n");
    this.finalNewline = lines.length > 1 && lines[lines.length - 1] === "";
    if (this.finalNewline) lines.pop();
    if (body.includes("\r")) {
      const crlf = new Uint8Array(lines.length);
      const last = this.finalNewline ? lines.length : lines.length - 1;
      for (let i = 0; i < last; i++) {
        const line = lines[i]!;
        if (line.charCodeAt(line.length - 1) === 13) {
          lines[i] = line.slice(0, -1);
          crlf[i] = 1;
        }
      }
      this.crlf = crlf;
      this.eol = crlf[0] === 1 ? "\r\n" : "\n";
      this.text = lines.join("\n");
    } else {
      this.crlf = null;
      this.eol = "\n";
      this.text = body;
    }
    this.lines = lines;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** 0-based line of an offset into `text`. */
  lineAt(offset: number): number {
    if (!this.starts) {
      const starts = new Int32Array(this.lines.length);
      let at = 0;
      for (let i = 0; i < this.lines.length; i++) {
        starts[i] = at;
        at += this.lines[i]!.length + 1;
      }
      this.starts = starts;
    }
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  get keys(): string[] {
    this.keyList ??= this.lines.map(keyOf);
    return this.keyList;
  }

  /** Normalized line -> the lines that have it, ascending. */
  get index(): Map<string, number[]> {
    if (!this.keyIndex) {
      const index = new Map<string, number[]>();
      const keys = this.keys;
      for (let i = 0; i < keys.length; i++) {
        const list = index.get(keys[i]!);
        if (list) list.push(i);
        else index.set(keys[i]!, [i]);
      }
      this.keyIndex = index;
    }
    return this.keyIndex;
  }

  /** The file with `edits` (sorted, not overlapping) applied, in its own endings and BOM. */
  render(edits: readonly { start: number; end: number; lines: string[] }[]): string {
    const out: string[] = [];
    const ends: boolean[] | null = this.crlf ? [] : null;
    let at = 0;
    const keep = (to: number) => {
      for (; at < to; at++) {
        out.push(this.lines[at]!);
        ends?.push(this.crlf![at] === 1);
      }
    };
    for (const edit of edits) {
      keep(edit.start);
      // New lines end as the first line they replace did, so a file with mixed endings stays as mixed.
      const hasEnding = edit.start < this.lines.length - 1 || this.finalNewline;
      const crlf = this.crlf && hasEnding ? this.crlf[edit.start] === 1 : this.eol === "\r\n";
      for (const line of edit.lines) {
        out.push(line);
        ends?.push(crlf);
      }
      at = edit.end;
    }
    keep(this.lines.length);
    // Whatever the last line is now, it ends as the old last line did (with or without a newline).
    return (this.bom ? "\uFEFF" : "") + join(out, ends, this.finalNewline);
  }
}

function join(lines: string[], crlf: boolean[] | null, finalNewline: boolean): string {
  if (!crlf) return lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "");
  let text = "";
  for (let i = 0; i < lines.length; i++) {
    text += lines[i]!;
    if (i < lines.length - 1 || finalNewline) text += crlf[i] ? "\r\n" : "\n";
  }
  return text;
}
