import { dirname, join } from "node:path";
import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { PROJECT_MODES_FILE, readModesFile, ROO_MODES_FILE } from "../../../core/modes/customModes";
import { KILO_AGENTS_FOLDER, readKiloAgentsFolder } from "../../../core/modes/kiloAgents";
import { removeMode, upsertMode, type ModeInput } from "../../../core/modes/modeFileEdits";
import { BUILTIN_MODES, type Mode } from "../../../core/modes/modes";
import { builtinModeText, modeText } from "../../../core/modes/modeText";
import type { ModeForm, ModeView } from "../../../shared/protocol/settings";
import { readIfAny, serially, writeAtomically } from "./configFiles";
import { GLOBAL_MODES_FILE } from "./modeFiles";

type Outcome = { ok: boolean; message: string; field?: string };
export type ModeScope = "project" | "global";

/**
 * The file of a scope, as a path (the mode loader reads local files). In a project, a mode that
 * lives only in Roo's `.roomodes` is edited there, so a project shared with Roo users keeps one
 * source; every other project mode, new ones included, goes to `.kilocodemodes`.
 */
export function modesFilePath(storage: vscode.Uri, scope: ModeScope, slug?: string): string | undefined {
  if (scope === "global") return vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE).fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  const kilo = vscode.Uri.joinPath(folder.uri, PROJECT_MODES_FILE).fsPath;
  if (slug === undefined || readModesFile(kilo).modes.some((m) => m.slug === slug)) return kilo;
  const roo = vscode.Uri.joinPath(folder.uri, ROO_MODES_FILE).fsPath;
  return readModesFile(roo).modes.some((m) => m.slug === slug) ? roo : kilo;
}

export function modeView(mode: Mode, storage: vscode.Uri, pinnedProfile: string | undefined): ModeView {
  const scope = mode.source === undefined ? "built-in" : mode.source === modesFilePath(storage, "global") ? "global" : "project";
  return {
    slug: mode.slug,
    name: mode.name,
    label: modeText(mode).name,
    source: mode.source ?? "built-in",
    scope,
    overridesBuiltIn: scope !== "built-in" && BUILTIN_MODES.some((m) => m.slug === mode.slug),
    roleDefinition: mode.roleDefinition,
    ...(mode.whenToUse ? { whenToUse: mode.whenToUse } : {}),
    ...(mode.description ? { description: mode.description } : {}),
    ...(mode.customInstructions ? { customInstructions: mode.customInstructions } : {}),
    groups: mode.groups,
    ...(pinnedProfile ? { pinnedProfile } : {}),
  };
}

/**
 * The Kilo agent file (`.kilo/agents/<slug>.md`) a project mode comes from, when the file edits go
 * to (`modesPath`, in the workspace root) has no entry of that slug. Such a mode is never written
 * back to Markdown: its edits become a `.kilocodemodes` entry with the same slug, which overrides
 * the agent (loadModes reads `.kilocodemodes` last), and the agent file stays as Kilo users wrote it.
 * Kept that simple on purpose: deleting the entry brings the agent back; a renamed slug leaves both.
 */
function kiloAgentSource(modesPath: string, slug: string | undefined): string | undefined {
  if (slug === undefined || readModesFile(modesPath).modes.some((m) => m.slug === slug)) return undefined;
  return readKiloAgentsFolder(join(dirname(modesPath), KILO_AGENTS_FOLDER)).modes.find((m) => m.slug === slug)?.source;
}

export function saveMode(storage: vscode.Uri, scope: ModeScope, original: string | undefined, form: ModeForm): Promise<Outcome> {
  return serially(async () => {
    const path = modesFilePath(storage, scope, original);
    if (!path) return { ok: false, field: "scope", message: l10n.t("Open a folder first: {0} belongs to a project.", PROJECT_MODES_FILE) };
    // A Kilo agent's first edit adds its override rather than changing an entry the file does not have.
    const replacing = scope === "project" && kiloAgentSource(path, original) !== undefined ? undefined : original;
    const result = upsertMode(await readIfAny(path), path, replacing, form as ModeInput);
    if (!result.ok) return result;
    await writeAtomically(path, result.text);
    return { ok: true, message: l10n.t("Saved mode {0} ({1}) in {2}.", result.mode.name, result.mode.slug, path) };
  });
}

export function deleteMode(storage: vscode.Uri, scope: ModeScope, slug: string): Promise<Outcome> {
  return serially(async () => {
    const path = modesFilePath(storage, scope, slug);
    if (!path) return { ok: false, message: l10n.t("Open a folder first: {0} belongs to a project.", PROJECT_MODES_FILE) };
    const agentFile = scope === "project" ? kiloAgentSource(path, slug) : undefined;
    if (agentFile) return { ok: false, message: l10n.t("Mode {0} comes from the Kilo agent file {1}, which Kiln does not change: delete or move that file.", slug, agentFile) };
    const result = removeMode(await readIfAny(path), path, slug);
    if (!result.ok) return result;
    await writeAtomically(path, result.text);
    const builtIn = builtinModeText(slug);
    return { ok: true, message: builtIn ? l10n.t("Deleted mode {0} from {1}; the built-in {2} is back.", slug, path, builtIn.name) : l10n.t("Deleted mode {0} from {1}.", slug, path) };
  });
}

/** Watches the mode files (global, .kilocodemodes, .roomodes, Kilo's .kilo/agents/*.md), so a hand edit shows in an open panel. */
export function watchModeFiles(storage: vscode.Uri, onChange: () => void): vscode.Disposable {
  const watchers: vscode.FileSystemWatcher[] = [];
  const folder = vscode.workspace.workspaceFolders?.[0];
  // Glob paths use forward slashes whatever the platform.
  const kiloAgents = `${KILO_AGENTS_FOLDER.split("\\").join("/")}/*.md`;
  if (folder) watchers.push(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${PROJECT_MODES_FILE},${ROO_MODES_FILE},${kiloAgents}}`)));
  watchers.push(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(storage, GLOBAL_MODES_FILE)));
  for (const w of watchers) {
    w.onDidChange(onChange);
    w.onDidCreate(onChange);
    w.onDidDelete(onChange);
  }
  return vscode.Disposable.from(...watchers);
}
