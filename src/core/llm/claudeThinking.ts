import type Anthropic from "@anthropic-ai/sdk";
import { budgetOf, type ReasoningSettings } from "../../shared/reasoning";

/**
 * Claude's extended thinking, shared by Anthropic's API and Claude on Vertex and Bedrock.
 *
 * With thinking on, a request whose last assistant turn called tools must send that turn's thinking
 * blocks back unchanged (their signature covers the text). LlmContent has no place for them, so
 * they wait here, by the id of the first tool call of their reply, until the call is sent back;
 * a task resumed in a new process has none, and its next request goes without thinking.
 */
export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string } | { type: "redacted_thinking"; data: string };

const remembered = new Map<string, ThinkingBlock[]>();
const MAX_REMEMBERED = 1024;

export function rememberThinking(firstToolUseId: string, blocks: readonly ThinkingBlock[]): void {
  if (blocks.length === 0) return;
  remembered.delete(firstToolUseId);
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(firstToolUseId, [...blocks]);
}

export function thinkingBefore(firstToolUseId: string): readonly ThinkingBlock[] | undefined {
  return remembered.get(firstToolUseId);
}

/** Collects a streamed reply's thinking blocks as they arrive, by the stream's block index. */
export class ThinkingCollector {
  private readonly blocks = new Map<number, ThinkingBlock>();
  private firstToolUseId: string | undefined;

  start(index: number, block: { type: string; data?: string }): void {
    if (block.type === "thinking") this.blocks.set(index, { type: "thinking", thinking: "", signature: "" });
    else if (block.type === "redacted_thinking" && typeof block.data === "string") this.blocks.set(index, { type: "redacted_thinking", data: block.data });
  }

  toolUse(id: string): void {
    this.firstToolUseId ??= id;
  }

  /** Bedrock sends no block start for thinking: its first delta opens the block. */
  private thinkingAt(index: number): ThinkingBlock | undefined {
    if (!this.blocks.has(index)) this.blocks.set(index, { type: "thinking", thinking: "", signature: "" });
    return this.blocks.get(index);
  }

  thinking(index: number, text: string): void {
    const block = this.thinkingAt(index);
    if (block?.type === "thinking") block.thinking += text;
  }

  signature(index: number, signature: string): void {
    const block = this.thinkingAt(index);
    if (block?.type === "thinking") block.signature += signature;
  }

  redacted(index: number, data: string): void {
    this.blocks.set(index, { type: "redacted_thinking", data });
  }

  /** At the reply's end: its thinking is kept when it called a tool (only then must it go back). */
  finish(): void {
    if (!this.firstToolUseId) return;
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    // Unsigned thinking would be refused when sent back; sending none is accepted.
    if (ordered.every((b) => b.type === "redacted_thinking" || b.signature)) rememberThinking(this.firstToolUseId, ordered);
  }
}

/** Room kept for the answer itself when the budget comes out of the model's output limit. */
const ANSWER_ROOM = 4_096;
export const MIN_THINKING_BUDGET = 1_024;

export interface ThinkingRequest {
  maxTokens: number;
  thinking?: Anthropic.ThinkingConfigEnabled;
}

/**
 * The output limit and thinking settings of one request. Thinking counts toward max_tokens and its
 * budget must stay below it: with the model's limit known, the budget is cut to leave the answer
 * room; with none known, the limit grows by the budget.
 */
export function thinkingRequest(settings: ReasoningSettings, requestedMax: number | undefined, defaultMax: number): ThinkingRequest {
  const budget = budgetOf(settings);
  if (budget === undefined) return { maxTokens: requestedMax ?? defaultMax };
  if (requestedMax === undefined) return { maxTokens: defaultMax + budget, thinking: { type: "enabled", budget_tokens: budget } };
  const fitted = Math.min(budget, requestedMax - ANSWER_ROOM);
  if (fitted < MIN_THINKING_BUDGET) return { maxTokens: requestedMax };
  return { maxTokens: requestedMax, thinking: { type: "enabled", budget_tokens: fitted } };
}

/**
 * thinkingRequest for a conversation: Claude refuses thinking when the turn that called tools comes
 * back without its own (a task resumed in a new process), so that request goes without.
 */
export function thinkingForConversation(settings: ReasoningSettings, requestedMax: number | undefined, defaultMax: number, messages: readonly { role: string; content: unknown }[]): ThinkingRequest {
  const request = thinkingRequest(settings, requestedMax, defaultMax);
  const lastCall = lastAssistantToolUse(messages);
  if (request.thinking && lastCall !== undefined && !thinkingBefore(lastCall)) return { maxTokens: requestedMax ?? defaultMax };
  return request;
}

/** The first tool call of the last assistant turn, when that turn called tools. */
function lastAssistantToolUse(messages: readonly { role: string; content: unknown }[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    if (!Array.isArray(message.content)) return undefined;
    const call = (message.content as { type: string; id?: string }[]).find((b) => b.type === "tool_use");
    return call?.id;
  }
  return undefined;
}
