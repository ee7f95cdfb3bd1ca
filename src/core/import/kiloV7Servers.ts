import { z } from "zod";
import { parseMcpConfig, type McpVars } from "../mcp/config";

/**
 * Kilo Code v7's MCP servers (the `mcp` key of kilo.jsonc, opencode's format) as entries of Kiln's
 * mcp_settings.json. Kilo writes a local server as `{"type": "local", "command": ["npx", "-y",
 * "pkg"], "environment": {…}}` and a remote one as `{"type": "remote", "url", "headers"}`, each
 * with `enabled` and a `timeout` in milliseconds; Kiln's entries are `{command, args, env}` and
 * `{type: "streamable-http", url, headers}`, with `disabled` and a `timeout` in seconds.
 */

/** parseMcpConfig expands ${…} in what it checks; any values do for checking, and the entry is written unexpanded. */
const ANY_VARS: McpVars = { workspaceFolder: "/", env: {} };
/** Kiln's timeout bounds, in seconds (src/core/mcp/config.ts). */
const TIMEOUT_MIN_SECONDS = 1;
const TIMEOUT_MAX_SECONDS = 3600;

const texts = z.record(z.string(), z.string());
const localSchema = z
  .object({
    type: z.literal("local"),
    command: z.array(z.string()).min(1),
    environment: texts.optional(),
    enabled: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
  })
  .passthrough();
const remoteSchema = z
  .object({
    type: z.literal("remote"),
    url: z.string().min(1),
    headers: texts.optional(),
    enabled: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
    // false: never sign in; an object: how to sign in (client id…), which Kiln cannot do.
    oauth: z.union([z.literal(false), z.record(z.string(), z.unknown())]).optional(),
  })
  .passthrough();

const FIELD_MESSAGES: Record<string, string> = {
  command: 'command must be a list of texts, the program first: ["npx", "-y", "some-server"]',
  environment: "environment must map variable names to texts",
  enabled: "enabled must be true or false",
  timeout: "timeout must be a whole number of milliseconds",
  url: "url must be a non-empty text",
  headers: "headers must map header names to texts",
  oauth: "oauth must be false or an object",
};

export type ConvertedServer = { ok: true; entry: Record<string, unknown>; notes: string[] } | { ok: false; reason: string };

/** Kilo's `{env:NAME}` (replaced when it reads its config) as Kiln's `${env:NAME}` (replaced when it starts the server). */
function withKilnVariables(text: string): string {
  return text.replace(/(?<!\$)\{env:([^}]+)\}/g, (_, name: string) => `\${env:${name}}`);
}

function mapValues(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, withKilnVariables(value)]));
}

/** Kilo counts milliseconds, Kiln seconds: rounded up, within Kiln's bounds. */
function timeoutSeconds(milliseconds: number): number {
  return Math.min(TIMEOUT_MAX_SECONDS, Math.max(TIMEOUT_MIN_SECONDS, Math.ceil(milliseconds / 1000)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One server, converted and then checked as Kiln's loader will read it; `file` names it in messages. */
export function kiloServerToKiln(name: string, value: unknown, file: string): ConvertedServer {
  if (!isRecord(value)) return { ok: false, reason: 'must be an object with "type": "local" or "remote"' };
  if (value.type === undefined) {
    // `{"enabled": true}` alone switches on a server another config (an organisation's) defines.
    return { ok: false, reason: 'has no "type": it only turns on or off a server defined elsewhere, so there is nothing to import' };
  }
  if (value.type !== "local" && value.type !== "remote") return { ok: false, reason: `type must be "local" or "remote", not ${JSON.stringify(value.type)}` };
  // {file:…} is read by Kilo from a file when it loads its config; Kiln has nothing like it.
  if (JSON.stringify(value).includes("{file:")) return { ok: false, reason: "uses {file:…}, which Kiln cannot read from a config: add this server by hand" };
  const parsed = (value.type === "local" ? localSchema : remoteSchema).safeParse(value);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    return { ok: false, reason: FIELD_MESSAGES[field] ?? `${field || "the entry"}: ${parsed.error.issues[0]?.message ?? "is not valid"}` };
  }
  const server = parsed.data;
  const notes: string[] = [];
  let entry: Record<string, unknown>;
  if (server.type === "local") {
    const [program, ...args] = server.command.map(withKilnVariables);
    if (!program?.trim()) return { ok: false, reason: "command's first item, the program to run, is empty" };
    entry = { command: program, ...(args.length > 0 && { args }), ...(server.environment && { env: mapValues(server.environment) }) };
  } else {
    // Kilo tries streamable HTTP first (then SSE); Kiln's entry names the first.
    entry = { type: "streamable-http", url: withKilnVariables(server.url), ...(server.headers && { headers: mapValues(server.headers) }) };
    if (isRecord(server.oauth)) notes.push(`${file}: server "${name}": its oauth settings are left out: Kiln does not sign in to MCP servers with OAuth (give a token in "headers" instead)`);
  }
  if (server.enabled === false) entry.disabled = true;
  if (server.timeout !== undefined) entry.timeout = timeoutSeconds(server.timeout);
  const checked = parseMcpConfig(JSON.stringify({ mcpServers: { [name]: entry } }), file, "global", ANY_VARS);
  if (checked.servers.length === 0) return { ok: false, reason: (checked.errors[0] ?? "is not a valid server").replace(`${file}: server "${name}": `, "") };
  return { ok: true, entry, notes };
}
