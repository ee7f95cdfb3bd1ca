import type { AssistantItem, ToolItem, ToolStatus } from "../../shared/protocol/chat";
import type { ToolView } from "../../shared/toolView";
import type { AnyTool } from "../tools/defineTool";
import { plainView } from "../tools/present";
import { createDefaultRegistry } from "../tools/registry";
import type { AssistantContentBlock, ToolUseBlock } from "../toolcall/types";

let builtIn: Map<string, AnyTool> | undefined;

/**
 * How a call looks, by its tool's `present`: from the arguments as far as they have arrived and
 * the call's status. A tool that does not present itself (or whose presenting fails) shows its
 * name and its arguments as labelled values.
 */
export function presentTool(name: string, params: Readonly<Record<string, string>>, status: ToolStatus): ToolView {
  builtIn ??= new Map(
    createDefaultRegistry()
      .list()
      .map((tool) => [tool.name, tool]),
  );
  const tool = builtIn.get(name);
  if (tool?.present) {
    try {
      return tool.present(params, status);
    } catch {
      // A view is never worth a failed turn: the plain one below.
    }
  }
  return plainView(name, params, status);
}

/** The item with its view for its current name, parameters and status. */
export function withView(item: ToolItem): ToolItem {
  return { ...item, view: presentTool(item.name, item.params, item.status) };
}

export interface PresenterSink {
  append(item: AssistantItem | ToolItem): void;
  textDelta(id: string, delta: string, field: "text" | "reasoning"): void;
  changed(item: ToolItem): void;
  newId(): string;
}

interface Shown {
  id: string;
  /** Text: characters sent. Tool: total value length at the last update. */
  size: number;
  nextUpdateAt: number;
}

function paramsSize(block: ToolUseBlock): number {
  let n = 0;
  for (const key in block.params) n += block.params[key]!.length + 1;
  return n;
}

/**
 * Turns the growing list of content blocks into chat items and deltas. Only blocks from the first
 * still-open one onward are looked at, a text block's growth is passed on piece by piece (`grew`),
 * and a streaming tool card is refreshed only when its parameters have grown by a quarter, so
 * presenting a reply costs in proportion to its size.
 */
export class BlockPresenter {
  private readonly shown = new Map<AssistantContentBlock, Shown>();
  private firstOpen = 0;
  private readonly ids = new Map<ToolUseBlock, string>();

  constructor(private readonly sink: PresenterSink) {}

  idOf(block: ToolUseBlock): string | undefined {
    return this.ids.get(block);
  }

  update(blocks: readonly AssistantContentBlock[], final = false): void {
    for (let i = this.firstOpen; i < blocks.length; i++) {
      const block = blocks[i]!;
      this.show(block, final);
      if (i === this.firstOpen && !block.partial) this.firstOpen++;
    }
  }

  /** A text or reasoning block already shown grew by `piece`: the piece goes out as it is. */
  grew(block: AssistantContentBlock, piece: string): void {
    const shown = this.shown.get(block);
    if (!shown || block.type === "tool_use") return;
    this.sink.textDelta(shown.id, piece, block.type === "text" ? "text" : "reasoning");
    shown.size += piece.length;
  }

  /** One block, new or changed: appended the first time, then updated. */
  show(block: AssistantContentBlock, final = false): void {
    let shown = this.shown.get(block);
    if (block.type === "text" || block.type === "reasoning") {
      // Reasoning written as <thinking> in the text shows like the API's own reasoning: collapsed.
      const field = block.type === "text" ? "text" : "reasoning";
      if (!shown) {
        shown = { id: this.sink.newId(), size: block.content.length, nextUpdateAt: 0 };
        this.shown.set(block, shown);
        const partial = !final && block.partial;
        this.sink.append(field === "text" ? { id: shown.id, role: "assistant", text: block.content, partial } : { id: shown.id, role: "assistant", text: "", reasoning: block.content, partial });
      } else if (block.content.length > shown.size) {
        // Growth nobody reported through grew(): a slice, which copies the content once.
        this.sink.textDelta(shown.id, block.content.slice(shown.size), field);
        shown.size = block.content.length;
      }
      return;
    }
    const size = paramsSize(block);
    if (!shown) {
      shown = { id: this.sink.newId(), size, nextUpdateAt: size + Math.max(256, size >> 2) };
      this.shown.set(block, shown);
      this.ids.set(block, shown.id);
      this.sink.append(this.toolItem(shown.id, block));
    } else if (size >= shown.nextUpdateAt || (final && size !== shown.size) || (!block.partial && shown.size !== size)) {
      shown.size = size;
      shown.nextUpdateAt = size + Math.max(256, size >> 2);
      this.sink.changed(this.toolItem(shown.id, block));
    }
  }

  private toolItem(id: string, block: ToolUseBlock): ToolItem {
    return withView({ id, role: "tool", name: block.name, params: { ...block.params }, status: block.partial ? "streaming" : "waiting" });
  }
}
