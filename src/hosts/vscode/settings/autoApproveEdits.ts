import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { AutoApproveChangesSchema, settingProblem, type ApproveField, type AutoApproveView } from "../../../shared/protocol/settings";
import { affectsSettings, APPROVE_FIELDS, fullKey, kilnConfiguration, readSection } from "./kilnSettings";

type Outcome = { ok: boolean; message: string; field?: string };

const FIELDS = Object.keys(APPROVE_FIELDS) as ApproveField[];

/** Whether a configuration change touches one of the auto-approve settings. */
export function affectsAutoApprove(event: vscode.ConfigurationChangeEvent): boolean {
  return affectsSettings(event, Object.values(APPROVE_FIELDS));
}

/**
 * Where a setting's value lives: a workspace value hides the user's, so an edit goes there. Read
 * without a resource, as the agent reads these settings (autoApproveSettings.ts).
 */
export function targetOf(config: vscode.WorkspaceConfiguration, key: string): vscode.ConfigurationTarget {
  return config.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/**
 * The current values as the agent reads them (autoApproveSettings.ts: the same fields and
 * defaults); not logged, the agent's reads report a bad value.
 */
export function readApproveView(): AutoApproveView {
  const config = kilnConfiguration();
  return {
    ...readSection(APPROVE_FIELDS),
    workspaceFields: FIELDS.filter((field) => targetOf(config, APPROVE_FIELDS[field].key) !== vscode.ConfigurationTarget.Global),
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
    const setting = field in APPROVE_FIELDS ? fullKey(APPROVE_FIELDS[field as ApproveField]) : `"${field}"`;
    const message = issue.code === "unrecognized_keys" ? l10n.t("{0} is not an auto-approve setting", setting) : settingProblem(issue, setting);
    return { ok: false, field, message };
  }
  const changes = Object.entries(parsed.data) as [ApproveField, unknown][];
  if (changes.length === 0) return { ok: false, field: "autoApprove", message: l10n.t("Nothing to change.") };
  const config = kilnConfiguration();
  for (const [field, value] of changes) {
    const key = APPROVE_FIELDS[field].key;
    await config.update(key, value, targetOf(config, key));
  }
  const names = changes.map(([field]) => fullKey(APPROVE_FIELDS[field])).join(", ");
  return { ok: true, message: l10n.t("Saved {0}.", names) };
}
