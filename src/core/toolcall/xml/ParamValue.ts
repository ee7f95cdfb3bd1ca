import type { ReasoningBlock, ToolUseBlock } from "../types";

const LF = 10;
const CR = 13;

/**
 * Text between an opening and a closing tag as it streams in, written straight into its block so the
 * UI sees it grow. Layout newlines are taken off exactly once: the one right after the opening tag,
 * and the one right before the closing tag (held back until it is known which it is).
 */
export abstract class TrimmedValue {
  private started = false;
  /** Start of the value that may still be the "\r\n" to strip (a "\r" cut from its "\n"). */
  private start = "";
  /** A trailing "\n", "\r\n" or "\r" held back: dropped if the value closes right after it. */
  private held = "";

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
    if (this.held.length > 0) {
      text = this.held + text;
      this.held = "";
    }
    // Called once per chunk or more: char codes, not endsWith, keep the common case to one compare.
    const last = text.charCodeAt(text.length - 1);
    if (last === LF) {
      const crlf = text.length >= 2 && text.charCodeAt(text.length - 2) === CR;
      this.held = crlf ? "\r\n" : "\n";
      text = text.slice(0, crlf ? -2 : -1);
    } else if (last === CR) {
      // May be the first half of a "\r\n" split across chunks.
      this.held = "\r";
      text = text.slice(0, -1);
    }
    if (text.length > 0) this.write(text);
  }

  /** The closing tag came: a held newline was its line break and is dropped; a lone "\r" is content. */
  close(): void {
    const lone = this.start + (this.held === "\r" ? "\r" : "");
    this.start = "";
    this.held = "";
    if (lone.length > 0) this.write(lone);
  }

  /** The stream ended inside the value: what was held back belongs to it. */
  end(): void {
    const rest = this.start + this.held;
    this.start = "";
    this.held = "";
    if (rest.length > 0) this.write(rest);
  }

  protected abstract write(text: string): void;
}

/** A tool parameter's value. Past the size limit it stops growing and the block gets an error for the model. */
export class ParamValue extends TrimmedValue {
  /** The value so far, kept here so that a write is one keyed store, not a keyed load and store. */
  private content = "";
  private full = false;

  constructor(
    private readonly block: ToolUseBlock,
    private readonly name: string,
    private readonly maxChars: number,
  ) {
    super();
    block.params[name] = "";
  }

  protected write(text: string): void {
    if (this.full) return;
    if (this.content.length + text.length > this.maxChars) {
      this.full = true;
      this.block.error = `The value of <${this.name}> is longer than ${this.maxChars} characters, the limit for one parameter; it was cut off and the call was not run. Split the work into smaller calls.`;
      this.content += text.slice(0, this.maxChars - this.content.length);
    } else {
      this.content += text;
    }
    this.block.params[this.name] = this.content;
  }
}

/** The inside of `<thinking>…</thinking>`; bounded only by the message limit. */
export class ReasoningValue extends TrimmedValue {
  constructor(
    private readonly block: ReasoningBlock,
    private readonly onContent: (block: ReasoningBlock, piece: string) => void,
  ) {
    super();
  }

  protected write(text: string): void {
    this.block.content += text;
    this.onContent(this.block, text);
  }
}
