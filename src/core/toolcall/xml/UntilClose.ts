import { isPrefixAt } from "./tags";
import type { TrimmedValue } from "./ParamValue";

/**
 * Copies streamed text into a value until its closing tag. A closing tag cut by a chunk boundary is
 * held back, not shown and taken back. The tag's only '<' is its first character, so after a
 * mismatch the search simply goes on at the next '<' (no backtracking into what matched).
 */
export class UntilClose {
  /** How many characters of `closeTag` the input so far ends with. */
  private matched = 0;

  constructor(
    readonly value: TrimmedValue,
    readonly closeTag: string,
  ) {}

  /** Returns the index just past the closing tag, or -1 when the input ran out first. */
  scan(input: string, start: number): number {
    const tag = this.closeTag;
    let i = start;
    if (this.matched > 0) {
      let m = this.matched;
      while (i < input.length && m < tag.length && input.charCodeAt(i) === tag.charCodeAt(m)) {
        i++;
        m++;
      }
      if (m === tag.length) {
        this.matched = 0;
        return i;
      }
      if (i === input.length) {
        this.matched = m;
        return -1;
      }
      // Not the closing tag after all: what matched so far is value text.
      this.value.append(tag.slice(0, m));
      this.matched = 0;
    }
    // One indexOf per '<' and a compare in place: values are most of a reply, and a per-character
    // loop or a substring per '<' was most of the parser's time in profiles.
    let lt = input.indexOf("<", i);
    while (lt !== -1) {
      const rest = input.length - lt;
      if (rest >= tag.length ? input.startsWith(tag, lt) : isPrefixAt(input, lt, tag, 1)) {
        if (lt > i) this.value.append(input.slice(i, lt));
        if (rest >= tag.length) return lt + tag.length;
        this.matched = rest;
        return -1;
      }
      lt = input.indexOf("<", lt + 1);
    }
    this.value.append(i === 0 ? input : input.slice(i));
    return -1;
  }

  /** The stream ended inside the value: a half-matched closing tag and held newlines are content. */
  end(): void {
    if (this.matched > 0) this.value.append(this.closeTag.slice(0, this.matched));
    this.matched = 0;
    this.value.end();
  }
}
