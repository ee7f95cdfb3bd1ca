/**
 * How hard a model thinks before it answers. Providers take one of two shapes: an effort word
 * (OpenAI's reasoning_effort, Gemini 3's thinking level, OpenRouter) or a token budget (Claude's
 * extended thinking, Gemini 2.5). A profile gives either; each provider turns it into its own shape,
 * so the same profile works when the user moves from one provider to another.
 */

export const REASONING_EFFORTS = ["low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Claude's floor is 1,024 tokens; no model thinks usefully in more than this. */
export const THINKING_BUDGET = { min: 1_024, max: 200_000 } as const;

export interface ReasoningSettings {
  /** Absent: the model's own default. */
  reasoningEffort?: ReasoningEffort;
  /** Tokens the model may think in; absent: the model's own default. */
  thinkingBudget?: number;
}

export function isReasoningEffort(value: unknown): value is ReasoningEffort {
  return typeof value === "string" && (REASONING_EFFORTS as readonly string[]).includes(value);
}

export function isThinkingBudget(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= THINKING_BUDGET.min && value <= THINKING_BUDGET.max;
}

/** The budget an effort word stands for, for providers that take a budget. */
const BUDGET_OF_EFFORT: Record<ReasoningEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

/** Whether the settings ask for any reasoning at all. */
export function wantsReasoning(settings: ReasoningSettings): boolean {
  return settings.reasoningEffort !== undefined || settings.thinkingBudget !== undefined;
}

/** The effort to send: the given word, else the one nearest the budget. */
export function effortOf(settings: ReasoningSettings): ReasoningEffort | undefined {
  if (settings.reasoningEffort) return settings.reasoningEffort;
  const budget = settings.thinkingBudget;
  if (budget === undefined) return undefined;
  return budget <= 4_096 ? "low" : budget <= 16_384 ? "medium" : "high";
}

/** The budget to send: the given number, else the effort word's. */
export function budgetOf(settings: ReasoningSettings): number | undefined {
  if (settings.thinkingBudget !== undefined) return settings.thinkingBudget;
  return settings.reasoningEffort && BUDGET_OF_EFFORT[settings.reasoningEffort];
}

/** Only the fields that are set, for spreading into settings. */
export function reasoningOf(settings: ReasoningSettings): ReasoningSettings {
  return {
    ...(settings.reasoningEffort !== undefined && { reasoningEffort: settings.reasoningEffort }),
    ...(settings.thinkingBudget !== undefined && { thinkingBudget: settings.thinkingBudget }),
  };
}
