import { join } from "node:path";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { kiloAgentToMode, readKiloAgentFiles } from "../modes/kiloAgents";
import { plannedMode } from "./plannedMode";
import { readText } from "./readFiles";
import { kiloServerToKiln } from "./kiloV7Servers";
import { KILO_AGENTS_DIR, KILO_CONFIG_FILES } from "./sources";
import type { ImportPlan, PlannedMode, PlannedServer, Skipped } from "./types";

/**
 * Kilo Code v7's global settings, read for the import: the MCP servers and agents of its config
 * (`kilo.jsonc`, JSONC: comments and trailing commas allowed) and its agent files (`agents/*.md`),
 * all in its config folder (`~/.config/kilo`). Agents become global modes, servers entries of
 * Kiln's global MCP file. Reads only.
 */

export interface KiloV7Read {
  modes: PlannedMode[];
  servers: PlannedServer[];
  skippedModes: Skipped[];
  skippedServers: Skipped[];
  notes: string[];
  /** Whether any config file or agent file was found. */
  found: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "kilo.jsonc: line 3, column 5: ValueExpected", from the parser's first error (later ones mostly follow from it). */
function syntaxProblem(text: string, error: ParseError): string {
  const before = text.slice(0, error.offset);
  const line = before.split("\n").length;
  const column = error.offset - before.lastIndexOf("\n");
  return `not valid JSONC: ${printParseErrorCode(error.error)} at line ${line}, column ${column}`;
}

/** The config file's servers and agents, into `read`; a name already taken by a more preferred file keeps that one. */
function readConfigData(data: Record<string, unknown>, file: string, read: KiloV7Read): void {
  if (data.mcp !== undefined && data.mcp !== null) {
    if (!isRecord(data.mcp)) read.skippedServers.push({ name: file, reason: '"mcp" must be an object of servers by name' });
    else
      for (const [name, value] of Object.entries(data.mcp)) {
        if (read.servers.some((s) => s.name === name)) continue;
        const converted = kiloServerToKiln(name, value, file);
        if (!converted.ok) {
          read.skippedServers.push({ name, reason: converted.reason });
          continue;
        }
        read.notes.push(...converted.notes);
        read.servers.push({ name, entry: converted.entry, from: file });
      }
  }
  if (data.agent !== undefined && data.agent !== null) {
    if (!isRecord(data.agent)) read.skippedModes.push({ name: file, reason: '"agent" must be an object of agents by name' });
    else
      for (const [name, settings] of Object.entries(data.agent)) {
        const label = `agent "${name}" (${file})`;
        const taken = read.modes.find((m) => m.slug === name);
        if (taken) {
          // An agent file, or a more preferred config file, already gave this name.
          if (taken.from.endsWith(".md")) read.skippedModes.push({ name: label, reason: `${taken.from} has the same name and is the one Kilo uses` });
          continue;
        }
        const result = kiloAgentToMode(name, settings, undefined, file);
        if (!result.ok) {
          // No prompt: the usual override of one of Kilo's own agents (`"code": {"model": …}`), not an agent of its own.
          const reason = result.field === "prompt" ? "has no prompt: it only changes settings of an agent defined elsewhere (such as Kilo's built-in ones)" : `${result.field}: ${result.message}`;
          read.skippedModes.push({ name: label, reason });
        } else if ("disabled" in result) read.skippedModes.push({ name: label, reason: "is disabled in Kilo (disable: true)" });
        else read.modes.push(plannedMode(result.mode, file));
      }
  }
}

/** Reads Kilo v7's config folder; one that is missing or empty gives an empty read. */
export async function readKiloV7(dir: string): Promise<KiloV7Read> {
  const read: KiloV7Read = { modes: [], servers: [], skippedModes: [], skippedServers: [], notes: [], found: false };
  // Agent files first: Kilo lets a Markdown agent override the config's agent of the same name.
  for (const agent of readKiloAgentFiles(join(dir, KILO_AGENTS_DIR))) {
    read.found = true;
    if (agent.problem) read.skippedModes.push({ name: agent.file, reason: agent.problem });
    else if (agent.disabled) read.skippedModes.push({ name: agent.file, reason: "is disabled in Kilo (disable: true)" });
    else if (agent.mode) read.modes.push(plannedMode(agent.mode, agent.file));
  }
  for (const name of KILO_CONFIG_FILES) {
    const file = join(dir, name);
    const text = await readText(file);
    if ("missing" in text) continue;
    read.found = true;
    if ("error" in text) {
      read.skippedServers.push({ name: file, reason: text.error });
      continue;
    }
    if (!text.text.trim()) continue;
    const errors: ParseError[] = [];
    const data: unknown = parseJsonc(text.text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0) {
      read.skippedServers.push({ name: file, reason: `${syntaxProblem(text.text, errors[0]!)}; its MCP servers and agents are left out` });
      continue;
    }
    if (!isRecord(data)) {
      read.skippedServers.push({ name: file, reason: 'must hold one JSON object, like {"mcp": {}}' });
      continue;
    }
    readConfigData(data, file, read);
  }
  return read;
}

/**
 * Adds a Kilo v7 read to a plan that may hold Kilo v5's modes and servers. On a slug or name in
 * both, v7's is taken (it is the newer setup, often migrated from the other) and v5's is listed as
 * skipped with the reason.
 */
export function addKiloV7(plan: ImportPlan, read: KiloV7Read, dir: string): void {
  if (!read.found) return;
  plan.notes.push(`Kilo Code v7's settings were read from ${dir}`);
  const newerModes = new Map(read.modes.map((m) => [m.slug, m]));
  for (const old of plan.modes.filter((m) => newerModes.has(m.slug)))
    plan.skipped.modes.push({ name: old.from, reason: `mode "${old.slug}": Kilo v7's ${newerModes.get(old.slug)!.from} has the same slug and was taken` });
  plan.modes = [...plan.modes.filter((m) => !newerModes.has(m.slug)), ...read.modes];
  plan.skipped.modes.push(...read.skippedModes);
  const newerServers = new Map(read.servers.map((s) => [s.name, s]));
  for (const old of plan.mcp.filter((s) => newerServers.has(s.name))) plan.skipped.mcp.push({ name: old.name, reason: `also in Kilo v7's ${newerServers.get(old.name)!.from}, whose entry was taken` });
  plan.mcp = [...plan.mcp.filter((s) => !newerServers.has(s.name)), ...read.servers];
  plan.skipped.mcp.push(...read.skippedServers);
  plan.notes.push(...read.notes);
}
