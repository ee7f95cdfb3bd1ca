import * as vscode from "vscode";
import { DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS, isApproveWord, type ApproveWord } from "../../../core/approval/settings";
import { APPROVE_SETTING, AutoApproveChangesSchema, type ApproveField, type AutoApproveView } from "../../../shared/protocol/settings";

type Outcome = { ok: boolean; message: string; field?: string };

const FIELDS = Object.keys(APPROVE_SETTING) as ApproveField[];
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isLimit = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** Whether a configuration change touches one of the auto-approve settings. */
export function affectsAutoApprove(event: vscode.ConfigurationChangeEvent): boolean {
  return FIELDS.some((field) => event.affectsConfiguration(`kiln.${APPROVE_SETTING[field]}`));
}

/**
 * Where a setting's value lives: a workspace value hides the user's, so an edit goes there. Read
 * without a resource, as the agent reads these settings (autoApproveSettings.ts).
 */
export function targetOf(config: vscode.WorkspaceConfiguration, key: string): vscode.ConfigurationTarget {
  return config.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/** The current values, with the same defaults autoApproveSettings.ts falls back to for a missing or bad value. */
export function readApproveView(): AutoApproveView {
  const config = vscode.workspace.getConfiguration("kiln");
  const get = <T>(field: ApproveField, fallback: T, valid: (v: unknown) => v is T): T => {
    const value = config.get<unknown>(APPROVE_SETTING[field]);
    return valid(value) ? value : fallback;
  };
  return {
    words: get<ApproveWord[]>("words", ["read"], (v): v is ApproveWord[] => isStrings(v) && v.every(isApproveWord)),
    enabled: get("enabled", true, (v): v is boolean => typeof v === "boolean"),
    allowed: get("allowed", [...DEFAULT_ALLOWED_COMMANDS], isStrings),
    denied: get("denied", [...DEFAULT_DENIED_COMMANDS], isStrings),
    refuseDenied: get("refuseDenied", false, (v): v is boolean => typeof v === "boolean"),
    maxRequests: Math.floor(get("maxRequests", 0, isLimit)),
    maxCost: get("maxCost", 0, isLimit),
    workspaceFields: FIELDS.filter((field) => targetOf(config, APPROVE_SETTING[field]) !== vscode.ConfigurationTarget.Global),
  };
}

/**
 * Checks every change first (a bad one refuses them all, naming its field and setting), then writes
 * each to its kiln.* setting where that setting is set.
 */
export async function applyApproveChanges(raw: Record<string, unknown>): Promise<Outcome> {
  const parsed = AutoApproveChangesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === "unrecognized_keys" ? issue.keys[0] : issue.path[0];
    const field = typeof key === "string" ? key : "autoApprove";
    const setting = field in APPROVE_SETTING ? `kiln.${APPROVE_SETTING[field as ApproveField]}` : `"${field}"`;
    const message = issue.code === "unrecognized_keys" ? `${setting} is not an auto-approve setting` : `${setting} ${issue.message}`;
    return { ok: false, field, message };
  }
  const changes = Object.entries(parsed.data) as [ApproveField, unknown][];
  if (changes.length === 0) return { ok: false, field: "autoApprove", message: "nothing to change" };
  const config = vscode.workspace.getConfiguration("kiln");
  for (const [field, value] of changes) {
    const key = APPROVE_SETTING[field];
    await config.update(key, value, targetOf(config, key));
  }
  const names = changes.map(([field]) => `kiln.${APPROVE_SETTING[field]}`).join(", ");
  return { ok: true, message: `Saved ${names}.` };
}
