// CSI (colours, cursor moves), OSC (titles, VS Code's 633 shell-integration marks; ended by BEL or
// ESC \), DCS/PM/APC strings, charset picks, and the two-byte escapes. The model reads text, not a screen.
const ESCAPE = String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[PX^_][\s\S]*?\x1b\\|\x1b[()*+][0-~]|\x1b[0-OQ-WYZ\\\x60-~]`;
const ANSI = new RegExp(ESCAPE, "g");
const WHOLE_ESCAPE = new RegExp(`^(?:${ESCAPE})`);
// Other control characters (BEL, backspace, …) but not tab and newline.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

function clean(text: string): string {
  return (
    text
      .replace(ANSI, "")
      .replace(/\r+\n/g, "\n")
      // A line redrawn with \r (a progress bar) keeps only its last state.
      .replace(/[^\n]*\r(?=[^\n])/g, "")
      .replace(/\r/g, "\n")
      .replace(CONTROL, "")
  );
}

/**
 * Terminal output -> plain text, chunk by chunk: an escape sequence or a CRLF split between two
 * chunks is held back until the rest arrives, so nothing half-stripped reaches the model.
 */
export class PlainTextDecoder {
  private carry = "";
  private atLineStart = true;

  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = "";
    // A redraw whose start came in an earlier chunk cannot be undone; start it on a line of its own.
    if (/^\r+[^\n\r]/.test(text)) text = text.replace(/^\r+/, this.atLineStart ? "" : "\n");
    const esc = text.lastIndexOf("\x1b");
    if (esc !== -1 && text.length - esc < 1024 && !WHOLE_ESCAPE.test(text.slice(esc))) {
      this.carry = text.slice(esc);
      text = text.slice(0, esc);
    } else if (text.endsWith("\r")) {
      this.carry = "\r";
      text = text.slice(0, -1);
    }
    const plain = clean(text);
    if (plain !== "") this.atLineStart = plain.endsWith("\n");
    return plain;
  }

  /** What was held back, once no more output will come. */
  end(): string {
    const rest = clean(this.carry);
    this.carry = "";
    return rest;
  }
}
