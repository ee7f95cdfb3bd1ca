import type { LlmMessage } from "../llm/types";

export interface WindowPlan {
  /** Messages 1..hide (the first user message is always kept) are left out of the request. */
  hide: number;
  /** Tokens the kept messages add up to. */
  tokens: number;
}

/**
 * The sliding window: the fewest oldest messages to leave out so the rest fits in `limit` tokens.
 * The first user message (the task) always stays, and messages go in assistant+user pairs, so a
 * tool call never loses its result and the roles keep alternating. Undefined when even the task
 * and the last exchange do not fit: then only condensing (or a bigger window) can help.
 */
export function planWindow(messages: readonly LlmMessage[], tokensOf: (message: LlmMessage, index: number) => number, limit: number, alreadyHidden = 0): WindowPlan | undefined {
  const sizes = messages.map(tokensOf);
  let total = sizes.reduce((a, b) => a + b, 0) - sizes.slice(1, 1 + alreadyHidden).reduce((a, b) => a + b, 0);
  let hide = alreadyHidden;
  // Pairs start at an assistant message; keep the last exchange (the newest two messages) always.
  while (total > limit) {
    if (1 + hide + 2 > messages.length - 2) return undefined;
    total -= sizes[1 + hide]! + sizes[2 + hide]!;
    hide += 2;
  }
  return { hide, tokens: total };
}

/** The prompt limit: what is left of the window after the reply's reserve and a 10% safety margin. */
export function promptLimit(contextWindow: number, maxOutputTokens: number): number {
  return Math.max(0, Math.floor(contextWindow * 0.9) - maxOutputTokens);
}
