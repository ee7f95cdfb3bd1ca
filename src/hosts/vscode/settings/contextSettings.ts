import type { ContextOptions } from "../../../core/agent/contextGuard";
import type { TaskBudget } from "../../../core/context/budget";
import type { ContextSettings } from "../../../core/context/settings";
import type { Logger } from "../../../core/ports";
import type { Provider } from "../../../core/llm/types";
import { fullKey, KILN, readSetting } from "./kilnSettings";
import type { ProfileStore } from "./profileStore";

const BUDGETS = Object.keys(KILN.budget) as (keyof TaskBudget)[];

/** The setting that lifts each budget: a budget stop's Raise budget opens it. */
export const BUDGET_SETTING = Object.fromEntries(BUDGETS.map((key) => [key, fullKey(KILN.budget[key])])) as Record<keyof TaskBudget, string>;

/** Read before each request, so a budget raised after a stop lets Resume go on. */
export function readContextSettings(logger: Logger, profilePercent?: number): ContextSettings {
  const budget: TaskBudget = {};
  for (const key of BUDGETS) {
    // 0: no budget.
    const value = readSetting(KILN.budget[key], logger);
    if (value > 0) budget[key] = value;
  }
  return {
    // The task's profile may set its own threshold (a small local model condenses earlier).
    autoCondensePercent: profilePercent ?? readSetting(KILN.context.autoCondensePercent, logger),
    condensePrompt: readSetting(KILN.context.condensePrompt, logger),
    shortenResultsAfter: readSetting(KILN.context.shortenResultsAfter, logger),
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
      const name = readSetting(KILN.context.condenseProfile, logger).trim();
      if (!name || !profiles) return undefined;
      const profile = profiles.read().profiles.find((p) => p.name === name);
      if (profile) return profiles.provider(profile);
      logger.warn(`kiln.context.condenseProfile names no profile "${name}"; condensing with the task's model`);
      return undefined;
    },
  };
}
