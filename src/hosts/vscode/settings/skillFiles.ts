import * as l10n from "@vscode/l10n";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import { createSkillsSource, discoverSkills, SKILL_FILE, type SkillsLocation } from "../../../core/skills/skills";
import type { SkillsView } from "../../../shared/protocol/settings";
import { affectsSettings, KILN, readSetting } from "./kilnSettings";
import { folderPath, toggleListed } from "./ruleFiles";

type Outcome = { ok: boolean; message: string; field?: string };

/** The global skills folder in the extension's global storage, one folder per skill. */
export const GLOBAL_SKILLS_FOLDER = "skills";

/** The global folder and the first workspace folder, where a new task looks for skills. */
export function skillsLocation(storage: vscode.Uri): SkillsLocation {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return { globalDir: vscode.Uri.joinPath(storage, GLOBAL_SKILLS_FOLDER).fsPath, ...(folder ? { workspace: folderPath(folder) } : {}) };
}

/** kiln.skills.disabled as the agent reads it: a list of skill ids; anything else counts as none disabled. */
export function readDisabledSkills(logger?: Logger): string[] {
  return readSetting(KILN.skills.disabled, logger);
}

export function affectsSkills(event: vscode.ConfigurationChangeEvent): boolean {
  return affectsSettings(event, [KILN.skills.disabled]);
}

/** What a task's toolbox and the chat's / commands read: the enabled skills; problems go to the log once each. */
export function workspaceSkills(storage: vscode.Uri, cwd: string | undefined, logger: Logger) {
  return createSkillsSource({
    where: { ...skillsLocation(storage), ...(cwd ? { workspace: cwd } : {}) },
    disabled: () => readDisabledSkills(logger),
    report: (problem) => logger.warn(problem),
  });
}

/** Every skill with whether it is on, and the problems found: the settings panel's list. */
export function readSkillsView(storage: vscode.Uri): SkillsView {
  const where = skillsLocation(storage);
  const found = discoverSkills(where);
  const disabled = new Set(readDisabledSkills());
  return {
    skills: found.skills.map((s) => ({ id: s.id, name: s.name, description: s.description, scope: s.scope, path: s.display, enabled: !disabled.has(s.id) })),
    errors: found.errors,
    globalDir: where.globalDir ?? "",
  };
}

/** Turns a skill on or off by editing kiln.skills.disabled where it is set (workspace or user). */
export async function setSkillEnabled(storage: vscode.Uri, id: string, enabled: boolean): Promise<Outcome> {
  if (!enabled && !discoverSkills(skillsLocation(storage)).skills.some((s) => s.id === id)) {
    return { ok: false, message: l10n.t('there is no skill "{0}"; it may have been moved or deleted', id) };
  }
  return toggleListed(KILN.skills.disabled.key, readDisabledSkills(), id, enabled);
}

/** Opens a listed skill's SKILL.md; only ids the loader found can be opened, so the page cannot name any path. */
export async function openSkill(storage: vscode.Uri, id: string): Promise<void> {
  const skill = discoverSkills(skillsLocation(storage)).skills.find((s) => s.id === id);
  if (!skill) throw new Error(`there is no skill "${id}"; it may have been moved or deleted`);
  await vscode.window.showTextDocument(vscode.Uri.file(join(skill.folder, SKILL_FILE)), { preview: false });
}

/** SKILL.md files added, changed or removed (project or global) refresh an open settings panel. */
export function watchSkillFiles(storage: vscode.Uri, onChange: () => void): vscode.Disposable {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const patterns = [new vscode.RelativePattern(storage, `${GLOBAL_SKILLS_FOLDER}/**`)];
  if (folder) patterns.push(new vscode.RelativePattern(folder, "{.kilocode,.claude,.roo}/skills/**"));
  const watchers = patterns.map((pattern) => {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    watcher.onDidCreate(onChange);
    watcher.onDidChange(onChange);
    watcher.onDidDelete(onChange);
    return watcher;
  });
  return vscode.Disposable.from(...watchers);
}
