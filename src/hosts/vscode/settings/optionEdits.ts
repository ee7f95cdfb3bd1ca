import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { OptionChangesSchema, settingProblem, type OptionField, type OptionsView } from "../../../shared/protocol/settings";
import { targetOf } from "./autoApproveEdits";
import { affectsSettings, fullKey, kilnConfiguration, OPTION_FIELDS, readSetting } from "./kilnSettings";

type Outcome = { ok: boolean; message: string; field?: string };

const FIELDS = Object.keys(OPTION_FIELDS) as OptionField[];

/** Whether a configuration change touches one of the "Limits and tools" settings. */
export function affectsOptions(event: vscode.ConfigurationChangeEvent): boolean {
  return affectsSettings(event, Object.values(OPTION_FIELDS));
}

/**
 * The current values, read through the same settings as the agent's (kilnSettings.ts), so the panel
 * shows what a task will use; not logged, the agent's reads report a bad value. `modes`: the slugs
 * a new task may start in.
 */
export function readOptionsView(modes: readonly string[]): OptionsView {
  const config = kilnConfiguration();
  return {
    mode: readSetting(OPTION_FIELDS.mode, undefined, (v) => (modes.includes(v) ? undefined : "there is no such mode")),
    maxRequests: readSetting(OPTION_FIELDS.maxRequests),
    retries: readSetting(OPTION_FIELDS.retries),
    requireTodosDone: readSetting(OPTION_FIELDS.requireTodosDone),
    readFileMaxLines: readSetting(OPTION_FIELDS.readFileMaxLines),
    toolResultMaxChars: readSetting(OPTION_FIELDS.toolResultMaxChars),
    outputMaxChars: readSetting(OPTION_FIELDS.outputMaxChars),
    fuzzyThreshold: readSetting(OPTION_FIELDS.fuzzyThreshold),
    browserPath: readSetting(OPTION_FIELDS.browserPath),
    autoCondensePercent: readSetting(OPTION_FIELDS.autoCondensePercent),
    shortenResultsAfter: readSetting(OPTION_FIELDS.shortenResultsAfter),
    budgetMaxTokens: readSetting(OPTION_FIELDS.budgetMaxTokens),
    budgetMaxCost: readSetting(OPTION_FIELDS.budgetMaxCost),
    budgetMaxInputTokens: readSetting(OPTION_FIELDS.budgetMaxInputTokens),
    workspaceFields: FIELDS.filter((field) => targetOf(config, OPTION_FIELDS[field].key) !== vscode.ConfigurationTarget.Global),
  };
}

const settingOf = (field: string) => (field in OPTION_FIELDS ? fullKey(OPTION_FIELDS[field as OptionField]) : `"${field}"`);

/**
 * Checks every change first (a bad one refuses them all, naming its field and setting), then writes
 * each to its kiln.* setting where that setting is set.
 */
export async function applyOptionChanges(raw: Record<string, unknown>, modes: readonly string[]): Promise<Outcome> {
  const parsed = OptionChangesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === "unrecognized_keys" ? issue.keys[0] : issue.path[0];
    const field = typeof key === "string" ? key : "options";
    const message = issue.code === "unrecognized_keys" ? l10n.t("{0} is not a setting of this section", settingOf(field)) : settingProblem(issue, settingOf(field));
    return { ok: false, field, message };
  }
  const mode = parsed.data.mode;
  if (mode !== undefined && !modes.includes(mode)) {
    return { ok: false, field: "mode", message: l10n.t('kiln.mode: there is no mode "{0}" (use {1})', mode, modes.join(", ")) };
  }
  const changes = Object.entries(parsed.data) as [OptionField, unknown][];
  if (changes.length === 0) return { ok: false, field: "options", message: l10n.t("Nothing to change.") };
  const config = kilnConfiguration();
  for (const [field, value] of changes) {
    const key = OPTION_FIELDS[field].key;
    await config.update(key, value, targetOf(config, key));
  }
  return { ok: true, message: l10n.t("Saved {0}.", changes.map(([field]) => settingOf(field)).join(", ")) };
}
