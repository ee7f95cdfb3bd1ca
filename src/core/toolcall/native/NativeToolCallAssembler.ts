import { parse as parsePartialJson } from "partial-json";
import type { ToolUseBlock } from "../types";

export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  argsDelta: string;
}

/** JSON values become the same text an XML call would carry; schemas coerce them back. */
function toParamText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}

function toParams(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = toParamText(v);
  return out;
}

interface Pending {
  block: ToolUseBlock;
  args: string;
  nextParseAt: number;
}

/**
 * Turns streamed native tool calls (Anthropic `input_json_delta`, OpenAI `tool_calls` argument
 * deltas) into tool_use blocks whose params fill in while the JSON streams.
 *
 * Partial JSON is re-parsed only when the arguments have grown by a quarter since the last parse,
 * so the parsing work over a whole call stays proportional to its size.
 */
export class NativeToolCallAssembler {
  private readonly calls = new Map<number, Pending>();

  constructor(private readonly onNewBlock: (block: ToolUseBlock) => void = () => undefined) {}

  add(delta: ToolCallDelta): ToolUseBlock {
    let pending = this.calls.get(delta.index);
    if (!pending) {
      pending = { block: { type: "tool_use", name: delta.name ?? "", params: {}, partial: true, id: delta.id }, args: "", nextParseAt: 0 };
      this.calls.set(delta.index, pending);
      this.onNewBlock(pending.block);
    }
    if (delta.id && !pending.block.id) pending.block.id = delta.id;
    if (delta.name && !pending.block.name) pending.block.name = delta.name;
    pending.args += delta.argsDelta;
    if (pending.args.length >= pending.nextParseAt) {
      pending.nextParseAt = pending.args.length + Math.max(32, pending.args.length >> 2);
      this.parsePartial(pending);
    }
    return pending.block;
  }

  /** The calls so far, in the order they started. */
  blocks(): ToolUseBlock[] {
    return [...this.calls.values()].map((p) => p.block);
  }

  /** Ends the stream: each call's full arguments must be one JSON object. */
  finalize(): ToolUseBlock[] {
    const blocks: ToolUseBlock[] = [];
    for (const pending of this.calls.values()) {
      const { block } = pending;
      const text = pending.args.trim() === "" ? "{}" : pending.args;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        block.error = `The arguments of ${block.name || "this tool call"} are not valid JSON (${err instanceof Error ? err.message : String(err)}). Send the call again with one complete JSON object.`;
      }
      if (!block.error) {
        const params = toParams(value);
        if (params) {
          block.params = params;
          block.input = value as Record<string, unknown>;
          block.partial = false;
        } else {
          block.error = `The arguments of ${block.name || "this tool call"} must be a JSON object, not ${Array.isArray(value) ? "an array" : typeof value}.`;
        }
      }
      if (!block.name) block.error = "A tool call arrived without a tool name.";
      blocks.push(block);
    }
    return blocks;
  }

  private parsePartial(pending: Pending): void {
    try {
      const params = toParams(parsePartialJson(pending.args));
      if (params) pending.block.params = params;
    } catch {
      // Not yet parseable (e.g. a dangling escape): the next delta or finalize() will say more.
    }
  }
}
