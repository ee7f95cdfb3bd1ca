import { parseMcpConfig, type McpSource, type McpVars } from "./config";
import { addProperty, appendElement, nodeAt, removeAt, replaceValue } from "./jsonText";
import type { NewServer } from "../../shared/mcpView";

/**
 * Edits of an MCP config file made from the MCP view, as text -> text. Each one changes only the
 * value it is about: other servers, fields Kiln does not know (autoApprove…), key order and the
 * user's indentation stay as they were, so a file shared with Kilo, Roo or Cline keeps working there.
 */

export type EditResult = { ok: true; text: string } | { ok: false; message: string; field?: string };
export type ToolList = "alwaysAllow" | "disabledTools";

export type { NewServer } from "../../shared/mcpView";

const EMPTY_FILE = '{\n  "mcpServers": {}\n}\n';
const MAX_NAME = 64;
// Checked by parseMcpConfig only to see whether the file is readable at all, so any values will do.
const ANY_VARS: McpVars = { workspaceFolder: "/", env: {} };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The file's servers, or the same refusal the loader gives for a file it cannot read. */
function serversOf(text: string, file: string): { ok: true; servers: Record<string, unknown> } | { ok: false; message: string } {
  const checked = parseMcpConfig(text, file, "project", ANY_VARS);
  if (checked.fileError) return { ok: false, message: `${checked.errors[0] ?? `${file}: cannot be read`}; fix it by hand first (nothing was written)` };
  const data: unknown = text.trim() ? JSON.parse(text) : {};
  const servers = isObject(data) && isObject(data.mcpServers) ? data.mcpServers : {};
  return { ok: true, servers };
}

/** The entry of one server, or why there is none to edit. */
function entryOf(text: string, file: string, name: string): { ok: true; entry: Record<string, unknown> } | { ok: false; message: string } {
  const read = serversOf(text, file);
  if (!read.ok) return read;
  const entry = read.servers[name];
  if (entry === undefined) return { ok: false, message: `${file} has no server "${name}"` };
  if (!isObject(entry)) return { ok: false, message: `${file}: server "${name}" is not an object; fix it by hand first` };
  return { ok: true, entry };
}

/**
 * Disabling writes `"disabled": true`; enabling removes the key rather than writing false, so
 * a disable and an enable give back the file as it was.
 */
export function setServerDisabled(text: string, file: string, name: string, disabled: boolean): EditResult {
  const found = entryOf(text, file, name);
  if (!found.ok) return found;
  const current = found.entry.disabled;
  const path = ["mcpServers", name, "disabled"];
  if (!disabled) return { ok: true, text: current === undefined ? text : removeAt(text, path) };
  if (current === true) return { ok: true, text };
  return { ok: true, text: current === undefined ? addProperty(text, ["mcpServers", name], "disabled", true) : replaceValue(text, path, true) };
}

/** Adds `tool` to the server's alwaysAllow or disabledTools list, or takes every copy of it out. */
export function setToolListed(text: string, file: string, name: string, list: ToolList, tool: string, listed: boolean): EditResult {
  const found = entryOf(text, file, name);
  if (!found.ok) return found;
  const current = found.entry[list];
  if (current === undefined) return { ok: true, text: listed ? addProperty(text, ["mcpServers", name], list, [tool]) : text };
  if (current === null) return { ok: true, text: listed ? replaceValue(text, ["mcpServers", name, list], [tool]) : text };
  if (!Array.isArray(current)) return { ok: false, message: `${file}: server "${name}": ${list} is not a list; fix it by hand first` };
  const at = current.flatMap((value, index) => (value === tool ? [index] : []));
  if (listed) return { ok: true, text: at.length > 0 ? text : appendElement(text, ["mcpServers", name, list], tool) };
  // From the last to the first, so each index still points where it did.
  let out = text;
  for (const index of at.reverse()) out = removeAt(out, ["mcpServers", name, list, index]);
  return { ok: true, text: out };
}

export function removeServer(text: string, file: string, name: string): EditResult {
  const found = entryOf(text, file, name);
  if (!found.ok) return found;
  return { ok: true, text: removeAt(text, ["mcpServers", name]) };
}

/**
 * Adds a server after checking it as the loader will read it (parseMcpConfig), so the form's
 * errors are the file's errors; `field` names the form field at fault. A missing or empty file
 * is started as `{"mcpServers": {}}`.
 */
export function addServer(text: string, file: string, source: McpSource, vars: McpVars, server: NewServer): EditResult {
  const name = server.name.trim();
  if (!name) return { ok: false, field: "name", message: "a server needs a name" };
  if (name.length > MAX_NAME) return { ok: false, field: "name", message: `a server name is at most ${MAX_NAME} characters` };
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, field: "name", message: "a server name cannot hold control characters" };
  const base = text.trim() ? text : EMPTY_FILE;
  const read = serversOf(base, file);
  if (!read.ok) return read;
  if (Object.hasOwn(read.servers, name)) return { ok: false, field: "name", message: `${file} already has a server "${name}"` };

  const entry = entryFor(server);
  const checked = parseMcpConfig(JSON.stringify({ mcpServers: { [name]: entry } }), file, source, vars);
  if (checked.servers.length === 0) {
    const problem = (checked.errors[0] ?? "is not valid").replace(`${file}: server "${name}": `, "");
    return { ok: false, field: fieldOf(problem), message: problem };
  }
  const data = JSON.parse(base) as Record<string, unknown>;
  if (isObject(data.mcpServers)) return { ok: true, text: addProperty(base, ["mcpServers"], name, entry) };
  const servers = { [name]: entry };
  return { ok: true, text: data.mcpServers === undefined ? addProperty(base, [], "mcpServers", servers) : replaceValue(base, ["mcpServers"], servers) };
}

/** The entry as a person would write it: a URL server says its type, so it never has to be guessed. */
function entryFor(server: NewServer): Record<string, unknown> {
  const env = server.env && Object.keys(server.env).length > 0 ? { env: server.env } : {};
  if (server.transport === "stdio") {
    const args = server.args && server.args.length > 0 ? { args: server.args } : {};
    return { command: server.command?.trim() ?? "", ...args, ...env };
  }
  return { type: server.transport, url: server.url?.trim() ?? "", ...env };
}

// The loader's problems start with the field's name (config.ts FIELD_MESSAGES); the form calls
// "type" its transport.
const FORM_FIELDS: Record<string, string> = { type: "transport", command: "command", args: "args", url: "url", env: "env" };

function fieldOf(problem: string): string | undefined {
  const first = /^[a-zA-Z]+/.exec(problem)?.[0];
  if (first && FORM_FIELDS[first]) return FORM_FIELDS[first];
  if (problem.startsWith('needs a "command"')) return "command";
  if (problem.startsWith("has both")) return "transport";
  return undefined;
}

/** Where a server's entry starts and ends in the file, for opening the editor on it. */
export function locateServer(text: string, name: string): { offset: number; length: number } | undefined {
  const property = nodeAt(text, ["mcpServers", name])?.parent;
  return property ? { offset: property.offset, length: property.length } : undefined;
}
