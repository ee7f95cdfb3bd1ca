import * as l10n from "@vscode/l10n";
import { readdirSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import * as vscode from "vscode";
import type { HistoryStore } from "../../../core/history/HistoryStore";
import { applyImport } from "../../../core/import/applyImport";
import { readSource } from "../../../core/import/readSource";
import { findStorage, kiloConfigDir, SOURCE_KINDS, SOURCES, type SourceKind } from "../../../core/import/sources";
import type { Outcome } from "../../../core/import/types";
import type { Logger } from "../../../core/ports";
import { NodeFileSystem } from "../../../platform/node/nodeFileSystem";
import type { ImportPartView, ImportSourceView, ImportSummaryView } from "../../../shared/protocol/settings";
import { GLOBAL_MCP_FILE } from "../mcp/mcpSetup";
import { GLOBAL_MODES_FILE } from "./modeFiles";
import { GLOBAL_RULES_FOLDER } from "./ruleFiles";

/**
 * Importing from Kilo, Roo, Zoo and Cline in the editor: their data sits beside Kiln's own in the
 * editor's global storage (`…/User/globalStorage/<extension id>`), so that is where it is looked
 * for first; a local VS Code's folders (src/core/import/sources.ts) next. What comes over goes to
 * Kiln's global storage: the modes file, the rules folder, the global MCP file and the history.
 */

const SKIPPED_SHOWN = 20;
/** globalState: the sources the first-run offer has already named, so it is made once per source. */
export const IMPORT_OFFERED_KEY = "kiln.import.offered";

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The source's folder beside Kiln's storage, matched regardless of case as the editor names it. */
function besideKiln(storage: vscode.Uri, kind: SourceKind): string | undefined {
  if (storage.scheme !== "file") return undefined;
  const parent = dirname(storage.fsPath);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return undefined;
  }
  for (const id of SOURCES[kind].extensionIds) {
    const name = names.find((n) => n.toLowerCase() === id.toLowerCase());
    if (name && isFolder(join(parent, name))) return join(parent, name);
  }
  return undefined;
}

/** The agents whose data is on this machine, each with the folder it was found in. */
export function detectImportSources(storage: vscode.Uri): ImportSourceView[] {
  return SOURCE_KINDS.flatMap((kind) => {
    const path = besideKiln(storage, kind) ?? findStorage(kind, process.env);
    return path ? [{ kind, label: SOURCES[kind].label, path }] : [];
  });
}

/** The counts, and what was left out named inside the source's folder (the page shows the folder once, above). */
function partOf(outcome: Outcome, sourceDir: string): ImportPartView {
  const inside = (text: string) => text.split(`${sourceDir}${sep}`).join("");
  return {
    imported: outcome.imported.length,
    alreadyThere: outcome.alreadyThere.length,
    skipped: outcome.skipped.slice(0, SKIPPED_SHOWN).map((s) => ({ name: inside(s.name), reason: inside(s.reason) })),
    moreSkipped: Math.max(0, outcome.skipped.length - SKIPPED_SHOWN),
  };
}

/**
 * Reads the source and brings it over (or, with dryRun, says what would come over). Only a source
 * detected here can be named: the page cannot point the import at any folder.
 */
export async function importFromAgent(storage: vscode.Uri, history: HistoryStore, kind: SourceKind, dryRun: boolean, logger: Logger): Promise<ImportSummaryView> {
  const source = detectImportSources(storage).find((s) => s.kind === kind);
  if (!source) throw new Error(l10n.t("No {0} data was found on this machine.", SOURCES[kind].label));
  const files = new NodeFileSystem();
  // The open folder's own MCP file from that agent (Roo's .roo/mcp.json) comes into its .kilocode/mcp.json.
  const folder = vscode.workspace.workspaceFolders?.[0];
  const workspace = folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined;
  const plan = await readSource(kind, source.path, {
    ...(workspace && { workspace }),
    home: process.env.HOME || process.env.USERPROFILE || "",
    kiloConfigDir: kiloConfigDir(process.env, process.platform),
    // The editor's global rules live in its storage, not ~/.kilocode/rules: Kilo's are copied there.
    kiloRules: true,
  });
  const result = await applyImport(
    plan,
    {
      modesFile: vscode.Uri.joinPath(storage, GLOBAL_MODES_FILE).fsPath,
      rulesDir: vscode.Uri.joinPath(storage, GLOBAL_RULES_FOLDER).fsPath,
      mcpFile: vscode.Uri.joinPath(storage, GLOBAL_MCP_FILE).fsPath,
      history,
      files,
      ...(workspace && { workspace }),
    },
    { dryRun },
  );
  if (!dryRun)
    logger.info(
      `import from ${source.label} (${source.path}): ${JSON.stringify({ modes: result.modes.imported, rules: result.rules.imported, mcp: result.mcp.imported, tasks: result.tasks.imported.length })}`,
    );
  for (const part of [result.modes, result.rules, result.mcp, result.tasks]) for (const skipped of part.skipped) logger.warn(`import from ${source.label}: ${skipped.name}: ${skipped.reason}`);
  return {
    kind,
    label: source.label,
    dryRun,
    modes: partOf(result.modes, source.path),
    rules: partOf(result.rules, source.path),
    mcp: partOf(result.mcp, source.path),
    tasks: partOf(result.tasks, source.path),
    ...(result.projectMcp && { projectMcp: partOf(result.projectMcp, source.path) }),
    notes: result.notes,
  };
}

/**
 * The first-run offer: once per source found, a notification names what was found and opens the
 * settings page's import section. Nothing is read from the sources until the user asks.
 */
export async function offerImport(storage: vscode.Uri, state: vscode.Memento, openImport: () => unknown): Promise<string | undefined> {
  const offered = new Set(state.get<string[]>(IMPORT_OFFERED_KEY, []));
  const fresh = detectImportSources(storage).filter((s) => !offered.has(s.kind));
  if (fresh.length === 0) return undefined;
  await state.update(IMPORT_OFFERED_KEY, [...offered, ...fresh.map((s) => s.kind)]);
  const names = fresh.map((s) => s.label).join(", ");
  const message = l10n.t("Kiln found {0} on this machine. Bring over its modes, rules, MCP servers and task history?", names);
  const review = l10n.t("Review import");
  void vscode.window.showInformationMessage(message, review, l10n.t("Not now")).then((answer) => answer === review && openImport());
  return message;
}
