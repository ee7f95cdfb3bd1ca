import type { TaskInfo } from "../../shared/protocol/messages";
import type { ModelInfo, UsageConvention } from "../llm/models";
import type { StreamEvent } from "../llm/types";

export type Usage = Omit<Extract<StreamEvent, { type: "usage" }>, "type">;

/** How full the model's window was at the last request, for the context bar. */
export interface ContextUse {
  /** The last request's prompt and reply, in tokens. */
  used: number;
  window: number;
  /** Kept free for the reply (the model's max output). */
  reserved: number;
}

/** Tokens and cost of the whole task: every request's usage added up. */
export class UsageMeter {
  private lastContext: ContextUse | undefined;

  /** A request's usage as the share of the window it filled; Anthropic counts cached tokens apart. */
  noteContext(usage: Usage, info: ModelInfo, convention: UsageConvention): void {
    const prompt = usage.inputTokens + (convention === "anthropic" ? (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) : 0);
    this.lastContext = { used: prompt + usage.outputTokens, window: info.contextWindow, reserved: info.maxOutputTokens };
  }

  context(): ContextUse | undefined {
    return this.lastContext && { ...this.lastContext };
  }

  private sum: Required<Usage> = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  /** Undefined once any request had no known price: a partial sum would understate the cost. */
  private cost: number | undefined = 0;

  add(usage: Usage, cost: number | undefined): void {
    this.cost = this.cost === undefined || cost === undefined ? undefined : this.cost + cost;
    this.sum.inputTokens += usage.inputTokens;
    this.sum.outputTokens += usage.outputTokens;
    this.sum.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.sum.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
  }

  /** Totals of a saved task, which a resumed task goes on from. */
  restore(total: Required<Usage>, cost: number | undefined): void {
    this.sum = { ...total };
    this.cost = cost;
  }

  totalCost(): number | undefined {
    return this.cost;
  }

  total(): Required<Usage> {
    return { ...this.sum };
  }
}

/** What the chat header shows of a task: its usage with its mode, status, changed files and todos. */
export function taskInfo(
  usage: UsageMeter,
  task: { mode: string; status: string; changedFiles: number; todos: readonly { text: string; status: "pending" | "in_progress" | "completed" }[] },
): TaskInfo {
  const total = usage.total();
  const cost = usage.totalCost();
  const context = usage.context();
  return {
    mode: task.mode,
    tokensIn: total.inputTokens,
    tokensOut: total.outputTokens,
    cacheRead: total.cacheReadTokens,
    cacheWrite: total.cacheWriteTokens,
    ...(cost === undefined ? {} : { cost }),
    ...(context ? { context } : {}),
    status: task.status,
    changedFiles: task.changedFiles,
    todos: task.todos.map((t) => ({ ...t })),
  };
}
