import { AUTO_CONDENSE_PERCENT, SHORTEN_RESULTS_AFTER } from "../../shared/limits";
import type { TaskBudget } from "./budget";

/**
 * How a task keeps its conversation in the model's window and its spending in bounds. Read before
 * each request, so a setting changed while a task runs (a raised budget) applies to its next one.
 */
export interface ContextSettings {
  /**
   * Condense automatically once the prompt passes this share of the window (percent, 1-100); 0
   * turns it off, and the sliding window hides the oldest turns instead.
   */
  autoCondensePercent: number;
  /** Replaces the built-in instructions of the summary request; empty: the built-in ones. */
  condensePrompt: string;
  /** After this many newer tool results, an old large one is sent as a one-line note (0: never). */
  shortenResultsAfter: number;
  budget: TaskBudget;
}

export const DEFAULT_CONTEXT_SETTINGS: Readonly<ContextSettings> = Object.freeze({
  autoCondensePercent: AUTO_CONDENSE_PERCENT.default,
  condensePrompt: "",
  shortenResultsAfter: SHORTEN_RESULTS_AFTER.default,
  budget: {},
});

/** The settings each host reads, with the bounds both refuse values outside of. */
export const CONDENSE_PERCENT = { min: AUTO_CONDENSE_PERCENT.min, max: AUTO_CONDENSE_PERCENT.max } as const;
export const SHORTEN_AFTER = { min: SHORTEN_RESULTS_AFTER.min, max: SHORTEN_RESULTS_AFTER.max } as const;
