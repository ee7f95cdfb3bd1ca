import { createHash } from "node:crypto";
import type { McpBlockReason, McpLaunch, McpLaunchView, McpServerConfig, McpShownValue } from "./types";

/**
 * Which project MCP servers may start. A cloned repository's .kilocode/mcp.json names commands
 * that would run as the user the moment the folder opens, so a project server starts only in a
 * trusted workspace and once the user has allowed its entry as it is now. The global file is the
 * user's own and needs no approval. Hosts keep the approvals (McpTrustStore) and ask the user;
 * this file decides, and describes the entry for the person deciding.
 */

/** Where a host keeps approvals: per workspace (a folder's path or URI) and server name, the fingerprint allowed. */
export interface McpTrustStore {
  approvedFingerprint(workspaceKey: string, server: string): string | undefined;
  approve(workspaceKey: string, server: string, fingerprint: string): Promise<void>;
  revoke(workspaceKey: string, server: string): Promise<void>;
}

export function isApproved(store: McpTrustStore, workspaceKey: string, server: string, fingerprint: string): boolean {
  return store.approvedFingerprint(workspaceKey, server) === fingerprint;
}

/** The launch fields of an entry as written; entries made in code have only the expanded ones. */
export function launchOf(server: McpServerConfig): McpLaunch {
  if (server.written) return server.written;
  const { transport, command, args, cwd, env, url, headers } = server;
  return { transport, args, env, headers, ...(command !== undefined && { command }), ...(cwd !== undefined && { cwd }), ...(url !== undefined && { url }) };
}

/**
 * sha256 over what decides what runs and where data goes: the transport, command, args, cwd, env
 * names and values, url, header names and values, as written. The written form holds
 * `${env:NAME}` rather than the variable's value, so no secret of the user's is hashed or stored,
 * a rotated token asks nothing, and pointing a header at another variable asks again.
 */
export function mcpServerFingerprint(server: McpServerConfig): string {
  const l = launchOf(server);
  const sorted = (map: Record<string, string>) => Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = JSON.stringify(["kiln.mcp-launch/1", l.transport, l.command ?? null, l.args, l.cwd ?? null, sorted(l.env), l.url ?? null, sorted(l.headers)]);
  return createHash("sha256").update(canonical).digest("hex");
}

export interface McpGateOptions {
  /** VS Code's Workspace Trust; the CLI has none and passes true. */
  workspaceTrusted: boolean;
  /** The fingerprint the user allowed for this workspace's server of that name, if any. */
  approved: (server: string) => string | undefined;
}

/**
 * The servers with each project server that may not start marked `blocked` (the hub lists it and
 * starts nothing). A disabled entry is left as it is: it starts nothing anyway, and enabling it
 * brings it back here.
 */
export function gateProjectServers(servers: readonly McpServerConfig[], options: McpGateOptions): McpServerConfig[] {
  return servers.map((server) => {
    const { blocked: _was, ...open } = server;
    if (server.source !== "project" || server.disabled) return open;
    const fingerprint = mcpServerFingerprint(server);
    const allowed = options.approved(server.name);
    const reason: McpBlockReason | undefined = !options.workspaceTrusted ? "untrusted-workspace" : allowed === fingerprint ? undefined : allowed === undefined ? "not-approved" : "changed";
    return reason ? { ...open, blocked: { reason, fingerprint, launch: describeLaunch(server) } } : open;
  });
}

/** The entry with its block lifted, for a host that has just been told yes. */
export function unblocked(server: McpServerConfig): McpServerConfig {
  const { blocked: _was, ...open } = server;
  return open;
}

/** One line on why a server did not start, for logs, the CLI and the model. */
export function blockedText(reason: McpBlockReason): string {
  switch (reason) {
    case "untrusted-workspace":
      return "the workspace is not trusted, so no server of its .kilocode/mcp.json starts";
    case "not-approved":
      return "a server from the project's .kilocode/mcp.json starts only once you allow its command";
    case "changed":
      return "its entry in .kilocode/mcp.json changed since you allowed it";
  }
}

// A name that usually holds a credential (as serverEnv.ts keeps such variables from servers).
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;
const REFERENCE = /\$\{(?:env:[^}]+|workspaceFolder)\}/g;
const SCHEME_WORD = /^(?:Bearer|Basic|Token)\s*/i;
const LONG_LITERAL = 48;
const TOKEN_RUN = 20;

/**
 * Whether a written value's literal part looks like a credential. References (`${env:GITHUB_TOKEN}`)
 * are not: they name the user's variable and hold nothing, and showing them is how the user sees
 * which of their secrets the server would get. A literal is masked when its name sounds secret, or
 * it is long, or it holds a long run of letters and digits as tokens do; ports, flags, log levels
 * and paths stay readable, since they decide what the server does.
 */
export function looksSecret(name: string, value: string): boolean {
  const literal = value.replace(REFERENCE, "").trim();
  if (!literal) return false;
  if (literal.length > LONG_LITERAL) return true;
  if (SECRET_NAME.test(name) && literal.replace(SCHEME_WORD, "").length > 0) return true;
  return literal.split(/[^A-Za-z0-9_-]+/).some((run) => run.length >= TOKEN_RUN && /\d/.test(run) && /[A-Za-z]/.test(run));
}

function shown(map: Record<string, string>): McpShownValue[] {
  return Object.entries(map).map(([name, value]) => (looksSecret(name, value) ? { name, length: value.length } : { name, value, length: value.length }));
}

/** The written entry for the approval card: command and args exact, secret-looking literals masked. */
export function describeLaunch(server: McpServerConfig): McpLaunchView {
  const l = launchOf(server);
  return {
    transport: l.transport,
    args: [...l.args],
    env: shown(l.env),
    headers: shown(l.headers),
    ...(l.command !== undefined && { command: l.command }),
    ...(server.transport === "stdio" && server.cwd !== undefined && { cwd: server.cwd }),
    ...(l.url !== undefined && { url: l.url }),
  };
}
