import { join, resolve } from "node:path";
import { loadMcpConfigFile, mergeMcpConfigs } from "../../core/mcp/config";
import { McpHub } from "../../core/mcp/McpHub";
import type { McpConfigResult } from "../../core/mcp/types";
import type { Logger } from "../../core/ports";

/** Long enough for an npx-started server to come up; a run never waits longer for its servers. */
const CONNECT_WAIT_MS = 30_000;

/**
 * The run's MCP servers: the workspace's .kilocode/mcp.json, and a global file when --mcp-config
 * names one (the project entry wins). Resolves once every server is connected or has failed, so the
 * first request already lists their tools; problems are said on stderr and the run goes on without them.
 */
export async function startMcpServers(hub: McpHub, workspace: string, globalFile: string | undefined, report: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // `env`: what `${env:NAME}` expands from, the environment the CLI started with (its key taken out since).
  const vars = { workspaceFolder: workspace, env };
  const none: McpConfigResult = { servers: [], errors: [] };
  const global = globalFile ? await loadMcpConfigFile(resolve(globalFile), globalFile, "global", vars) : none;
  const project = await loadMcpConfigFile(join(workspace, ".kilocode", "mcp.json"), ".kilocode/mcp.json", "project", vars);
  const merged = mergeMcpConfigs(global, project);
  for (const error of merged.errors) report(`MCP: ${error}`);
  if (merged.servers.length === 0) return;
  await hub.update(merged.servers);
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
