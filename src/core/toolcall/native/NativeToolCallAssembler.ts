import { parse as parsePartialJson } from "partial-json";
import { depthMessage, JsonDepthGauge, MAX_JSON_DEPTH } from "../jsonLimits";
import type { ToolUseBlock } from "../types";

export interface NativeCallLimits {
  /** Characters of one call's JSON arguments. */
  maxArgChars: number;
  /** Nesting of one call's arguments. */
  maxDepth: number;
}

/** The reader passes the user's argument limit (kiln.reply.toolArgMaxChars, whose default this is). */
export const DEFAULT_NATIVE_CALL_LIMITS: NativeCallLimits = { maxArgChars: 400_000, maxDepth: MAX_JSON_DEPTH };

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
  depth: JsonDepthGauge;
  /** Past a limit: the call has its error, and what else arrives for it is dropped. */
  refused: boolean;
}

/**
 * Turns streamed native tool calls (Anthropic `input_json_delta`, OpenAI `tool_calls` argument
 * deltas) into tool_use blocks whose params fill in while the JSON streams.
 *
 * Partial JSON is re-parsed only when the arguments have grown by a quarter since the last parse,
 * so the parsing work over a whole call stays proportional to its size. A call whose arguments pass
 * the size or nesting limit gets an error at once, and keeps nothing more.
 */
export class NativeToolCallAssembler {
  private readonly calls = new Map<number, Pending>();

  constructor(
    private readonly onNewBlock: (block: ToolUseBlock) => void = () => undefined,
    private readonly limits: NativeCallLimits = DEFAULT_NATIVE_CALL_LIMITS,
  ) {}

  /** Whether the call with this index has started. */
  has(index: number): boolean {
    return this.calls.has(index);
  }

  /** The call's block, with its error set when this delta took it past a limit. */
  add(delta: ToolCallDelta): ToolUseBlock {
    let pending = this.calls.get(delta.index);
    if (!pending) {
      const block: ToolUseBlock = { type: "tool_use", name: delta.name ?? "", params: {}, partial: true, id: delta.id };
      pending = { block, args: "", nextParseAt: 0, depth: new JsonDepthGauge(), refused: false };
      this.calls.set(delta.index, pending);
      this.onNewBlock(block);
    }
    if (delta.id && !pending.block.id) pending.block.id = delta.id;
    if (delta.name && !pending.block.name) pending.block.name = delta.name;
    if (pending.refused) return pending.block;
    const name = pending.block.name || "this tool call";
    if (pending.args.length + delta.argsDelta.length > this.limits.maxArgChars) {
      this.refuse(
        pending,
        `The arguments of ${name} passed ${this.limits.maxArgChars} characters, the limit for one tool call; the call was cut off there and not run. Split the work into smaller calls.`,
      );
      return pending.block;
    }
    pending.depth.push(delta.argsDelta);
    if (pending.depth.deepest > this.limits.maxDepth) {
      this.refuse(pending, `The arguments of ${name} are ${depthMessage(this.limits.maxDepth)}; the call was not run. Send flatter arguments.`);
      return pending.block;
    }
    pending.args += delta.argsDelta;
    if (pending.args.length >= pending.nextParseAt) {
      pending.nextParseAt = pending.args.length + Math.max(32, pending.args.length >> 2);
      this.parsePartial(pending);
    }
    return pending.block;
  }

  /** Ends the stream: each call's full arguments must be one JSON object. */
  finalize(): ToolUseBlock[] {
    const blocks: ToolUseBlock[] = [];
    for (const pending of this.calls.values()) {
      const { block } = pending;
      if (pending.refused) {
        blocks.push(block);
        continue;
      }
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

  private refuse(pending: Pending, error: string): void {
    pending.block.error = error;
    pending.refused = true;
    // What was kept is of no use to anyone now; the card keeps the params it showed.
    pending.args = "";
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
