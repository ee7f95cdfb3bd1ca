import { formatUsd } from "../llm/models";

export interface TaskBudget {
  /** Input + output tokens over the whole task. */
  maxTokens?: number;
  /** USD over the whole task. */
  maxCost?: number;
  /** Keep each request's input under this (a price step, e.g. 200k where a model's price doubles). */
  maxInputPerRequest?: number;
}

export interface SpendSoFar {
  tokens: number;
  /** Undefined when some request had no known price. */
  cost: number | undefined;
}

export interface NextRequest {
  /** The prompt the request will send, estimated. */
  inputTokens: number;
  /** The most it can answer with. */
  maxOutputTokens: number;
  /** Its cost at most (input plus a full reply), where prices are known. */
  maxCost: number | undefined;
}

export type BudgetCheck = { ok: true } | { ok: false; reason: string; limit: keyof TaskBudget };

/**
 * Checked before every request: a task stops *before* a request that could cross a budget, so the
 * limit is never overshot by one expensive reply. The reasons name the numbers the user can raise.
 */
export function checkBudget(budget: TaskBudget, spent: SpendSoFar, next: NextRequest): BudgetCheck {
  if (budget.maxInputPerRequest !== undefined && next.inputTokens > budget.maxInputPerRequest) {
    return {
      ok: false,
      limit: "maxInputPerRequest",
      reason: `The next request would send about ${n(next.inputTokens)} input tokens, over the per-request limit of ${n(budget.maxInputPerRequest)} (above it this model's price is higher). Condense the task or raise the limit to go on.`,
    };
  }
  if (budget.maxTokens !== undefined && spent.tokens + next.inputTokens + next.maxOutputTokens > budget.maxTokens) {
    return {
      ok: false,
      limit: "maxTokens",
      reason: `The task has used ${n(spent.tokens)} tokens; the next request could take up to ${n(next.inputTokens + next.maxOutputTokens)} more, over its budget of ${n(budget.maxTokens)}. Raise the budget to go on.`,
    };
  }
  if (budget.maxCost !== undefined) {
    if (spent.cost === undefined || next.maxCost === undefined) {
      return {
        ok: false,
        limit: "maxCost",
        reason: `The task has a cost budget of ${formatUsd(budget.maxCost)}, but this model's prices are unknown, so the cost cannot be kept under it. Set the model's prices or remove the budget.`,
      };
    }
    if (spent.cost + next.maxCost > budget.maxCost) {
      return {
        ok: false,
        limit: "maxCost",
        reason: `The task has cost ${formatUsd(spent.cost)}; the next request could cost up to ${formatUsd(next.maxCost)}, over its budget of ${formatUsd(budget.maxCost)}. Raise the budget to go on.`,
      };
    }
  }
  return { ok: true };
}

function n(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
