import * as l10n from "@vscode/l10n";
import { randomBytes } from "node:crypto";
import { link, mkdir, rm, writeFile, rename, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import { discoverRules, type RulesLocation } from "../../../core/rules/loadRules";
import { createRulesSource } from "../../../core/rules/rulesPrompt";
import { RULES_FOLDER, ruleFileName } from "../../../shared/ruleName";
import type { RulesView } from "../../../shared/protocol/settings";
import { targetOf } from "./autoApproveEdits";
import { affectsSettings, KILN, kilnConfiguration, readSetting } from "./kilnSettings";

type Outcome = { ok: boolean; message: string; field?: string };

/** The global rules folder in the extension's global storage; `rules-<mode>/` sit beside it. */
export const GLOBAL_RULES_FOLDER = "rules";

export function folderPath(folder: vscode.WorkspaceFolder): string {
  return folder.uri.scheme === "file" ? folder.uri.fsPath : folder.uri.path;
}

/** The global folder and the first workspace folder, where a new task looks for rules. */
export function rulesLocation(storage: vscode.Uri): RulesLocation {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return { globalDir: vscode.Uri.joinPath(storage, GLOBAL_RULES_FOLDER).fsPath, ...(folder ? { workspace: folderPath(folder) } : {}) };
}

/** kiln.rules.disabled as the agent reads it: a list of rule ids; anything else counts as none disabled. */
export function readDisabledRules(logger?: Logger): string[] {
  return readSetting(KILN.rules.disabled, logger);
}

export function affectsRules(event: vscode.ConfigurationChangeEvent): boolean {
  return affectsSettings(event, [KILN.rules.disabled]);
}

/** What a task's toolbox reads for each system prompt; problems go to the log once each. */
export function workspaceRules(storage: vscode.Uri, cwd: string, logger: Logger) {
  return createRulesSource({
    where: { ...rulesLocation(storage), workspace: cwd },
    disabled: () => readDisabledRules(logger),
    report: (problem) => logger.warn(problem),
  });
}

/** Every rule file, for any mode, with whether it is on: the settings panel's list. */
export function readRulesView(storage: vscode.Uri): { view: RulesView; errors: string[] } {
  const where = rulesLocation(storage);
  const found = discoverRules(where);
  const disabled = new Set(readDisabledRules());
  return {
    view: {
      files: found.files.map((f) => ({ id: f.id, scope: f.scope, ...(f.mode ? { mode: f.mode } : {}), path: f.display, size: f.size, enabled: !disabled.has(f.id) })),
      globalDir: where.globalDir ?? "",
    },
    errors: found.errors,
  };
}

/** Turns a rule on or off by editing kiln.rules.disabled where it is set (workspace or user). */
export async function setRuleEnabled(storage: vscode.Uri, id: string, enabled: boolean): Promise<Outcome> {
  const current = readDisabledRules();
  if (!enabled && !discoverRules(rulesLocation(storage)).files.some((f) => f.id === id)) {
    return { ok: false, message: l10n.t('there is no rule file "{0}"; it may have been moved or deleted', id) };
  }
  return toggleListed(KILN.rules.disabled.key, current, id, enabled);
}

/**
 * Adds `id` to a list of turned-off ids (kiln.rules.disabled, kiln.skills.disabled) or takes it out,
 * where the setting is set (workspace or user). Turning one on removes its id even when its file is
 * gone, so stale entries can be cleared.
 */
export async function toggleListed(key: string, current: readonly string[], id: string, enabled: boolean): Promise<Outcome> {
  const config = kilnConfiguration();
  const next = enabled ? current.filter((d) => d !== id) : [...new Set([...current, id])];
  if (next.length === current.length && next.every((d, i) => d === current[i])) return { ok: true, message: enabled ? l10n.t("{0} is already on.", id) : l10n.t("{0} is already off.", id) };
  await config.update(key, next.length ? next : undefined, targetOf(config, key));
  return { ok: true, message: enabled ? l10n.t("Turned on {0}.", id) : l10n.t("Turned off {0}.", id) };
}

/** Opens a listed rule file; only ids the loader found can be opened, so the page cannot name any path. */
export async function openRule(storage: vscode.Uri, id: string): Promise<void> {
  const file = discoverRules(rulesLocation(storage)).files.find((f) => f.id === id);
  if (!file) throw new Error(`there is no rule file "${id}"; it may have been moved or deleted`);
  await vscode.window.showTextDocument(vscode.Uri.file(file.path), { preview: false });
}

const stub = (name: string) => `# ${name}

<!-- A rule for Kiln: new tasks in this project follow it (it is added to the system prompt).
     Write conventions and preferences as short, direct instructions; turn it off in Kiln Settings. -->

- 
`;

/**
 * Writes beside the target, then links it into place: the file appears whole or not at all, and a
 * file made meanwhile is never replaced (link fails with EEXIST, unlike rename).
 */
async function createAtomically(path: string, text: string): Promise<"created" | "exists"> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, "utf8");
    try {
      await link(temp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return "exists";
      // A file system without hard links: check, then rename (a narrow race, but still whole-or-nothing).
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw err;
      if (
        await stat(path).then(
          () => true,
          () => false,
        )
      )
        return "exists";
      await rename(temp, path);
    }
    return "created";
  } finally {
    await rm(temp, { force: true });
  }
}

/** "New rule file": `.kilocode/rules/<name>.md` with a stub, opened in an editor. */
export async function createRuleFile(name: string): Promise<Outcome> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== "file") return { ok: false, field: "ruleName", message: l10n.t("Open a folder first: project rules live in its {0}/", RULES_FOLDER) };
  const file = ruleFileName(name);
  if (!file.ok) return { ok: false, field: "ruleName", message: file.error };
  const path = join(folder.uri.fsPath, RULES_FOLDER, file.file);
  let result;
  try {
    result = await createAtomically(path, stub(file.file.replace(/\.md$/, "")));
  } catch (err) {
    return { ok: false, field: "ruleName", message: l10n.t("{0}: could not be written ({1})", path, (err as NodeJS.ErrnoException).code ?? String(err)) };
  }
  if (result === "exists") return { ok: false, field: "ruleName", message: l10n.t("{0} already exists; choose another name or open it from the list", `${RULES_FOLDER}/${file.file}`) };
  await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
  return { ok: true, message: l10n.t("Created {0}.", `${RULES_FOLDER}/${file.file}`) };
}

/** Rule files added, changed or removed (project or global) refresh an open settings panel. */
export function watchRuleFiles(storage: vscode.Uri, onChange: () => void): vscode.Disposable {
  const watchers: vscode.FileSystemWatcher[] = [];
  const folder = vscode.workspace.workspaceFolders?.[0];
  const patterns: vscode.RelativePattern[] = [new vscode.RelativePattern(storage, `${GLOBAL_RULES_FOLDER}*/**`)];
  if (folder) {
    patterns.push(new vscode.RelativePattern(folder, "{.kilocode,.roo}/rules*/**"), new vscode.RelativePattern(folder, "{AGENTS.md,.clinerules*,.kilocoderules*,.roorules*}"));
  }
  for (const pattern of patterns) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    watcher.onDidCreate(onChange);
    watcher.onDidChange(onChange);
    watcher.onDidDelete(onChange);
    watchers.push(watcher);
  }
  return { dispose: () => watchers.forEach((w) => w.dispose()) };
}
