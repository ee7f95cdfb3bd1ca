import * as l10n from "@vscode/l10n";
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
      reason: l10n.t(
        "The next request would send about {0} input tokens, over the per-request limit of {1} (above it this model's price is higher). Condense the task or raise the limit to go on.",
        n(next.inputTokens),
        n(budget.maxInputPerRequest),
      ),
    };
  }
  if (budget.maxTokens !== undefined && spent.tokens + next.inputTokens + next.maxOutputTokens > budget.maxTokens) {
    return {
      ok: false,
      limit: "maxTokens",
      reason: l10n.t(
        "The task has used {0} tokens; the next request could take up to {1} more, over its budget of {2}. Raise the budget to go on.",
        n(spent.tokens),
        n(next.inputTokens + next.maxOutputTokens),
        n(budget.maxTokens),
      ),
    };
  }
  if (budget.maxCost !== undefined) {
    if (spent.cost === undefined || next.maxCost === undefined) {
      return {
        ok: false,
        limit: "maxCost",
        reason: l10n.t(
          "The task has a cost budget of {0}, but this model's prices are unknown, so the cost cannot be kept under it. Set the model's prices or remove the budget.",
          formatUsd(budget.maxCost),
        ),
      };
    }
    if (spent.cost + next.maxCost > budget.maxCost) {
      return {
        ok: false,
        limit: "maxCost",
        reason: l10n.t(
          "The task has cost {0}; the next request could cost up to {1}, over its budget of {2}. Raise the budget to go on.",
          formatUsd(spent.cost),
          formatUsd(next.maxCost),
          formatUsd(budget.maxCost),
        ),
      };
    }
  }
  return { ok: true };
}

function n(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
