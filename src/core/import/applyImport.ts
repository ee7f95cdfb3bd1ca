import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseMcpConfig, type McpVars } from "../mcp/config";
import { addProperty, replaceValue } from "../mcp/jsonText";
import { parseModesFile } from "../modes/customModes";
import { checkMode, upsertMode, type ModeInput } from "../modes/modeFileEdits";
import { readTask } from "./readTask";
import { applyShape, NEW_FILE_SHAPE, readShaped, type TextShape } from "./textShape";
import type { ImportPlan, ImportResult, ImportTargets, Outcome, PlannedServer } from "./types";

/**
 * Writes a plan into Kiln's files: modes and MCP servers are added to the target files by name (an
 * entry already there is kept, and a different one reported), rule files copied beside the ones
 * there (never over a different file), tasks saved to the history unless their id is in it. Each
 * file is written once, atomically, in its own format and line ends. A dry run goes through the
 * same steps and writes nothing, so it reports exactly what a real import would do.
 */

const EMPTY_MCP_FILE = '{\n  "mcpServers": {}\n}\n';
const ANY_VARS: McpVars = { workspaceFolder: "/", env: {} };

function outcome(): Outcome {
  return { imported: [], alreadyThere: [], skipped: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with keys sorted, to compare two entries regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

function sameMode(a: ModeInput, b: ModeInput, file: string): boolean {
  const left = checkMode(a, file);
  const right = checkMode(b, file);
  return left.ok && right.ok && canonical(left.entry) === canonical(right.entry);
}

/** Two spellings of one folder: resolved, without a trailing separator, and regardless of case on Windows. */
function samePath(a: string, b: string): boolean {
  const norm = (p: string) => {
    const resolved = resolve(p).replace(/[\\/]+$/, "");
    return process.platform === "win32" ? resolved.toLowerCase() : resolved;
  };
  return a !== "" && norm(a) === norm(b);
}

async function writeText(targets: ImportTargets, path: string, text: string, shape: TextShape): Promise<void> {
  await targets.files.writeFile(path, applyShape(text, shape));
}

async function applyModes(plan: ImportPlan, targets: ImportTargets, dryRun: boolean): Promise<Outcome> {
  const result = outcome();
  result.skipped.push(...plan.skipped.modes);
  if (plan.modes.length === 0) return result;
  const file = targets.modesFile;
  const current = await readShaped(targets.files, file);
  let text = current?.text;
  const existing = text === undefined ? [] : parseModesFile(text, file).modes;
  let changed = false;
  for (const planned of plan.modes) {
    const there = existing.find((m) => m.slug === planned.slug);
    if (there) {
      if (sameMode(there, planned.input, file)) result.alreadyThere.push(planned.slug);
      else result.skipped.push({ name: planned.slug, reason: `${file} already has a different mode "${planned.slug}"; it was kept` });
      continue;
    }
    const edit = upsertMode(text, file, undefined, planned.input);
    if (!edit.ok) {
      result.skipped.push({ name: planned.slug, reason: edit.message });
      continue;
    }
    text = edit.text;
    changed = true;
    result.imported.push(planned.slug);
  }
  if (changed && !dryRun && text !== undefined) await writeText(targets, file, text, current?.shape ?? NEW_FILE_SHAPE);
  return result;
}

/** Adds one server to the file's text, into its `mcpServers` (made when the file has none). */
function addServer(text: string, server: PlannedServer): string {
  const data = JSON.parse(text) as Record<string, unknown>;
  if (isRecord(data.mcpServers)) return addProperty(text, ["mcpServers"], server.name, server.entry);
  const servers = { [server.name]: server.entry };
  // `"mcpServers": null` reads as no servers; the value is replaced rather than a second key added.
  return data.mcpServers === null ? replaceValue(text, ["mcpServers"], servers) : addProperty(text, [], "mcpServers", servers);
}

async function applyServers(servers: readonly PlannedServer[], file: string, targets: ImportTargets, dryRun: boolean, result: Outcome): Promise<void> {
  if (servers.length === 0) return;
  const current = await readShaped(targets.files, file);
  let text = current && current.text.trim() ? current.text : EMPTY_MCP_FILE;
  const checked = parseMcpConfig(text, file, "global", ANY_VARS);
  if (checked.fileError) {
    for (const server of servers) result.skipped.push({ name: server.name, reason: `${checked.errors[0] ?? `${file} cannot be read`}; fix it by hand, then import again` });
    return;
  }
  const data: unknown = JSON.parse(text);
  const existing = isRecord(data) && isRecord(data.mcpServers) ? data.mcpServers : undefined;
  let changed = false;
  for (const server of servers) {
    if (existing && Object.hasOwn(existing, server.name)) {
      if (canonical(existing[server.name]) === canonical(server.entry)) result.alreadyThere.push(server.name);
      else result.skipped.push({ name: server.name, reason: `${file} already has a different server "${server.name}"; it was kept` });
      continue;
    }
    text = addServer(text, server);
    changed = true;
    result.imported.push(server.name);
  }
  if (changed && !dryRun) await writeText(targets, file, text, current?.shape ?? NEW_FILE_SHAPE);
}

async function bytesOf(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

async function applyRules(plan: ImportPlan, targets: ImportTargets, dryRun: boolean): Promise<Outcome> {
  const result = outcome();
  result.skipped.push(...plan.skipped.rules);
  for (const rule of plan.rules) {
    const target = join(rule.mode ? `${targets.rulesDir}-${rule.mode}` : targets.rulesDir, rule.relative);
    try {
      const source = await readFile(rule.from);
      const there = await bytesOf(target);
      if (there && sameBytes(there, source)) result.alreadyThere.push(rule.name);
      else if (there) result.skipped.push({ name: rule.name, reason: `${target} already exists with other content; it was kept` });
      else {
        // Bytes as they are: the copy keeps the file's encoding, mark and line ends.
        if (!dryRun) await targets.files.writeFile(target, source);
        result.imported.push(rule.name);
      }
    } catch (err) {
      result.skipped.push({ name: rule.name, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}

async function applyTasks(plan: ImportPlan, targets: ImportTargets, dryRun: boolean): Promise<ImportResult["tasks"]> {
  const result = { ...outcome(), otherWorkspace: 0 };
  result.skipped.push(...plan.skipped.tasks);
  if (plan.tasks.length === 0) return result;
  const known = new Set((await targets.history.list()).entries.map((e) => e.id));
  for (const planned of plan.tasks) {
    if (targets.onlyWorkspaceTasks && targets.workspace !== undefined && !samePath(planned.entry.workspace, targets.workspace)) {
      result.otherWorkspace++;
      continue;
    }
    if (known.has(planned.entry.id)) {
      result.alreadyThere.push(planned.entry.id);
      continue;
    }
    if (dryRun) {
      result.imported.push(planned.entry.id);
      continue;
    }
    // Read again rather than kept from the plan: a long history is held in memory one task at a time.
    const read = await readTask(plan.source, planned.folder, planned.sourceId);
    if (!read.ok) {
      result.skipped.push({ name: planned.folder, reason: read.reason });
      continue;
    }
    try {
      await targets.history.save({ ...read.task, entry: planned.entry });
      known.add(planned.entry.id);
      result.imported.push(planned.entry.id);
    } catch (err) {
      result.skipped.push({ name: planned.folder, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}

/**
 * One part of the import; a failure to write its file (a full disk, a folder not writable) is that
 * part's, reported with the file, and the other parts still come over. Each part writes its file
 * once, at its end, so a failed part leaves its file as it was.
 */
async function part<T extends Outcome>(where: string, made: T, run: (into: T) => Promise<unknown>): Promise<T> {
  try {
    await run(made);
  } catch (err) {
    made.skipped.push({
      name: where,
      reason: `could not be written (${(err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err))}); the rest of this part was not imported`,
    });
  }
  return made;
}

export async function applyImport(plan: ImportPlan, targets: ImportTargets, options: { dryRun: boolean }): Promise<ImportResult> {
  const { dryRun } = options;
  const mcp = await part(targets.mcpFile, { ...outcome(), file: targets.mcpFile, skipped: [...plan.skipped.mcp] }, (into) => applyServers(plan.mcp, targets.mcpFile, targets, dryRun, into));
  let projectMcp: ImportResult["projectMcp"];
  if (targets.workspace !== undefined) {
    const file = join(targets.workspace, ".kilocode", "mcp.json");
    projectMcp = await part(file, { ...outcome(), file, skipped: [...plan.skipped.projectMcp] }, (into) => applyServers(plan.projectMcp, file, targets, dryRun, into));
  }
  const modes = await part(targets.modesFile, { ...outcome(), file: targets.modesFile }, async (into) => Object.assign(into, await applyModes(plan, targets, dryRun)));
  const rules = await part(targets.rulesDir, { ...outcome(), folder: targets.rulesDir }, async (into) => Object.assign(into, await applyRules(plan, targets, dryRun)));
  const tasks = await part(targets.history.root, { ...outcome(), otherWorkspace: 0 }, async (into) => Object.assign(into, await applyTasks(plan, targets, dryRun)));
  return { source: plan.source, storageDir: plan.storageDir, dryRun, modes, rules, mcp, ...(projectMcp && { projectMcp }), tasks, notes: [...plan.notes] };
}
