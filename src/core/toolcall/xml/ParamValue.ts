import type { ToolUseBlock } from "../types";

/**
 * One parameter value as it streams in, written straight into its block so the UI sees it grow.
 * Layout newlines are taken off exactly once: the one right after the opening tag, and the one right
 * before the closing tag (held back until it is known which it is). Past the size limit the value
 * stops growing and the block gets an error for the model.
 */
export class ParamValue {
  private started = false;
  /** Start of the value that may still be the "\r\n" to strip (a "\r" cut from its "\n"). */
  private start = "";
  /** A trailing "\n", "\r\n" or "\r" held back: dropped if the value closes right after it. */
  private held = "";
  private length = 0;
  private full = false;

  constructor(
    private readonly block: ToolUseBlock,
    private readonly name: string,
    private readonly maxChars: number,
  ) {
    block.params[name] = "";
  }

  append(piece: string): void {
    if (piece.length === 0) return;
    let text = piece;
    if (!this.started) {
      text = this.start + text;
      if (text === "\r") {
        this.start = text;
        return;
      }
      this.started = true;
      this.start = "";
      if (text.startsWith("\r\n")) text = text.slice(2);
      else if (text.startsWith("\n")) text = text.slice(1);
      if (text.length === 0) return;
    }
    if (this.held) {
      text = this.held + text;
      this.held = "";
    }
    if (text.endsWith("\r\n")) {
      this.held = "\r\n";
      text = text.slice(0, -2);
    } else if (text.endsWith("\n")) {
      this.held = "\n";
      text = text.slice(0, -1);
    } else if (text.endsWith("\r")) {
      // May be the first half of a "\r\n" split across chunks.
      this.held = "\r";
      text = text.slice(0, -1);
    }
    this.add(text);
  }

  /** The closing tag came: a held newline was its line break and is dropped; a lone "\r" is content. */
  close(): void {
    const lone = this.start + (this.held === "\r" ? "\r" : "");
    this.start = "";
    this.held = "";
    this.add(lone);
  }

  /** The stream ended inside the value: what was held back belongs to it. */
  end(): void {
    const rest = this.start + this.held;
    this.start = "";
    this.held = "";
    this.add(rest);
  }

  private add(text: string): void {
    if (text.length === 0 || this.full) return;
    if (this.length + text.length > this.maxChars) {
      this.full = true;
      this.block.error = `The value of <${this.name}> is longer than ${this.maxChars} characters, the limit for one parameter; it was cut off and the call was not run. Split the work into smaller calls.`;
      this.block.params[this.name] += text.slice(0, this.maxChars - this.length);
      this.length = this.maxChars;
      return;
    }
    this.block.params[this.name] += text;
    this.length += text.length;
  }
}
