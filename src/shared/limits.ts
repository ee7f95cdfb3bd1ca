/**
 * How much of a file, a tool result or a command's output reaches the model. Each is a setting in
 * VS Code (kiln.context.*, kiln.terminal.outputMaxChars) and a flag of the CLI; the bounds are
 * shared so the settings panel, the host and the CLI refuse the same values.
 */
export interface LimitBounds {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

export const READ_FILE_MAX_LINES: LimitBounds = { min: 1, max: 100_000, default: 500 };
/** Below a thousand characters even a short listing or error would be cut. */
export const TOOL_RESULT_MAX_CHARS: LimitBounds = { min: 1_000, max: 10_000_000, default: 50_000 };
export const OUTPUT_MAX_CHARS: LimitBounds = { min: 1_000, max: 1_000_000, default: 10_000 };

/** Condense once the prompt passes this share of the model's window; 0: never (the sliding window instead). */
export const AUTO_CONDENSE_PERCENT: LimitBounds = { min: 0, max: 100, default: 100 };
/** After this many newer tool results an old large one goes as a one-line note; 0: never. */
export const SHORTEN_RESULTS_AFTER: LimitBounds = { min: 0, max: 1000, default: 0 };
/** A task's budgets (tokens, USD, input tokens of one request); 0: none. */
export const BUDGET_MAX = 1_000_000_000_000;

export function withinBounds(value: unknown, bounds: LimitBounds): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= bounds.min && value <= bounds.max;
}
