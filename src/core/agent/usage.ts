import type { StreamEvent } from "../llm/types";

export type Usage = Omit<Extract<StreamEvent, { type: "usage" }>, "type">;

/** Tokens and cost of the whole task: every request's usage added up. */
export class UsageMeter {
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

  totalCost(): number | undefined {
    return this.cost;
  }

  total(): Required<Usage> {
    return { ...this.sum };
  }
}
