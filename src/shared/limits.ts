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

export function withinBounds(value: unknown, bounds: LimitBounds): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= bounds.min && value <= bounds.max;
}
