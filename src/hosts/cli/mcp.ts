import { join, resolve } from "node:path";
import { loadMcpConfigFile, mergeMcpConfigs } from "../../core/mcp/config";
import { McpHub } from "../../core/mcp/McpHub";
import { describeLaunch, gateProjectServers, unblocked, type McpTrustStore } from "../../core/mcp/trust";
import type { McpConfigResult, McpServerConfig, McpShownValue } from "../../core/mcp/types";
import type { Logger } from "../../core/ports";
import { commandLine } from "../../shared/commandLine";

/** Long enough for an npx-started server to come up; a run never waits longer for its servers. */
const CONNECT_WAIT_MS = 30_000;

/**
 * The run's MCP servers: the workspace's .kilocode/mcp.json, and a global file when --mcp-config
 * names one (the project entry wins). Resolves once every server is connected or has failed, so the
 * first request already lists their tools; problems are said on stderr and the run goes on without them.
 */
export async function startMcpServers(hub: McpHub, workspace: string, globalFile: string | undefined, report: (line: string) => void, env: NodeJS.ProcessEnv, gate: ProjectServerGate): Promise<void> {
  // `env`: what `${env:NAME}` expands from, the environment the CLI started with (its key taken out since).
  const vars = { workspaceFolder: workspace, env };
  const none: McpConfigResult = { servers: [], errors: [] };
  const global = globalFile ? await loadMcpConfigFile(resolve(globalFile), globalFile, "global", vars) : none;
  const project = await loadMcpConfigFile(join(workspace, ".kilocode", "mcp.json"), ".kilocode/mcp.json", "project", vars);
  const merged = mergeMcpConfigs(global, project);
  for (const error of merged.errors) report(`MCP: ${error}`);
  if (merged.servers.length === 0) return;
  await hub.update(await allowProjectServers(merged.servers, workspace, gate, report));
  await new Promise<void>((done) => {
    const timer = setTimeout(finish, CONNECT_WAIT_MS);
    const listener = hub.onDidChange(() => {
      if (!hub.servers().some((s) => s.state === "connecting")) finish();
    });
    function finish() {
      clearTimeout(timer);
      listener.dispose();
      done();
    }
    if (!hub.servers().some((s) => s.state === "connecting")) finish();
  });
  for (const server of hub.servers()) if (server.state === "error") report(`MCP: server "${server.name}" is not available: ${server.error ?? "unknown error"}`);
}

export function createCliHub(workspace: string, logger: Logger): McpHub {
  // The bundle does not carry package.json; servers only show the version in their logs.
  return new McpHub({ logger, roots: () => [workspace], clientInfo: { name: "kiln-cli", version: process.env.npm_package_version ?? "dev" } });
}

/** Whether the project's servers may start: the CLI has no Workspace Trust, so a person or a flag says so. */
export interface ProjectServerGate {
  store: McpTrustStore;
  /** --trust-project-mcp: every project server starts for this run, and nothing is remembered. */
  trustAll: boolean;
  /** Asks yes or no at the terminal; absent without one. Resolves "stop" on Ctrl+C. */
  ask?: (question: string) => Promise<"yes" | "no" | "stop">;
}

/**
 * The servers with each project server allowed (remembered, at a terminal, or by the flag) or left
 * blocked, which the hub lists and does not start; each blocked one is named on stderr with how to
 * allow it. Approvals are per workspace folder, so a clone elsewhere asks again.
 */
async function allowProjectServers(servers: McpServerConfig[], workspace: string, gate: ProjectServerGate, report: (line: string) => void): Promise<McpServerConfig[]> {
  const key = resolve(workspace);
  const gated = gateProjectServers(servers, { workspaceTrusted: true, approved: (name) => gate.store.approvedFingerprint(key, name) });
  const out: McpServerConfig[] = [];
  const refused: McpServerConfig[] = [];
  let asking = gate.ask;
  for (const server of gated) {
    const blocked = server.blocked;
    if (!blocked || gate.trustAll) {
      out.push(unblocked(server));
      continue;
    }
    const answer = asking ? await asking(`${blocked.reason === "changed" ? `kiln: MCP server "${server.name}" changed since you allowed it.\n` : ""}kiln: ${question(server)}? [y/N] `) : "no";
    if (answer === "yes") {
      await gate.store
        .approve(key, server.name, blocked.fingerprint)
        .catch((err: unknown) => report(`MCP: ${err instanceof Error ? err.message : String(err)}; "${server.name}" starts for this run only`));
      out.push(unblocked(server));
      continue;
    }
    // Ctrl+C: the run is stopping, so the rest are not asked about.
    if (answer === "stop") asking = undefined;
    out.push(server);
    refused.push(server);
  }
  for (const server of refused) {
    // At a terminal the question just showed the command; headless, this line is all there is to go on.
    const why = gate.ask ? "" : ` (${server.blocked!.reason === "changed" ? "its entry changed since you allowed it" : "not allowed for this folder"}): ${what(server)}`;
    report(`MCP: server "${server.name}" from .kilocode/mcp.json was not started${why}`);
  }
  if (refused.length > 0 && !gate.ask) report("MCP: run kiln at a terminal to be asked once per server, or pass --trust-project-mcp to start the project's servers for this run");
  return out;
}

function question(server: McpServerConfig): string {
  const verb = server.transport === "stdio" ? "Start" : "Connect to";
  return `${verb} MCP server "${server.name}" from .kilocode/mcp.json: ${what(server)}`;
}

/** What the server would run or reach, as the file writes it, secret-looking literals hidden. */
function what(server: McpServerConfig): string {
  const launch = describeLaunch(server);
  const values = (label: string, list: McpShownValue[]) =>
    list.length === 0 ? "" : ` (${label}: ${list.map((v) => (v.value === undefined ? `${v.name}=<hidden, ${v.length} chars>` : `${v.name}=${v.value}`)).join(", ")})`;
  if (launch.url !== undefined) return `${launch.url}${values("headers", launch.headers)}`;
  const where = server.written?.cwd ? ` in ${server.written.cwd}` : "";
  return `\`${commandLine(launch.command ?? "", launch.args)}\`${where}${values("env", launch.env)}`;
}
