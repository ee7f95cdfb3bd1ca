import type { AssistantItem, ToolItem } from "../../shared/protocol/chat";
import type { StreamEvent } from "../llm/types";
import { DEFAULT_NATIVE_CALL_LIMITS, NativeToolCallAssembler } from "../toolcall/native/NativeToolCallAssembler";
import type { AssistantContentBlock, ToolUseBlock } from "../toolcall/types";
import { AssistantMessageParser } from "../toolcall/xml/AssistantMessageParser";
import type { ChatLog } from "./ChatLog";
import { BlockPresenter } from "./presenter";
import { DEFAULT_REPLY_LIMITS, replyTooLong, toolCallRefused, tooManyToolCalls, type ReplyCut, type ReplyLimits } from "./replyLimits";

export interface Reply {
  /** The text as the model wrote it, XML tool calls included. */
  raw: string;
  xmlTools: ToolUseBlock[];
  nativeBlocks: ToolUseBlock[];
  /** The chat card that shows a tool call. */
  cardOf(block: ToolUseBlock): string | undefined;
  /** Set when the reply went past a limit and was stopped there. */
  cut?: ReplyCut;
}

type ReplyEvent = Exclude<StreamEvent, { type: "usage" }>;

/**
 * One streamed reply into chat items as it arrives: text and XML tool calls through the incremental
 * parser, native tool calls through the assembler, reasoning into its own item. Both protocols end
 * as the same tool_use blocks.
 *
 * It reads a reply only up to its limits (replyLimits.ts): past one, `add` says to stop the stream,
 * and what came before the limit is kept. Every step costs in proportion to the event it handles.
 */
export class ReplyReader {
  private readonly parser: AssistantMessageParser;
  private readonly assembler: NativeToolCallAssembler;
  private readonly textView: BlockPresenter;
  private readonly nativeView: BlockPresenter;
  private raw = "";
  private reasoning: AssistantItem | undefined;
  /** Characters of text, reasoning and tool arguments so far. */
  private chars = 0;
  private toolCalls = 0;
  /** XML blocks: from here on they may still change (the ones before are complete and checked). */
  private checkFrom = 0;
  /** XML blocks already counted as tool calls. */
  private counted = 0;
  /** How many XML blocks the reply keeps when a limit cut it (the rest came after the limit). */
  private keptBlocks: number | undefined;
  private cut: ReplyCut | undefined;

  constructor(
    xmlParams: Record<string, string[]>,
    private readonly log: ChatLog,
    /** A tool call still streaming (the review shows a write as it comes). */
    private readonly onPartialTool: (block: ToolUseBlock) => void = () => undefined,
    private readonly limits: ReplyLimits = DEFAULT_REPLY_LIMITS,
  ) {
    this.parser = new AssistantMessageParser(xmlParams, {
      reasoningTags: true,
      maxMessageChars: limits.maxReplyChars,
      maxParamChars: limits.maxToolArgChars,
      onContent: (block, piece) => this.textView.grew(block, piece),
    });
    this.assembler = new NativeToolCallAssembler(undefined, { ...DEFAULT_NATIVE_CALL_LIMITS, maxArgChars: limits.maxToolArgChars });
    const sink = {
      append: (item: AssistantItem | ToolItem) => log.append(item),
      textDelta: (id: string, delta: string, field: "text" | "reasoning") => log.textDelta(id, delta, field),
      changed: (item: ToolItem) => log.replace(item),
      newId: () => log.newId(),
    };
    this.textView = new BlockPresenter(sink);
    this.nativeView = new BlockPresenter(sink);
  }

  /** Takes the next event; false when the reply has gone past a limit and the stream must stop. */
  add(event: ReplyEvent): boolean {
    if (this.cut) return false;
    const size = event.type === "tool_call_delta" ? event.argsDelta.length : event.text.length;
    const room = this.limits.maxReplyChars - this.chars;
    if (size > room) {
      // What fits is kept; the event is cut where the reply reaches its limit.
      if (room > 0) this.take(event.type === "tool_call_delta" ? { ...event, argsDelta: event.argsDelta.slice(0, room) } : { ...event, text: event.text.slice(0, room) });
      this.chars = this.limits.maxReplyChars;
      this.cut ??= replyTooLong(this.limits.maxReplyChars);
      return false;
    }
    this.chars += size;
    this.take(event);
    return this.cut === undefined;
  }

  private take(event: ReplyEvent): void {
    if (event.type === "text") {
      this.raw += event.text;
      const blocks = this.parser.processChunk(event.text);
      this.checkXml(blocks);
      this.textView.update(this.kept(blocks));
      this.partial(this.kept(blocks).at(-1));
    } else if (event.type === "reasoning") {
      if (!this.reasoning) {
        this.reasoning = { id: this.log.newId(), role: "assistant", text: "", reasoning: "", partial: true };
        this.log.append(this.reasoning);
      }
      this.log.textDelta(this.reasoning.id, event.text, "reasoning");
    } else {
      if (!this.assembler.has(event.index)) {
        if (this.toolCalls >= this.limits.maxToolCalls) {
          this.cut = tooManyToolCalls(this.limits.maxToolCalls);
          return;
        }
        this.toolCalls++;
      }
      const block = this.assembler.add(event);
      // Only the call this delta belongs to can have changed.
      this.nativeView.show(block);
      if (block.error) this.cut = toolCallRefused(block.name || "a tool");
      else this.partial(block);
    }
  }

  /**
   * Counts the XML tool calls as they open and finds a call that went past the argument limit; either
   * cuts the reply there. Looks only at blocks that may have changed since the last chunk.
   */
  private checkXml(blocks: readonly AssistantContentBlock[]): void {
    for (let i = this.checkFrom; i < blocks.length && !this.cut; i++) {
      const block = blocks[i]!;
      if (block.type === "tool_use") {
        if (i >= this.counted) {
          this.counted = i + 1;
          if (++this.toolCalls > this.limits.maxToolCalls) {
            this.keptBlocks = i;
            this.cut = tooManyToolCalls(this.limits.maxToolCalls);
            return;
          }
        }
        if (block.error) {
          this.keptBlocks = i + 1;
          this.cut = toolCallRefused(block.name);
          return;
        }
      }
      if (i === this.checkFrom && !block.partial) this.checkFrom++;
    }
  }

  private kept(blocks: AssistantContentBlock[]): AssistantContentBlock[] {
    return this.keptBlocks === undefined ? blocks : blocks.slice(0, this.keptBlocks);
  }

  private partial(last: AssistantContentBlock | undefined): void {
    if (last?.type === "tool_use" && last.partial) this.onPartialTool(last);
  }

  /** The stream ended (or was stopped at a limit): partial blocks are closed, and the chat items stop streaming. */
  finish(): Reply {
    this.parser.finalizeContentBlocks();
    const nativeBlocks = this.assembler.finalize();
    const blocks = this.kept(this.parser.getContentBlocks());
    this.textView.update(blocks, true);
    this.nativeView.update(nativeBlocks, true);
    this.log.finishTextItems();
    const xmlTools = blocks.filter((b): b is ToolUseBlock => b.type === "tool_use");
    return {
      raw: this.raw,
      xmlTools,
      nativeBlocks,
      cardOf: (block) => this.textView.idOf(block) ?? this.nativeView.idOf(block),
      ...(this.cut && { cut: this.cut }),
    };
  }
}
