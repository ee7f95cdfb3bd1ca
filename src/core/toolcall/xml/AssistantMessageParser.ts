/**
 * Incremental parser for XML-style tool use in a streamed model reply, and optionally for the
 * `<thinking>` reasoning some models write in their text.
 *
 * Each chunk is scanned once, from where the last one stopped: plain text and values are copied in
 * bulk between '<' characters, and only the few characters of a possible tag are held back. So a
 * chunk costs time in proportion to its own length, whatever came before it.
 *
 * Decisions that depend on text not yet received stay pending across chunk boundaries (a tag name
 * cut in half, a closing tag whose meaning depends on what follows it), which is what makes any
 * split of the message give the same blocks as the message in one piece.
 */

import type { AssistantContentBlock, ReasoningBlock, TextBlock, ToolUseBlock } from "../types";
import { DEFAULT_PARSER_LIMITS, REASONING_TAGS, type ParserLimits, type ParserOptions } from "./options";
import { ParamValue, ReasoningValue } from "./ParamValue";
import { isSpace, NO_TAG, PART_TAG, TagSet, ToolTagPrefixes } from "./tags";
import { UntilClose } from "./UntilClose";

export type { AssistantContentBlock, ReasoningBlock, TextBlock, ToolUseBlock } from "../types";
export { DEFAULT_PARSER_LIMITS, type ParserLimits, type ParserOptions } from "./options";

const enum State {
  /** Prose, outside any tool. */
  Text,
  /** Inside `<thinking>`: everything up to the close tag is reasoning, tool tags included. */
  Reasoning,
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
  /** Tags that mean something in prose: each tool's opening tag, then the reasoning tags if asked for. */
  private readonly textTags: TagSet;
  /** Per entry of `textTags`: the tool it opens, or undefined for a reasoning tag. */
  private readonly textTagTools: (string | undefined)[] = [];
  private readonly insideToolPrefixes: ToolTagPrefixes;
  private readonly onContent: NonNullable<ParserOptions["onContent"]>;

  private state = State.Text;
  private total = 0;

  private text: TextBlock | undefined;
  /** Whitespace seen in prose before any visible character: a block starts only with real text. */
  private pendingSpace = "";
  /** A possible tag being read (starts with '<'); not yet text, not yet a tag. */
  private tagBuffer = "";

  private tool: ToolUseBlock | undefined;
  private toolCloseTag = "";
  /** The open tool's inside prefixes, looked up once per tool rather than once per chunk. */
  private toolPrefixes: ReadonlySet<string> = new Set();
  private reasoning: ReasoningBlock | undefined;
  /** The parameter value or reasoning being read, up to the tag that ends it. */
  private until: UntilClose | undefined;
  /** After a candidate `</param>`: the whitespace that followed it, then the start of a tag. */
  private afterSpace = "";
  private afterTag = "";

  constructor(toolParams: Record<string, readonly string[]>, options: ParserOptions = {}) {
    const { reasoningTags = false, onContent = () => undefined, ...limits } = options;
    this.limits = { ...DEFAULT_PARSER_LIMITS, ...limits };
    this.onContent = onContent;
    const params = new Map<string, ReadonlySet<string>>();
    const tags: string[] = [];
    for (const [name, names] of Object.entries(toolParams)) {
      params.set(name, new Set(names));
      tags.push(`<${name}>`);
      this.textTagTools.push(name);
    }
    if (reasoningTags) {
      for (const tag of REASONING_TAGS.keys()) {
        if (tags.includes(tag)) continue;
        tags.push(tag);
        this.textTagTools.push(undefined);
      }
    }
    this.insideToolPrefixes = new ToolTagPrefixes(params);
    this.textTags = new TagSet(tags);
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
        case State.Reasoning:
          i = this.scanReasoning(input, i);
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

  /**
   * Ends the stream: pending text is text; an unclosed tool stays partial (it must not run), and so
   * does unclosed reasoning, with all it had.
   */
  finalizeContentBlocks(): void {
    switch (this.state) {
      case State.Text:
        this.finalizeText();
        break;
      case State.Value:
      case State.Reasoning:
        this.until!.end();
        break;
      case State.AfterClose:
        // `</param>` then only whitespace (or a partial tag) before the end: the value is complete.
        this.closeValue();
        break;
      case State.Tool:
      case State.Stopped:
        break;
    }
    this.endText();
    this.state = State.Stopped;
  }

  // --- prose ---------------------------------------------------------------------------------

  private scanText(input: string, start: number): number {
    const tags = this.textTags;
    const i = start;
    if (this.tagBuffer.length > 0) {
      // A possible tag cut by the last chunk boundary: decide it with the characters that follow.
      const held = this.tagBuffer;
      const probe = held + input.slice(i, i + tags.maxLength);
      const hit = tags.match(probe, 0);
      if (hit === PART_TAG) {
        // Only when the probe took all of the input: it is at least as long as any tag otherwise.
        this.tagBuffer = probe;
        return input.length;
      }
      this.tagBuffer = "";
      if (hit !== NO_TAG) {
        this.openTextTag(hit);
        return i + tags.tags[hit]!.length - held.length;
      }
      this.appendText(held);
    }
    let lt = input.indexOf("<", i);
    while (lt !== -1) {
      const hit = tags.match(input, lt);
      if (hit === NO_TAG) {
        lt = input.indexOf("<", lt + 1);
        continue;
      }
      if (lt > i) this.appendText(input.slice(i, lt));
      if (hit === PART_TAG) {
        this.tagBuffer = input.slice(lt);
        return input.length;
      }
      this.openTextTag(hit);
      return lt + tags.tags[hit]!.length;
    }
    this.appendText(i === 0 ? input : input.slice(i));
    return input.length;
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
    this.onContent(this.text, piece);
  }

  /** A block other than text begins: the text before it is complete, whitespace alone is dropped. */
  private endText(): void {
    if (this.text) this.text.partial = false;
    this.text = undefined;
    this.pendingSpace = "";
  }

  private openTextTag(index: number): void {
    const name = this.textTagTools[index];
    if (name !== undefined) this.openTool(name);
    else this.openReasoning(REASONING_TAGS.get(this.textTags.tags[index]!)!);
  }

  // --- reasoning -----------------------------------------------------------------------------

  private openReasoning(closeTag: string): void {
    this.endText();
    const block: ReasoningBlock = { type: "reasoning", content: "", partial: true };
    this.blocks.push(block);
    this.reasoning = block;
    this.until = new UntilClose(new ReasoningValue(block, this.onContent), closeTag);
    this.state = State.Reasoning;
  }

  /** The first close tag ends reasoning: there is no later tag that could say otherwise. */
  private scanReasoning(input: string, start: number): number {
    const end = this.until!.scan(input, start);
    if (end === -1) return input.length;
    this.until!.value.close();
    this.until = undefined;
    this.reasoning!.partial = false;
    this.reasoning = undefined;
    this.state = State.Text;
    return end;
  }

  // --- between parameters --------------------------------------------------------------------

  private openTool(name: string): void {
    this.endText();
    this.tool = { type: "tool_use", name, params: {}, partial: true };
    this.toolCloseTag = `</${name}>`;
    this.toolPrefixes = this.insideToolPrefixes.of(name);
    this.blocks.push(this.tool);
    this.state = State.Tool;
  }

  private scanTool(input: string, start: number): number {
    const prefixes = this.toolPrefixes;
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
      if (next === this.toolCloseTag) this.closeTool();
      else this.openParam(next.slice(1, -1));
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
    this.until = new UntilClose(new ParamValue(this.tool!, name, this.limits.maxParamChars), `</${name}>`);
    this.state = State.Value;
  }

  // --- inside a value ------------------------------------------------------------------------

  private scanValue(input: string, start: number): number {
    const end = this.until!.scan(input, start);
    if (end === -1) return input.length;
    this.state = State.AfterClose;
    return end;
  }

  // --- after a candidate closing tag ---------------------------------------------------------

  /**
   * `</param>` closes the value only when what follows (after optional whitespace) is the opening
   * tag of another parameter of this tool not given yet, or the tool's closing tag. Otherwise it
   * was part of the value, as in a file being written that itself contains `</content>`.
   */
  private scanAfterClose(input: string, start: number): number {
    const tool = this.tool!;
    const prefixes = this.toolPrefixes;
    let i = start;
    while (i < input.length) {
      const ch = input[i]!;
      if (this.afterTag.length === 0) {
        if (ch === "<") this.afterTag = "<";
        else if (isSpace(ch)) this.afterSpace += ch;
        else return this.rejectClose(i);
        i++;
        continue;
      }
      const tag = this.afterTag + ch;
      if (!prefixes.has(tag)) return this.rejectClose(i);
      if (ch !== ">") {
        this.afterTag = tag;
        i++;
        continue;
      }
      if (tag === this.toolCloseTag) {
        this.closeValue();
        this.closeTool();
        return i + 1;
      }
      // A param this call already has (this one included) cannot be the next one: `</content>\n<path>`
      // inside a file being written is content when <path> came before.
      const name = tag.slice(1, -1);
      if (Object.hasOwn(tool.params, name)) return this.rejectClose(i);
      this.closeValue();
      this.openParam(name);
      return i + 1;
    }
    return i;
  }

  /**
   * The candidate close was value text: put it back, and go on reading at `i`, which is not consumed.
   * The tag-like part (a few characters) is read again first, since it may begin the real close.
   */
  private rejectClose(i: number): number {
    const again = this.afterTag;
    this.until!.value.append(this.until!.closeTag + this.afterSpace);
    this.afterSpace = "";
    this.afterTag = "";
    this.state = State.Value;
    if (again.length > 0) this.feed(again);
    return i;
  }

  private closeValue(): void {
    this.until!.value.close();
    this.until = undefined;
    this.afterSpace = "";
    this.afterTag = "";
    this.state = State.Tool;
  }

  private stopAtMessageLimit(): void {
    const message = `The reply passed ${this.limits.maxMessageChars} characters, the limit for one message; the rest was ignored.`;
    if (this.tool) {
      this.tool.error = `${message} This call was cut off and was not run.`;
      this.finalizeContentBlocks();
      return;
    }
    this.finalizeContentBlocks();
    this.blocks.push({ type: "text", content: `[${message}]`, partial: false });
  }

  private finalizeText(): void {
    if (this.tagBuffer) this.appendText(this.tagBuffer);
    this.tagBuffer = "";
  }
}
