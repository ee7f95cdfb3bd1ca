import { CONDENSE_PERCENT, DEFAULT_CONTEXT_SETTINGS, SHORTEN_AFTER, type ContextSettings } from "../../core/context/settings";
import { resolveModelInfo } from "../../core/llm/models";

export const CONTEXT_USAGE = `  --max-tokens N               budget: the task stops before a request that could take its tokens
                               (input, output and cache) over N; exit 3 says why
  --max-cost USD               budget: the same for cost, from the model's prices
  --max-input-tokens N         keep each request's input under N (e.g. 200000 where the price
                               steps up): condense or hide old turns to stay under, else stop
  --condense-percent P         condense when the prompt reaches P% of the window (default 100;
                               0: never, hide the oldest turns instead)
  --condense-prompt TEXT       your own instructions for the summary
  --shorten-results-after N    send tool results older than N newer ones as a note naming a file
                               with the full text (default 0: never)
  --model-info JSON            the model's window, max output and prices, as kiln.provider.modelInfo:
                               '{"contextWindow":32000,"maxOutputTokens":4000,"inputPrice":1}'`;

/** The flags of context and budgets, with what each sets. */
const FLAGS: Record<string, (raw: string, args: ContextArgs) => string | undefined> = {
  "--max-tokens": (raw, args) => whole(raw, 1, Number.MAX_SAFE_INTEGER, (n) => (args.context.budget.maxTokens = n)),
  "--max-cost": (raw, args) => {
    const usd = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(usd) || usd <= 0) return "must be a positive number of US dollars";
    args.context.budget.maxCost = usd;
    return undefined;
  },
  "--max-input-tokens": (raw, args) => whole(raw, 1, Number.MAX_SAFE_INTEGER, (n) => (args.context.budget.maxInputPerRequest = n)),
  "--condense-percent": (raw, args) => whole(raw, CONDENSE_PERCENT.min, CONDENSE_PERCENT.max, (n) => (args.context.autoCondensePercent = n)),
  "--condense-prompt": (raw, args) => {
    if (raw.trim() === "") return "needs the instructions for the summary";
    args.context.condensePrompt = raw;
    return undefined;
  },
  "--shorten-results-after": (raw, args) => whole(raw, SHORTEN_AFTER.min, SHORTEN_AFTER.max, (n) => (args.context.shortenResultsAfter = n)),
  "--model-info": (raw, args) => {
    let info: unknown;
    try {
      info = JSON.parse(raw);
    } catch (err) {
      return `is not JSON (${err instanceof Error ? err.message : String(err)})`;
    }
    // The fields' checks do not depend on the provider, so any kind validates them.
    const { errors } = resolveModelInfo("openai-compatible", "", info);
    if (errors.length > 0) return errors.join("; ");
    args.modelInfo = info as Record<string, unknown>;
    return undefined;
  },
};

export interface ContextArgs {
  context: ContextSettings;
  /** Overrides of the model table, like the extension's kiln.provider.modelInfo. */
  modelInfo?: Record<string, unknown>;
}

export function defaultContextArgs(): ContextArgs {
  return { context: { ...DEFAULT_CONTEXT_SETTINGS, budget: {} } };
}

export function isContextFlag(flag: string): boolean {
  return Object.hasOwn(FLAGS, flag);
}

/** Applies one flag; returns what is wrong with its value, for the usage error. */
export function applyContextFlag(flag: string, raw: string, args: ContextArgs): string | undefined {
  const problem = FLAGS[flag]!(raw, args);
  return problem && `${flag} ${problem} (got "${raw}")`;
}

function whole(raw: string, min: number, max: number, set: (n: number) => void): string | undefined {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(n) || n < min || n > max)
    return max === Number.MAX_SAFE_INTEGER ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`;
  set(n);
  return undefined;
}
