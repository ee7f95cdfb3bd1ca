import * as vscode from "vscode";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS, withinBounds } from "../../../shared/limits";
import { MAX_REQUESTS_LIMIT, MAX_RETRIES, OPTION_DEFAULTS, OPTION_SETTING, OptionChangesSchema, type OptionField, type OptionsView } from "../../../shared/protocol/settings";
import { targetOf } from "./autoApproveEdits";

type Outcome = { ok: boolean; message: string; field?: string };

const FIELDS = Object.keys(OPTION_SETTING) as OptionField[];
const isWhole = (min: number, max: number) => (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** Whether a configuration change touches one of the "Limits and tools" settings. */
export function affectsOptions(event: vscode.ConfigurationChangeEvent): boolean {
  return FIELDS.some((field) => event.affectsConfiguration(`kiln.${OPTION_SETTING[field]}`));
}

/**
 * The current values, with the checks and defaults the agent applies (agentSetup.ts, extension.ts),
 * so the panel shows what a task will use. `modes`: the slugs a new task may start in.
 */
export function readOptionsView(modes: readonly string[]): OptionsView {
  const config = vscode.workspace.getConfiguration("kiln");
  const get = <T>(field: OptionField, valid: (v: unknown) => v is T): T => {
    const value = config.get<unknown>(OPTION_SETTING[field]);
    return valid(value) ? value : (OPTION_DEFAULTS[field] as T);
  };
  return {
    mode: get("mode", (v): v is string => typeof v === "string" && modes.includes(v)),
    maxRequests: get("maxRequests", isWhole(1, MAX_REQUESTS_LIMIT)),
    retries: get("retries", isWhole(0, MAX_RETRIES)),
    requireTodosDone: get("requireTodosDone", (v): v is boolean => typeof v === "boolean"),
    readFileMaxLines: get("readFileMaxLines", (v): v is number => withinBounds(v, READ_FILE_MAX_LINES)),
    toolResultMaxChars: get("toolResultMaxChars", (v): v is number => withinBounds(v, TOOL_RESULT_MAX_CHARS)),
    outputMaxChars: get("outputMaxChars", (v): v is number => withinBounds(v, OUTPUT_MAX_CHARS)),
    fuzzyThreshold: get("fuzzyThreshold", (v): v is number => typeof v === "number" && v >= 0.8 && v <= 1),
    browserPath: get("browserPath", (v): v is string => typeof v === "string"),
    workspaceFields: FIELDS.filter((field) => targetOf(config, OPTION_SETTING[field]) !== vscode.ConfigurationTarget.Global),
  };
}

const settingOf = (field: string) => (field in OPTION_SETTING ? `kiln.${OPTION_SETTING[field as OptionField]}` : `"${field}"`);

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
    const message = issue.code === "unrecognized_keys" ? `${settingOf(field)} is not a setting of this section` : `${settingOf(field)} ${issue.message}`;
    return { ok: false, field, message };
  }
  const mode = parsed.data.mode;
  if (mode !== undefined && !modes.includes(mode)) {
    return { ok: false, field: "mode", message: `kiln.mode: there is no mode "${mode}" (use ${modes.join(", ")})` };
  }
  const changes = Object.entries(parsed.data) as [OptionField, unknown][];
  if (changes.length === 0) return { ok: false, field: "options", message: "nothing to change" };
  const config = vscode.workspace.getConfiguration("kiln");
  for (const [field, value] of changes) {
    const key = OPTION_SETTING[field];
    await config.update(key, value, targetOf(config, key));
  }
  return { ok: true, message: `Saved ${changes.map(([field]) => settingOf(field)).join(", ")}.` };
}
