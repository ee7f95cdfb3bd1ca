import * as vscode from "vscode";
import { settingsFromWords, type AutoApproveSettings } from "../../../core/approval/settings";
import type { Logger } from "../../../core/ports";
import { KILN, kilnConfiguration, readSection, readSetting } from "./kilnSettings";

const ENABLED = KILN.autoApprove.enabled.key;

/** The auto-approve settings, read per call so a change (or the toggle) applies to a running task. */
export function readAutoApprove(logger: Logger): AutoApproveSettings {
  const { words, ...options } = readSection(KILN.autoApprove, logger);
  return settingsFromWords(words, options);
}

/**
 * Flips the global switch where it is set (a workspace value would hide a change to the user
 * value), and says in the status bar what it is now.
 */
export async function toggleAutoApprove(): Promise<boolean> {
  const config = kilnConfiguration();
  const inspected = config.inspect<boolean>(ENABLED);
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  // Flips the value the agent goes by: a wrong value reads as on (its default), so it turns off.
  const next = !readSetting(KILN.autoApprove.enabled);
  await config.update(ENABLED, next, target);
  vscode.window.setStatusBarMessage(next ? "$(check) Kiln: auto-approve on" : "$(circle-slash) Kiln: auto-approve off, every call asks", 4000);
  return next;
}

export function registerAutoApproveToggle(): vscode.Disposable {
  return vscode.commands.registerCommand("kiln.toggleAutoApprove", toggleAutoApprove);
}
