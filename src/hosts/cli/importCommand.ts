import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { HistoryStore } from "../../core/history/HistoryStore";
import { applyImport } from "../../core/import/applyImport";
import { readSource } from "../../core/import/readSource";
import { defaultStoragePaths, findStorage, SOURCES } from "../../core/import/sources";
import type { ImportResult, Outcome } from "../../core/import/types";
import { plural } from "../../shared/plural";
import { NodeFileSystem } from "../../platform/node/nodeFileSystem";
import { homeOf, type CliArgs } from "./args";

/**
 * `kiln import --from kilo|roo|zoo|cline`: brings another agent's global modes, rules, MCP servers
 * and task history into the files `kiln run` reads (src/core/import does the work). The source is
 * only read. With --dry-run nothing is written and the summary says what would come over; --json
 * prints the whole result as one object.
 */
export async function runImportCommand(args: CliArgs, out: (text: string) => void, err: (text: string) => void, env: Record<string, string | undefined> = process.env): Promise<number> {
  const kind = args.importFrom!;
  const source = SOURCES[kind];
  let storageDir: string;
  if (args.importPath !== undefined) {
    storageDir = resolve(args.importPath);
    if (!isFolder(storageDir)) {
      err(`kiln: --path ${storageDir}: there is no such folder\n`);
      return 1;
    }
  } else {
    const found = findStorage(kind, env);
    if (!found) {
      err(`kiln: no ${source.label} data found (looked in ${defaultStoragePaths(kind, env, process.platform).join(", ")}); give its global storage folder with --path DIR\n`);
      return 1;
    }
    storageDir = found;
  }
  const home = homeOf(env);
  const workspace = args.workspaceGiven ? resolve(args.workspace) : undefined;
  const files = new NodeFileSystem();
  try {
    const plan = await readSource(kind, storageDir, { home, ...(workspace && { workspace }) });
    const result = await applyImport(
      plan,
      {
        modesFile: args.globalModesFile,
        rulesDir: resolve(args.globalRules ?? join(home, ".kilocode", "rules")),
        // Where `kiln run` reads global servers from: --mcp-config when given, else the default file.
        mcpFile: resolve(args.mcpConfig ?? args.globalMcpFile),
        history: new HistoryStore(args.historyDir!, files),
        ...(workspace && { workspace }),
        files,
      },
      { dryRun: args.dryRun === true },
    );
    out(args.json ? `${JSON.stringify(result)}\n` : describeResult(result, source.label, args.historyDir!));
    return 0;
  } catch (failure) {
    err(`kiln: import from ${source.label} failed: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    return 1;
  }
}

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

export function describeResult(result: ImportResult, label: string, historyDir: string): string {
  const { dryRun } = result;
  const tasks = section("Tasks", historyDir, result.tasks, dryRun, false);
  const elsewhere = result.tasks.otherWorkspace > 0 ? `\n  (${plural(result.tasks.otherWorkspace, "task")} of other workspaces left out)` : "";
  const parts = [
    `Import from ${label} (${result.storageDir})${dryRun ? ": dry run, nothing was written" : ""}`,
    section("Modes", result.modes.file, result.modes, dryRun, true),
    section("Rules", result.rules.folder, result.rules, dryRun, true),
    section("MCP servers", result.mcp.file, result.mcp, dryRun, true),
    ...(result.projectMcp ? [section("Project MCP servers", result.projectMcp.file, result.projectMcp, dryRun, true)] : []),
    `${tasks}${elsewhere}`,
    ...(result.notes.length > 0 ? [["Notes:", ...result.notes.map((n) => `  ${n}`)].join("\n")] : []),
  ];
  return `${parts.join("\n")}\n`;
}
