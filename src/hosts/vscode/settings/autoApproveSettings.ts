import * as vscode from "vscode";
import { DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS, isApproveWord, settingsFromWords, type AutoApproveSettings } from "../../../core/approval/settings";
import type { Logger } from "../../../core/ports";

/*
 * The keys are flat (kiln.autoApproveEnabled, not kiln.autoApprove.enabled): kiln.autoApprove is an
 * array, and VS Code's settings tree cannot hold keys under an array, so nested keys would clash with it.
 */
const ENABLED = "autoApproveEnabled";

/** Settings are user input: a wrong value is logged and replaced by the default, never fatal. */
function read<T>(logger: Logger, key: string, fallback: T, valid: (value: unknown) => value is T): T {
  const value = vscode.workspace.getConfiguration("kiln").get<unknown>(key, fallback);
  if (valid(value)) return value;
  logger.warn(`setting kiln.${key} is ${JSON.stringify(value)}, which is not valid; using ${JSON.stringify(fallback)}`);
  return fallback;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isLimit = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** The auto-approve settings, read per call so a change (or the toggle) applies to a running task. */
export function readAutoApprove(logger: Logger): AutoApproveSettings {
  const words = read(logger, "autoApprove", ["read"], (v): v is string[] => isStrings(v) && v.every(isApproveWord));
  return settingsFromWords(words, {
    enabled: read(logger, ENABLED, true, isBoolean),
    allowed: read(logger, "autoApproveAllowedCommands", [...DEFAULT_ALLOWED_COMMANDS], isStrings),
    denied: read(logger, "autoApproveDeniedCommands", [...DEFAULT_DENIED_COMMANDS], isStrings),
    refuseDenied: read(logger, "autoApproveRefuseDeniedCommands", false, isBoolean),
    maxRequests: Math.floor(read(logger, "autoApproveMaxRequests", 0, isLimit)),
    maxCost: read(logger, "autoApproveMaxCost", 0, isLimit),
  });
}

/**
 * Flips the global switch where it is set (a workspace value would hide a change to the user
 * value), and says in the status bar what it is now.
 */
export async function toggleAutoApprove(): Promise<boolean> {
  const config = vscode.workspace.getConfiguration("kiln");
  const inspected = config.inspect<boolean>(ENABLED);
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  const next = !config.get<boolean>(ENABLED, true);
  await config.update(ENABLED, next, target);
  vscode.window.setStatusBarMessage(next ? "$(check) Kiln: auto-approve on" : "$(circle-slash) Kiln: auto-approve off, every call asks", 4000);
  return next;
}

export function registerAutoApproveToggle(): vscode.Disposable {
  return vscode.commands.registerCommand("kiln.toggleAutoApprove", toggleAutoApprove);
}
