import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import { createValidator, fullKey, validateSection, type Check, type Section, type SectionValues, type Setting } from "./kilnSettingsSchema";

export { APPROVE_FIELDS, fullKey, KILN, OPTION_FIELDS, type SectionValues, type Setting } from "./kilnSettingsSchema";

/*
 * The one place the extension reads `kiln.*` settings (the schemas are in kilnSettingsSchema.ts).
 * Nothing is cached: each read asks VS Code, so a change applies at the next use.
 */

const validate = createValidator();

/** Without a resource, as every Kiln setting is read: a workspace value hides the user's. */
function configuration(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration("kiln");
}

/**
 * The setting's value, or its default when missing or wrong (logged once with `logger`; the
 * settings panel reads without one). `check`: a further condition only the caller can judge, such
 * as the mode existing; it returns why the value is refused.
 */
export function readSetting<T>(setting: Setting<T>, logger?: Logger, check?: Check<T>): T {
  return validate(setting, configuration().get<unknown>(setting.key), logger, check);
}

/** Every field of a section, each checked on its own. */
export function readSection<S extends Section>(section: S, logger?: Logger): SectionValues<S> {
  const config = configuration();
  return validateSection(section, (key) => config.get<unknown>(key), validate, logger);
}

/** The value as set, for a module that checks it in depth itself (profiles, model overrides). */
export function rawSetting(setting: Setting<unknown>): unknown {
  return configuration().get<unknown>(setting.key, setting.fallback);
}

/** Whether a configuration change touches any of these settings. */
export function affectsSettings(event: vscode.ConfigurationChangeEvent, settings: readonly Setting<unknown>[]): boolean {
  return settings.some((setting) => event.affectsConfiguration(fullKey(setting)));
}

/** The `kiln` configuration, for writes (update) and for where a value is set (inspect). */
export function kilnConfiguration(): vscode.WorkspaceConfiguration {
  return configuration();
}
