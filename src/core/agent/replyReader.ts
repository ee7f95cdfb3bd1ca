import type { AssistantItem, ToolItem } from "../../shared/protocol/chat";
import type { StreamEvent } from "../llm/types";
import { NativeToolCallAssembler } from "../toolcall/native/NativeToolCallAssembler";
import type { ToolUseBlock } from "../toolcall/types";
import { AssistantMessageParser } from "../toolcall/xml/AssistantMessageParser";
import type { ChatLog } from "./ChatLog";
import { BlockPresenter } from "./presenter";

export interface Reply {
  /** The text as the model wrote it, XML tool calls included. */
  raw: string;
  xmlTools: ToolUseBlock[];
  nativeBlocks: ToolUseBlock[];
  /** The chat card that shows a tool call. */
  cardOf(block: ToolUseBlock): string | undefined;
}

/**
 * One streamed reply into chat items as it arrives: text and XML tool calls through the incremental
 * parser, native tool calls through the assembler, reasoning into its own item. Both protocols end
 * as the same tool_use blocks.
 */
export class ReplyReader {
  private readonly parser: AssistantMessageParser;
  private readonly assembler = new NativeToolCallAssembler();
  private readonly textView: BlockPresenter;
  private readonly nativeView: BlockPresenter;
  private raw = "";
  private reasoning: AssistantItem | undefined;

  constructor(
    xmlParams: Record<string, string[]>,
    private readonly log: ChatLog,
    /** A tool call still streaming (the review shows a write as it comes). */
    private readonly onPartialTool: (block: ToolUseBlock) => void = () => undefined,
  ) {
    this.parser = new AssistantMessageParser(xmlParams, { reasoningTags: true });
    const sink = {
      append: (item: AssistantItem | ToolItem) => log.append(item),
      textDelta: (id: string, delta: string, field: "text" | "reasoning") => log.textDelta(id, delta, field),
      changed: (item: ToolItem) => log.replace(item),
      newId: () => log.newId(),
    };
    this.textView = new BlockPresenter(sink);
    this.nativeView = new BlockPresenter(sink);
  }

  add(event: Exclude<StreamEvent, { type: "usage" }>): void {
    if (event.type === "text") {
      this.raw += event.text;
      const blocks = this.parser.processChunk(event.text);
      this.textView.update(blocks);
      this.partial(blocks);
    } else if (event.type === "reasoning") {
      if (!this.reasoning) {
        this.reasoning = { id: this.log.newId(), role: "assistant", text: "", reasoning: "", partial: true };
        this.log.append(this.reasoning);
      }
      this.log.textDelta(this.reasoning.id, event.text, "reasoning");
    } else {
      this.assembler.add(event);
      const blocks = this.assembler.blocks();
      this.nativeView.update(blocks);
      this.partial(blocks);
    }
  }

  private partial(blocks: readonly { type: string }[]): void {
    const last = blocks.at(-1) as ToolUseBlock | undefined;
    if (last?.type === "tool_use" && last.partial) this.onPartialTool(last);
  }

  /** The stream ended: partial blocks are closed, and the chat items stop streaming. */
  finish(): Reply {
    this.parser.finalizeContentBlocks();
    const nativeBlocks = this.assembler.finalize();
    this.textView.update(this.parser.getContentBlocks(), true);
    this.nativeView.update(nativeBlocks, true);
    this.log.finishTextItems();
    const xmlTools = this.parser.getContentBlocks().filter((b): b is ToolUseBlock => b.type === "tool_use");
    return { raw: this.raw, xmlTools, nativeBlocks, cardOf: (block) => this.textView.idOf(block) ?? this.nativeView.idOf(block) };
  }
}
