import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import { jsonProblem } from "../files/jsonProblem";
import type { McpConfigResult, McpServerConfig, McpTransport } from "./types";

/**
 * Reads the MCP config: the project's .kilocode/mcp.json and the global mcp_settings.json, in the
 * format Kilo Code, Roo Code and Cline write, so a file from any of them works pasted as is.
 */

export type McpSource = McpServerConfig["source"];

export interface McpVars {
  /** Undefined when no folder is open: a ${workspaceFolder} then makes the server an error. */
  workspaceFolder?: string;
  env: Record<string, string | undefined>;
}

/** fileError: the file could not be read as a whole, so the caller should keep its last good servers. */
export interface McpFileResult extends McpConfigResult {
  fileError: boolean;
}

const DEFAULT_TIMEOUT_SECONDS = 60;

// null counts as absent: some hand-written files say "cwd": null to mean "the default".
const strings = z.array(z.string()).nullish();
const entrySchema = z.object({
  type: z.string().nullish(),
  command: z.string().min(1).nullish(),
  args: strings,
  cwd: z.string().nullish(),
  // Numbers and booleans are common in pasted env blocks ("PORT": 3000); a process only takes strings.
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
  url: z.string().min(1).nullish(),
  headers: z.record(z.string(), z.string()).nullish(),
  disabled: z.boolean().nullish(),
  timeout: z.number().int().min(1).max(3600).nullish(),
  alwaysAllow: strings,
  disabledTools: strings,
  watchPaths: strings,
});

// One message per field, worded for the person editing the file rather than zod's generic wording.
const FIELD_MESSAGES: Record<string, string> = {
  type: 'type must be "stdio", "sse" or "streamable-http"',
  command: "command must be a non-empty string",
  args: "args must be a list of strings",
  cwd: "cwd must be a string",
  env: "env must map variable names to strings",
  url: "url must be a non-empty string",
  headers: "headers must map header names to strings",
  disabled: "disabled must be true or false",
  timeout: "timeout must be a whole number from 1 to 3600",
  alwaysAllow: "alwaysAllow must be a list of tool names",
  disabledTools: "disabledTools must be a list of tool names",
  watchPaths: "watchPaths must be a list of paths",
};

// Kilo and Roo write "streamable-http", Cline "streamableHttp", VS Code and Claude "http".
const TRANSPORTS: Record<string, McpTransport> = {
  stdio: "stdio",
  sse: "sse",
  streamablehttp: "streamable-http",
  http: "streamable-http",
};

function transportOf(value: unknown): McpTransport | undefined {
  return typeof value === "string" ? TRANSPORTS[value.toLowerCase().replace(/[-_\s]/g, "")] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses one file's text. Extra fields are ignored, so other tools' settings (autoApprove…) do no harm. */
export function parseMcpConfig(text: string, file: string, source: McpSource, vars: McpVars): McpFileResult {
  // A just-created empty file is not a mistake worth an error.
  if (!text.trim()) return { servers: [], errors: [], fileError: false };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fileError(`${file}: not valid JSON: ${jsonProblem(error, text)}`);
  }
  if (!isObject(data)) return fileError(`${file}: must be a JSON object like {"mcpServers": {}}`);
  if (data.mcpServers === undefined || data.mcpServers === null) return { servers: [], errors: [], fileError: false };
  if (!isObject(data.mcpServers)) return fileError(`${file}: "mcpServers" must be an object of servers by name`);

  const result: McpFileResult = { servers: [], errors: [], fileError: false };
  for (const [name, entry] of Object.entries(data.mcpServers)) {
    const report = (problem: string) => result.errors.push(`${file}: server "${name}": ${problem}`);
    const server = parseServer(name, entry, source, vars, report);
    if (server) result.servers.push(server);
  }
  return result;
}

function fileError(message: string): McpFileResult {
  return { servers: [], errors: [message], fileError: true };
}

/** V8 gives "at position N" (Node 20) or adds the line and column (Node 22+); people read lines. */
function parseServer(name: string, entry: unknown, source: McpSource, vars: McpVars, report: (problem: string) => void): McpServerConfig | undefined {
  if (!isObject(entry)) {
    report('must be an object with a "command" or a "url"');
    return undefined;
  }
  const parsed = entrySchema.safeParse(entry);
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")));
    for (const field of fields) report(FIELD_MESSAGES[field] ?? `${field} is not valid`);
    return undefined;
  }
  const c = parsed.data;

  const problems = new Set<string>();
  const warnings = new Set<string>();
  // warnUnset: an empty env var in a url or header usually means a missing token, worth saying;
  // elsewhere an empty value is often fine (an optional flag), as in Kilo, so it stays quiet.
  const expander = (field: string, warnUnset: boolean) => (value: string) =>
    value.replace(/\$\{(?:env:([^}]+)|workspaceFolder)\}/g, (_, envName: string | undefined) => {
      if (envName === undefined) {
        if (vars.workspaceFolder !== undefined) return vars.workspaceFolder;
        problems.add(`${field} uses \${workspaceFolder} but no workspace folder is open`);
        return "";
      }
      const value = vars.env[envName];
      if (value === undefined && warnUnset) warnings.add(`${field} uses \${env:${envName}}, which is not set`);
      return value ?? "";
    });
  const expandMap = (field: string, map: Record<string, string | number | boolean>, warnUnset: boolean) =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expander(`${field}.${k}`, warnUnset)(String(v))]));

  // Quiet here: whether the url is used at all (and so worth a warning) is known only below.
  const inferUrl = c.url ? expander("url", false)(c.url) : undefined;
  let transport: McpTransport | undefined;
  if (c.type !== undefined && c.type !== null) {
    transport = transportOf(c.type);
    if (!transport) {
      report(`${FIELD_MESSAGES.type}, not "${c.type}"`);
      return undefined;
    }
  } else if (transportOf(entry.transportType)) {
    // Older Cline files say "transportType" instead of "type"; honour it when it is readable.
    transport = transportOf(entry.transportType);
  } else if (c.command && c.url) {
    report('has both "command" and "url": add "type" to say which to use');
    return undefined;
  } else if (c.command) {
    transport = "stdio";
  } else if (inferUrl !== undefined) {
    transport = isSseUrl(inferUrl) ? "sse" : "streamable-http";
  } else {
    report('needs a "command" (to start a local server) or a "url" (to reach a remote one)');
    return undefined;
  }

  const config: McpServerConfig = {
    name,
    source,
    transport: transport!,
    args: [],
    env: {},
    headers: {},
    disabled: c.disabled ?? false,
    timeoutSeconds: c.timeout ?? DEFAULT_TIMEOUT_SECONDS,
    alwaysAllow: c.alwaysAllow ?? [],
    disabledTools: c.disabledTools ?? [],
    watchPaths: (c.watchPaths ?? []).map(expander("watchPaths", false)),
  };
  if (transport === "stdio") {
    if (!c.command) {
      report("command is required for a stdio server");
      return undefined;
    }
    config.command = expander("command", false)(c.command);
    config.args = (c.args ?? []).map(expander("args", false));
    config.env = expandMap("env", c.env ?? {}, false);
    const cwd = c.cwd ? expander("cwd", false)(c.cwd) : undefined;
    // The extension host's own cwd is arbitrary, so relative paths are taken from the workspace.
    config.cwd = cwd && vars.workspaceFolder && !isAbsolute(cwd) ? resolve(vars.workspaceFolder, cwd) : (cwd ?? vars.workspaceFolder);
    config.written = { transport: "stdio", command: c.command, args: c.args ?? [], ...(c.cwd && { cwd: c.cwd }), env: stringValues(c.env ?? {}), headers: {} };
  } else {
    if (!c.url) {
      report(`url is required for ${transport === "sse" ? "an SSE" : "a streamable HTTP"} server`);
      return undefined;
    }
    const url = expander("url", true)(c.url);
    if (!isHttpUrl(url)) {
      // The written value, not the expanded one, so a token from the environment is never shown.
      report(`url must be an http or https URL, not "${c.url}"`);
      return undefined;
    }
    config.url = url;
    config.headers = expandMap("headers", c.headers ?? {}, true);
    config.written = { transport: config.transport, args: [], env: {}, url: c.url, headers: { ...(c.headers ?? {}) } };
  }
  for (const problem of problems) report(problem);
  if (problems.size > 0) return undefined;
  for (const warning of warnings) report(warning);
  return config;
}

function stringValues(map: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, String(v)]));
}

function isHttpUrl(text: string): boolean {
  try {
    const protocol = new URL(text).protocol;
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** The path, not the whole text, so "https://host/sse?key=…" is still SSE. */
function isSseUrl(text: string): boolean {
  try {
    return new URL(text).pathname.replace(/\/+$/, "").endsWith("/sse");
  } catch {
    return false;
  }
}

/** Reads a config file; a missing file is simply no servers. */
export async function loadMcpConfigFile(path: string, file: string, source: McpSource, vars: McpVars): Promise<McpFileResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], errors: [], fileError: false };
    return fileError(`${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseMcpConfig(text, file, source, vars);
}

/** A half-typed file must not disconnect every server: keep the last good servers, show the new error. */
export function keepLastGood(next: McpFileResult, lastGood: McpConfigResult | undefined): McpFileResult {
  return next.fileError && lastGood ? { servers: lastGood.servers, errors: next.errors, fileError: true } : next;
}

/** The project's entry replaces the global one of the same name. */
export function mergeMcpConfigs(global: McpConfigResult, project: McpConfigResult): McpConfigResult {
  const projectNames = new Set(project.servers.map((server) => server.name));
  return {
    servers: [...project.servers, ...global.servers.filter((server) => !projectNames.has(server.name))],
    errors: [...global.errors, ...project.errors],
  };
}

/** Same settings, so the hub can leave the connection alone; env and header order do not matter. */
export function sameServer(a: McpServerConfig, b: McpServerConfig): boolean {
  return deepEqual(a, b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const aKeys = keys(a);
  return aKeys.length === keys(b).length && aKeys.every((k) => deepEqual(a[k], b[k]));
}
