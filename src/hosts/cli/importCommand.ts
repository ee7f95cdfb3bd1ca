import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { HistoryStore } from "../../core/history/HistoryStore";
import { applyImport } from "../../core/import/applyImport";
import { readSource } from "../../core/import/readSource";
import { defaultStoragePaths, findStorage, kiloConfigDir, SOURCES } from "../../core/import/sources";
import { parseSettingsExport } from "../../core/import/providerProfiles";
import type { ImportResult, Outcome, ProfilesOutcome, ProfilesPlan } from "../../core/import/types";
import { plural } from "../../shared/plural";
import { NodeFileSystem } from "../../platform/node/nodeFileSystem";
import { homeOf, type CliArgs } from "./args";
import { configPlaces } from "./configFile";
import { applyProfiles, cliProfileName, keyAdvice } from "./importProfiles";

/**
 * `kiln import --from kilo|roo|zoo|cline`: brings another agent's global modes, rules, MCP servers
 * and task history into the files `kiln run` reads (src/core/import does the work), and with
 * --settings FILE the provider profiles of its settings export into the config file. The sources
 * are only read. With --settings and no storage folder found, only the profiles come over. With
 * --dry-run nothing is written and the summary says what would come over; --json prints the whole
 * result as one object.
 */
export async function runImportCommand(args: CliArgs, out: (text: string) => void, err: (text: string) => void, env: Record<string, string | undefined> = process.env): Promise<number> {
  const kind = args.importFrom!;
  const source = SOURCES[kind];
  const dryRun = args.dryRun === true;
  const files = new NodeFileSystem();

  // The export is read first: a bad one stops the import before anything is written.
  let profilesPlan: ProfilesPlan | undefined;
  if (args.importSettings !== undefined) {
    const settingsFile = resolve(args.importSettings);
    let text: string;
    try {
      text = await readFile(settingsFile, "utf8");
    } catch (failure) {
      const code = (failure as NodeJS.ErrnoException).code;
      err(
        `kiln: --settings ${settingsFile}: ${code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "is a folder, not a settings export" : `cannot be read (${code ?? String(failure)})`}\n`,
      );
      return 1;
    }
    const read = parseSettingsExport(text, settingsFile);
    if (!read.ok) {
      err(`kiln: --settings: ${read.error}\n`);
      return 1;
    }
    profilesPlan = read.plan;
  }

  let storageDir: string | undefined;
  const notes: string[] = [];
  if (args.importPath !== undefined) {
    storageDir = resolve(args.importPath);
    if (!isFolder(storageDir)) {
      err(`kiln: --path ${storageDir}: there is no such folder\n`);
      return 1;
    }
  } else {
    storageDir = findStorage(kind, env);
    const looked = defaultStoragePaths(kind, env, process.platform).join(", ");
    if (!storageDir && !profilesPlan) {
      err(`kiln: no ${source.label} data found (looked in ${looked}); give its global storage folder with --path DIR\n`);
      return 1;
    }
    if (!storageDir) notes.push(`no ${source.label} data found (looked in ${looked}), so only the profiles of --settings are imported`);
  }
  const home = homeOf(env);
  const workspace = args.workspaceGiven ? resolve(args.workspace) : undefined;
  try {
    let result: ImportResult | undefined;
    if (storageDir !== undefined) {
      const plan = await readSource(kind, storageDir, { home, kiloConfigDir: kiloConfigDir(env, process.platform), ...(workspace && { workspace }) });
      result = await applyImport(
        plan,
        {
          modesFile: args.globalModesFile,
          rulesDir: resolve(args.globalRules ?? join(home, ".kilocode", "rules")),
          // Where `kiln run` reads global servers from: --mcp-config when given, else the default file.
          mcpFile: resolve(args.mcpConfig ?? args.globalMcpFile),
          history: new HistoryStore(args.historyDir!, files),
          ...(workspace && { workspace, onlyWorkspaceTasks: true }),
          files,
        },
        { dryRun },
      );
    }
    let profiles: ProfilesOutcome | undefined;
    if (profilesPlan) {
      profiles = await applyProfiles(profilesPlan, configPlaces(args.workspace, env).user, files, { dryRun });
      notes.push(...profilesPlan.notes.map((n) => `--settings: ${n}`));
      const pins = Object.keys(profilesPlan.modeProfiles).length;
      if (pins > 0) notes.push(`--settings: the CLI pins no profile to a mode, so ${plural(pins, "mode pin")} ${pins === 1 ? "was" : "were"} left out; pick a profile with --profile NAME`);
    }
    const whole: CombinedResult = {
      ...(result ?? { storageDir: null }),
      source: kind,
      dryRun,
      ...(profiles && { profiles }),
      notes: [...(result?.notes ?? []), ...notes],
    };
    out(args.json ? `${JSON.stringify(whole)}\n` : describeResult(whole, source.label, args.historyDir!, profilesPlan));
    return 0;
  } catch (failure) {
    err(`kiln: import from ${source.label} failed: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    return 1;
  }
}

/** The storage's part when a storage folder was read (storageDir null when not), the profiles' when --settings was given. */
export type CombinedResult = { source: ImportResult["source"]; dryRun: boolean; notes: string[]; profiles?: ProfilesOutcome } & (ImportResult | { storageDir: null });

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** "2 imported, 1 already there, 1 skipped" (a dry run: "2 to import…"). */
function counts(outcome: Outcome, dryRun: boolean): string {
  return `${outcome.imported.length} ${dryRun ? "to import" : "imported"}, ${outcome.alreadyThere.length} already there, ${outcome.skipped.length} skipped`;
}

/** One section: its counts, then each name (+ imported, = already there, - skipped and why). */
function section(title: string, where: string, outcome: Outcome, dryRun: boolean, listNames: boolean): string {
  const lines = [`${title} (into ${where}): ${counts(outcome, dryRun)}`];
  if (listNames) {
    for (const name of outcome.imported) lines.push(`  + ${name}`);
    for (const name of outcome.alreadyThere) lines.push(`  = ${name}`);
  }
  for (const { name, reason } of outcome.skipped) lines.push(`  - ${name}: ${reason}`);
  return lines.join("\n");
}

/** The profiles' section: the usual one, then the names given another name and where each one's key is read from. */
function profilesSection(outcome: ProfilesOutcome, dryRun: boolean, plan: ProfilesPlan | undefined): string {
  const lines = [section("Provider profiles", outcome.file, outcome, dryRun, true)];
  for (const [from, to] of Object.entries(outcome.renamed)) lines.push(`  (${JSON.stringify(from)} is named ${to}: a profile's name is letters, digits, _, - and .)`);
  if (outcome.needKey.length > 0) {
    lines.push("  No key was copied. Give each its key before kiln run --profile NAME:");
    const byName = new Map((plan?.profiles ?? []).map((p) => [cliProfileName(p.name), p]));
    for (const name of outcome.needKey) {
      const profile = byName.get(name);
      lines.push(`    ${name}: ${profile ? keyAdvice(profile) : "the provider's key variable"}`);
    }
  }
  return lines.join("\n");
}

export function describeResult(result: CombinedResult, label: string, historyDir: string, profilesPlan?: ProfilesPlan): string {
  const { dryRun } = result;
  const from = result.storageDir !== null ? result.storageDir : (result.profiles?.settingsFile ?? "");
  const parts = [`Import from ${label} (${from})${dryRun ? ": dry run, nothing was written" : ""}`];
  if (result.storageDir !== null) {
    const tasks = section("Tasks", historyDir, result.tasks, dryRun, false);
    const elsewhere = result.tasks.otherWorkspace > 0 ? `\n  (${plural(result.tasks.otherWorkspace, "task")} of other workspaces left out)` : "";
    parts.push(
      section("Modes", result.modes.file, result.modes, dryRun, true),
      section("Rules", result.rules.folder, result.rules, dryRun, true),
      section("MCP servers", result.mcp.file, result.mcp, dryRun, true),
      ...(result.projectMcp ? [section("Project MCP servers", result.projectMcp.file, result.projectMcp, dryRun, true)] : []),
      `${tasks}${elsewhere}`,
    );
  }
  if (result.profiles) parts.push(profilesSection(result.profiles, dryRun, profilesPlan));
  if (result.notes.length > 0) parts.push(["Notes:", ...result.notes.map((n) => `  ${n}`)].join("\n"));
  return `${parts.join("\n")}\n`;
}
