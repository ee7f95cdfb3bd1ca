/**
 * Incremental parser for XML-style tool use in a streamed model reply.
 *
 * Each chunk is scanned once, from where the last one stopped: plain text and values are copied in
 * bulk between '<' characters, and only the few characters of a possible tag are held back. So a
 * chunk costs time in proportion to its own length, whatever came before it.
 *
 * Decisions that depend on text not yet received stay pending across chunk boundaries (a tag name
 * cut in half, a closing tag whose meaning depends on what follows it), which is what makes any
 * split of the message give the same blocks as the message in one piece.
 */

import type { AssistantContentBlock, TextBlock, ToolUseBlock } from "../types";
import { ParamValue } from "./ParamValue";
import { isSpace, prefixSet } from "./tags";

export type { AssistantContentBlock, TextBlock, ToolUseBlock } from "../types";

export interface ParserLimits {
  /** Characters in the whole message. */
  maxMessageChars: number;
  /** Characters in one parameter value. */
  maxParamChars: number;
}

export const DEFAULT_PARSER_LIMITS: ParserLimits = { maxMessageChars: 1_000_000, maxParamChars: 100_000 };

const enum State {
  /** Prose, outside any tool. */
  Text,
  /** Inside a tool, between parameters. */
  Tool,
  /** Inside a parameter value. */
  Value,
  /** After a parameter's closing tag, deciding whether it really closes the value. */
  AfterClose,
  /** Past the message limit: everything else is ignored. */
  Stopped,
}

export class AssistantMessageParser {
  private readonly blocks: AssistantContentBlock[] = [];
  private readonly limits: ParserLimits;
  private readonly toolParams: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly toolOpenTags: ReadonlyMap<string, string>;
  private readonly toolOpenPrefixes: Set<string>;
  /** Per tool: prefixes of `<param>` for each of its params and of `</tool>`. */
  private readonly insideToolPrefixes = new Map<string, Set<string>>();

  private state = State.Text;
  private total = 0;

  private text: TextBlock | undefined;
  /** Whitespace seen in prose before any visible character: a block starts only with real text. */
  private pendingSpace = "";
  /** A possible tag being read (starts with '<'); not yet text, not yet a tag. */
  private tagBuffer = "";

  private tool: ToolUseBlock | undefined;
  private param = "";
  private closeTag = "";
  /** How many characters of `closeTag` the value's tail matches. */
  private closeMatched = 0;
  private value: ParamValue | undefined;
  /** Text after a candidate closing tag, until it proves or disproves the close. */
  private lookahead = "";

  constructor(toolParams: Record<string, readonly string[]>, limits: Partial<ParserLimits> = {}) {
    this.limits = { ...DEFAULT_PARSER_LIMITS, ...limits };
    const params = new Map<string, ReadonlySet<string>>();
    const openTags = new Map<string, string>();
    for (const [name, names] of Object.entries(toolParams)) {
      params.set(name, new Set(names));
      openTags.set(`<${name}>`, name);
    }
    this.toolParams = params;
    this.toolOpenTags = openTags;
    this.toolOpenPrefixes = prefixSet(openTags.keys());
  }

  getContentBlocks(): AssistantContentBlock[] {
    return this.blocks;
  }

  processChunk(chunk: string): AssistantContentBlock[] {
    if (this.state === State.Stopped || chunk.length === 0) return this.blocks;
    const room = this.limits.maxMessageChars - this.total;
    let input = chunk;
    let overflow = false;
    if (input.length > room) {
      input = input.slice(0, room);
      overflow = true;
    }
    this.total += input.length;
    this.feed(input);
    if (overflow) this.stopAtMessageLimit();
    return this.blocks;
  }

  private feed(input: string): void {
    let i = 0;
    while (i < input.length) {
      switch (this.state) {
        case State.Text:
          i = this.scanText(input, i);
          break;
        case State.Tool:
          i = this.scanTool(input, i);
          break;
        case State.Value:
          i = this.scanValue(input, i);
          break;
        case State.AfterClose:
          i = this.scanAfterClose(input, i);
          break;
        case State.Stopped:
          i = input.length;
          break;
      }
    }
  }

  /** Ends the stream: pending text is text, an unclosed tool stays partial (it must not run). */
  finalizeContentBlocks(): void {
    switch (this.state) {
      case State.Text:
        this.finalizeText();
        break;
      case State.Value:
        // The stream ended inside a value: a half-matched closing tag and held newlines are content.
        if (this.closeMatched > 0) this.value!.append(this.closeTag.slice(0, this.closeMatched));
        this.value!.end();
        break;
      case State.AfterClose:
        // `</param>` then only whitespace (or a partial tag) before the end: the value is complete.
        this.closeValue();
        break;
      case State.Tool:
      case State.Stopped:
        break;
    }
    if (this.text) this.text.partial = false;
    this.text = undefined;
    this.state = State.Stopped;
  }

  // --- prose ---------------------------------------------------------------------------------

  private scanText(input: string, start: number): number {
    let i = start;
    if (this.tagBuffer) {
      // Continue a possible `<tool>` tag from the previous chunk, one character at a time.
      while (i < input.length && this.tagBuffer) {
        const ch = input[i]!;
        const next = this.tagBuffer + ch;
        i++;
        const name = this.toolOpenTags.get(next);
        if (name !== undefined) {
          this.tagBuffer = "";
          this.openTool(name);
          return i;
        }
        if (this.toolOpenPrefixes.has(next)) {
          this.tagBuffer = next;
        } else {
          this.appendText(this.tagBuffer);
          this.tagBuffer = "";
          if (ch === "<") this.tagBuffer = "<";
          else this.appendText(ch);
        }
      }
      if (this.tagBuffer) return i;
    }
    const lt = input.indexOf("<", i);
    if (lt === -1) {
      this.appendText(input.slice(i));
      return input.length;
    }
    if (lt > i) this.appendText(input.slice(i, lt));
    this.tagBuffer = "<";
    return lt + 1;
  }

  private appendText(piece: string): void {
    if (piece.length === 0) return;
    if (!this.text) {
      let k = 0;
      while (k < piece.length && isSpace(piece[k]!)) k++;
      if (k === piece.length) {
        this.pendingSpace += piece;
        return;
      }
      this.text = { type: "text", content: this.pendingSpace + piece, partial: true };
      this.pendingSpace = "";
      this.blocks.push(this.text);
      return;
    }
    this.text.content += piece;
  }

  private openTool(name: string): void {
    if (this.text) this.text.partial = false;
    this.text = undefined;
    this.pendingSpace = "";
    this.tool = { type: "tool_use", name, params: {}, partial: true };
    this.blocks.push(this.tool);
    this.state = State.Tool;
  }

  // --- between parameters --------------------------------------------------------------------

  private prefixesInside(tool: string): Set<string> {
    let set = this.insideToolPrefixes.get(tool);
    if (!set) {
      const tags = [...(this.toolParams.get(tool) ?? [])].map((p) => `<${p}>`);
      tags.push(`</${tool}>`);
      set = prefixSet(tags);
      this.insideToolPrefixes.set(tool, set);
    }
    return set;
  }

  private scanTool(input: string, start: number): number {
    const tool = this.tool!;
    const prefixes = this.prefixesInside(tool.name);
    let i = start;
    while (i < input.length) {
      const ch = input[i]!;
      i++;
      if (!this.tagBuffer) {
        // Anything that is not the start of a tag between parameters is ignored.
        if (ch === "<") this.tagBuffer = "<";
        continue;
      }
      const next = this.tagBuffer + ch;
      if (!prefixes.has(next)) {
        this.tagBuffer = ch === "<" ? "<" : "";
        continue;
      }
      if (ch !== ">") {
        this.tagBuffer = next;
        continue;
      }
      this.tagBuffer = "";
      if (next === `</${tool.name}>`) {
        this.closeTool();
        return i;
      }
      this.openParam(next.slice(1, -1));
      return i;
    }
    return i;
  }

  private closeTool(): void {
    this.tool!.partial = false;
    this.tool = undefined;
    this.state = State.Text;
  }

  private openParam(name: string): void {
    this.param = name;
    this.closeTag = `</${name}>`;
    this.closeMatched = 0;
    this.value = new ParamValue(this.tool!, name, this.limits.maxParamChars);
    this.state = State.Value;
  }

  // --- inside a value ------------------------------------------------------------------------

  private scanValue(input: string, start: number): number {
    let i = start;
    while (i < input.length) {
      if (this.closeMatched > 0) {
        const ch = input[i]!;
        if (ch === this.closeTag[this.closeMatched]) {
          this.closeMatched++;
          i++;
          if (this.closeMatched === this.closeTag.length) {
            this.closeMatched = 0;
            this.lookahead = "";
            this.state = State.AfterClose;
            return i;
          }
          continue;
        }
        // Not the closing tag after all: what matched so far is value text.
        this.value!.append(this.closeTag.slice(0, this.closeMatched));
        this.closeMatched = 0;
        if (ch === "<") {
          this.closeMatched = 1;
          i++;
        }
        continue;
      }
      const lt = input.indexOf("<", i);
      if (lt === -1) {
        this.value!.append(input.slice(i));
        return input.length;
      }
      if (lt > i) this.value!.append(input.slice(i, lt));
      this.closeMatched = 1;
      i = lt + 1;
    }
    return i;
  }

  // --- after a candidate closing tag ---------------------------------------------------------

  /**
   * `</param>` closes the value only when what follows (after optional whitespace) is the opening
   * tag of another parameter of this tool not given yet, or the tool's closing tag. Otherwise it
   * was part of the value, as in a file being written that itself contains `</content>`.
   */
  private scanAfterClose(input: string, start: number): number {
    const tool = this.tool!;
    const prefixes = this.prefixesInside(tool.name);
    let i = start;
    while (i < input.length) {
      const ch = input[i]!;
      const tagStart = this.lookahead.indexOf("<");
      if (tagStart === -1) {
        i++;
        if (isSpace(ch)) {
          this.lookahead += ch;
          continue;
        }
        if (ch === "<") {
          this.lookahead += ch;
          continue;
        }
        this.rejectClose(ch);
        return i;
      }
      const tag = this.lookahead.slice(tagStart) + ch;
      i++;
      if (!prefixes.has(tag) || tag === `<${this.param}>`) {
        this.rejectClose(ch);
        return i;
      }
      if (ch === ">" && tag !== `</${tool.name}>` && Object.hasOwn(tool.params, tag.slice(1, -1))) {
        // A param this call already has cannot be the next one: `</content>\n<path>` inside a
        // file being written is content when <path> came before.
        this.rejectClose(ch);
        return i;
      }
      this.lookahead += ch;
      if (ch !== ">") continue;
      // Confirmed: close the value, then act on the tag that followed it.
      this.closeValue();
      if (tag === `</${tool.name}>`) this.closeTool();
      else this.openParam(tag.slice(1, -1));
      return i;
    }
    return i;
  }

  /**
   * The candidate close was value text: put it back and read on. The whitespace after it is plain
   * value; the tag-like rest (a few characters) is read again, since it may begin the real close.
   */
  private rejectClose(ch: string): void {
    const tagStart = this.lookahead.indexOf("<");
    const space = tagStart === -1 ? this.lookahead : this.lookahead.slice(0, tagStart);
    const again = (tagStart === -1 ? "" : this.lookahead.slice(tagStart)) + ch;
    this.lookahead = "";
    this.state = State.Value;
    this.value!.append(this.closeTag + space);
    this.feed(again);
  }

  private closeValue(): void {
    this.value!.close();
    this.lookahead = "";
    this.state = State.Tool;
  }

  private stopAtMessageLimit(): void {
    const message = `The reply passed ${this.limits.maxMessageChars} characters, the limit for one message; the rest was ignored.`;
    if (this.tool) {
      this.tool.error = `${message} This call was cut off and was not run.`;
    } else {
      this.finalizeText();
      this.blocks.push({ type: "text", content: `[${message}]`, partial: false });
    }
    this.finalizeContentBlocks();
  }

  private finalizeText(): void {
    if (this.tagBuffer) this.appendText(this.tagBuffer);
    this.tagBuffer = "";
    if (this.text) this.text.partial = false;
    this.text = undefined;
  }
}
