import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { parseMcpConfig, type McpVars } from "../mcp/config";
import { parseModesFile } from "../modes/customModes";
import { addKiloV7, readKiloV7 } from "./kiloV7";
import { plannedMode } from "./plannedMode";
import { readText } from "./readFiles";
import { readTask } from "./readTask";
import { holdsKiloConfig, SOURCES, type SourceKind } from "./sources";
import { ClineTaskHistorySchema, describeIssue, type SourceHistoryItem } from "./sourceFormats";
import { jsonProblem } from "../files/jsonProblem";
import type { ImportPlan, PlannedMode, PlannedRule, PlannedServer, Skipped } from "./types";

/**
 * Reads a source's global storage (and its global rule folders under the home folder) into a plan:
 * every mode, rule file, MCP server and task, checked, with what cannot be imported and why. Reads
 * only; nothing is written here or anywhere in the source.
 */

export interface ReadOptions {
  /** Where the source's global rule folders are (~/.roo/rules…). */
  home: string;
  /** A project folder: its MCP file (Roo's .roo/mcp.json) is read too. */
  workspace?: string;
  /**
   * Kilo Code v7's config folder (sources.ts kiloConfigDir: `$XDG_CONFIG_HOME/kilo`), read with
   * the kilo source; by default `.config/kilo` under `home`. When the storage folder given is
   * itself a v7 config folder, that one is read instead.
   */
  kiloConfigDir?: string;
  /**
   * Also copy Kilo's own global rules (~/.kilocode/rules*): the CLI reads them in place, but the
   * editor keeps its global rules in its storage, so there they must be imported.
   */
  kiloRules?: boolean;
}

/** Kilo Code v5's global rule folder, the CLI's own default (src/hosts/cli/main.ts). */
const KILO_RULE_DIRS = [".kilocode/rules"] as const;

/** Kiln reads these rule files (src/core/rules/loadRules.ts); others would be copied for nothing. */
const RULE_EXTENSIONS = /\.(md|markdown|txt)$/i;
/** As deep as Kiln's rules loader looks. */
const MAX_RULE_DEPTH = 5;
const MODE_SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]*$/;
/** parseMcpConfig expands ${…} in what it checks; any values do for checking, and the entry is copied unexpanded. */
const ANY_VARS: McpVars = { workspaceFolder: "/", env: {} };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function readModes(kind: SourceKind, storageDir: string, skipped: Skipped[]): Promise<PlannedMode[]> {
  const file = SOURCES[kind].modesFile;
  if (!file) return [];
  // Older versions kept the same list as JSON; the YAML file replaced it.
  for (const name of [file, file.replace(/\.yaml$/, ".json")]) {
    const path = join(storageDir, name);
    const read = await readText(path);
    if ("missing" in read) continue;
    if ("error" in read) {
      skipped.push({ name: path, reason: read.error });
      return [];
    }
    const parsed = parseModesFile(read.text, path);
    for (const error of parsed.errors) skipped.push({ name: path, reason: error.startsWith(`${path}: `) ? error.slice(path.length + 2) : error });
    return parsed.modes.map((mode) => plannedMode(mode, path));
  }
  return [];
}

/** The servers of one MCP file, each checked as Kiln's loader will read it; a bad one is skipped, not the file. */
async function readServers(path: string, skipped: Skipped[]): Promise<PlannedServer[] | undefined> {
  const read = await readText(path);
  if ("missing" in read) return undefined;
  if ("error" in read) {
    skipped.push({ name: path, reason: read.error });
    return [];
  }
  const whole = parseMcpConfig(read.text, path, "global", ANY_VARS);
  if (whole.fileError) {
    skipped.push({ name: path, reason: whole.errors[0] ?? "cannot be read" });
    return [];
  }
  const data: unknown = read.text.trim() ? JSON.parse(read.text) : {};
  const servers = isRecord(data) && isRecord(data.mcpServers) ? data.mcpServers : {};
  const planned: PlannedServer[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const checked = parseMcpConfig(JSON.stringify({ mcpServers: { [name]: entry } }), path, "global", ANY_VARS);
    if (!isRecord(entry) || checked.servers.length === 0) {
      skipped.push({ name, reason: (checked.errors[0] ?? "is not a valid server").replace(`${path}: server "${name}": `, "") });
      continue;
    }
    planned.push({ name, entry, from: path });
  }
  return planned;
}

/** Merges files read most preferred first: a name already taken keeps its first entry. */
function firstByName(lists: readonly PlannedServer[][]): PlannedServer[] {
  const byName = new Map<string, PlannedServer>();
  for (const list of lists) for (const server of list) if (!byName.has(server.name)) byName.set(server.name, server);
  return [...byName.values()];
}

/** Rule files below `folder` (recursively, dotfiles left out), relative to it. */
async function ruleFilesIn(folder: string, skipped: Skipped[], shownAs: string): Promise<{ relative: string; path: string }[]> {
  const found: { relative: string; path: string }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") skipped.push({ name: dir, reason: `cannot be read (${code ?? String(err)})` });
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_RULE_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile()) {
        const rel = relative(folder, path);
        if (RULE_EXTENSIONS.test(entry.name)) found.push({ relative: rel, path });
        else skipped.push({ name: `${shownAs}/${rel.split(sep).join("/")}`, reason: "Kiln reads only .md, .markdown and .txt rule files" });
      }
    }
  };
  await walk(folder, 0);
  return found;
}

async function readRules(kind: SourceKind, options: ReadOptions, skipped: Skipped[]): Promise<PlannedRule[]> {
  const info = SOURCES[kind];
  const home = options.home;
  // Without a home folder a relative path would resolve against the working folder: nothing to read.
  if (!home) return [];
  const byName = new Map<string, PlannedRule>();
  for (const dir of kind === "kilo" && options.kiloRules ? KILO_RULE_DIRS : (info.globalRuleDirs ?? [])) {
    const folder = join(home, ...dir.split("/"));
    const base = basename(folder);
    const folders: { path: string; mode?: string }[] = [{ path: folder }];
    if (info.modeRules) {
      const parent = dirname(folder);
      const names = await readdir(parent).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const mode = name.startsWith(`${base}-`) ? name.slice(base.length + 1) : undefined;
        if (mode && MODE_SLUG.test(mode) && (await isDirectory(join(parent, name)))) folders.push({ path: join(parent, name), mode });
      }
    }
    for (const { path, mode } of folders) {
      const shownAs = mode ? `rules-${mode}` : "rules";
      for (const file of await ruleFilesIn(path, skipped, shownAs)) {
        const name = `${shownAs}/${file.relative.split(sep).join("/")}`;
        // A folder listed earlier (Zoo's own before Roo's) wins for the same file.
        if (!byName.has(name)) byName.set(name, { name, relative: file.relative, from: file.path, ...(mode && { mode }) });
      }
    }
  }
  return [...byName.values()];
}

/** Cline lists its tasks outside their folders; the list gives each one's workspace and model. */
async function clineTaskList(storageDir: string, notes: string[]): Promise<Map<string, SourceHistoryItem>> {
  const path = join(storageDir, "state", "taskHistory.json");
  const read = await readText(path);
  if ("missing" in read) return new Map();
  if ("error" in read) {
    notes.push(read.error);
    return new Map();
  }
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (err) {
    notes.push(`${path} is not valid JSON (${jsonProblem(err, read.text)}); tasks are imported without it`);
    return new Map();
  }
  const parsed = ClineTaskHistorySchema.safeParse(data);
  if (!parsed.success) {
    notes.push(`${path}: ${describeIssue(parsed.error)}; tasks are imported without it`);
    return new Map();
  }
  return new Map(parsed.data.flatMap((item) => (item.id ? [[item.id, item] as const] : [])));
}

async function readTasks(kind: SourceKind, storageDir: string, plan: ImportPlan): Promise<void> {
  const tasksDir = join(storageDir, "tasks");
  let names: string[];
  try {
    names = (await readdir(tasksDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") plan.skipped.tasks.push({ name: tasksDir, reason: `cannot be read (${code ?? String(err)})` });
    return;
  }
  const listed = kind === "cline" ? await clineTaskList(storageDir, plan.notes) : new Map<string, SourceHistoryItem>();
  for (const name of names.sort()) {
    const folder = join(tasksDir, name);
    const read = await readTask(kind, folder, name, listed.get(name));
    if (!read.ok) {
      plan.skipped.tasks.push({ name: folder, reason: read.reason });
      continue;
    }
    plan.notes.push(...read.notes);
    plan.tasks.push({ sourceId: name, folder, entry: read.task.entry });
  }
}

export async function readSource(kind: SourceKind, storageDir: string, options: ReadOptions): Promise<ImportPlan> {
  const plan: ImportPlan = {
    source: kind,
    storageDir,
    modes: [],
    rules: [],
    mcp: [],
    projectMcp: [],
    tasks: [],
    skipped: { modes: [], rules: [], mcp: [], projectMcp: [], tasks: [] },
    notes: [],
  };
  const info = SOURCES[kind];
  plan.modes = await readModes(kind, storageDir, plan.skipped.modes);
  plan.rules = await readRules(kind, options, plan.skipped.rules);
  plan.mcp = (await readServers(join(storageDir, ...info.mcpFile.split("/")), plan.skipped.mcp)) ?? [];
  if (options.workspace && info.projectMcpFiles) {
    const lists: PlannedServer[][] = [];
    for (const file of info.projectMcpFiles) lists.push((await readServers(join(options.workspace, ...file.split("/")), plan.skipped.projectMcp)) ?? []);
    plan.projectMcp = firstByName(lists);
  }
  if (kind === "kilo") {
    // A Kilo v7 user may have only this folder, or both it and v5's storage: both are read.
    // Without a home folder there is no default to look in (a relative path would be the process's cwd).
    const v7Dir = holdsKiloConfig(storageDir) ? storageDir : (options.kiloConfigDir ?? (options.home ? join(options.home, ".config", "kilo") : undefined));
    if (v7Dir !== undefined) addKiloV7(plan, await readKiloV7(v7Dir), v7Dir);
  }
  await readTasks(kind, storageDir, plan);
  return plan;
}
