import * as vscode from "vscode";
import type { ContextOptions } from "../../../core/agent/contextGuard";
import type { TaskBudget } from "../../../core/context/budget";
import { CONDENSE_PERCENT, DEFAULT_CONTEXT_SETTINGS, SHORTEN_AFTER, type ContextSettings } from "../../../core/context/settings";
import type { Logger } from "../../../core/ports";
import type { Provider } from "../../../core/llm/types";
import type { ProfileStore } from "./profileStore";

/** The setting that lifts each budget: a budget stop's Raise budget opens it. */
export const BUDGET_SETTING: Record<keyof TaskBudget, string> = {
  maxTokens: "kiln.budget.maxTokens",
  maxCost: "kiln.budget.maxCost",
  maxInputPerRequest: "kiln.budget.maxInputTokensPerRequest",
};

const reported = new Set<string>();

/** A wrong value is logged once and ignored (the default applies); settings are user input. */
function read<T>(logger: Logger, key: string, fallback: T, valid: (value: unknown) => value is T): T {
  const value = vscode.workspace.getConfiguration().get<unknown>(key);
  if (value === undefined || value === null) return fallback;
  if (valid(value)) return value;
  const line = `setting ${key} is ${JSON.stringify(value)}, which is not valid; ignoring it`;
  if (!reported.has(line)) logger.warn(line);
  reported.add(line);
  return fallback;
}

const wholeIn =
  (min: number, max: number) =>
  (v: unknown): v is number =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
/** 0 or absent: no budget. */
const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** Read before each request, so a budget raised after a stop lets Resume go on. */
export function readContextSettings(logger: Logger, profilePercent?: number): ContextSettings {
  const budget: TaskBudget = {};
  const limit = (key: keyof TaskBudget) => read<number | undefined>(logger, BUDGET_SETTING[key], undefined, (v): v is number => v === 0 || positive(v)) || undefined;
  for (const key of Object.keys(BUDGET_SETTING) as (keyof TaskBudget)[]) {
    const value = limit(key);
    if (value !== undefined) budget[key] = value;
  }
  return {
    // The task's profile may set its own threshold (a small local model condenses earlier).
    autoCondensePercent: profilePercent ?? read(logger, "kiln.context.autoCondensePercent", DEFAULT_CONTEXT_SETTINGS.autoCondensePercent, wholeIn(CONDENSE_PERCENT.min, CONDENSE_PERCENT.max)),
    condensePrompt: read(logger, "kiln.context.condensePrompt", "", (v): v is string => typeof v === "string"),
    shortenResultsAfter: read(logger, "kiln.context.shortenResultsAfter", 0, wholeIn(SHORTEN_AFTER.min, SHORTEN_AFTER.max)),
    budget,
  };
}

/**
 * The task's context options in VS Code: the settings above, and summaries by the profile named in
 * kiln.context.condenseProfile (a cheaper model) where there is one.
 */
export function contextOptions(logger: Logger, profiles: ProfileStore | undefined, profilePercent: () => number | undefined = () => undefined): ContextOptions {
  return {
    settings: () => {
      let percent: number | undefined;
      try {
        percent = profilePercent();
      } catch {
        // No usable profile: the request itself says so; the setting applies meanwhile.
      }
      return readContextSettings(logger, percent);
    },
    condenseProvider: async (): Promise<Provider | undefined> => {
      const name = read(logger, "kiln.context.condenseProfile", "", (v): v is string => typeof v === "string").trim();
      if (!name || !profiles) return undefined;
      const profile = profiles.read().profiles.find((p) => p.name === name);
      if (profile) return profiles.provider(profile);
      logger.warn(`kiln.context.condenseProfile names no profile "${name}"; condensing with the task's model`);
      return undefined;
    },
  };
}
