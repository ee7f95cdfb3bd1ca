import type { LlmImage } from "../llm/types";
import type { McpBlocked, McpServerView, McpTransport } from "../../shared/mcpView";
// The view types live in shared: the MCP view reads the same shapes.
export type { McpTransport, McpBlockReason, McpBlocked, McpShownValue, McpLaunchView, McpServerState, McpToolInfo, McpResourceInfo, McpTemplateInfo, McpServerView } from "../../shared/mcpView";

/**
 * What the MCP hub is made of, shared by its parts: the config (config.ts), the connections
 * (McpHub.ts) and the tools that call servers (tools/useMcpTool.ts, tools/accessMcpResource.ts).
 */

/** One server entry, validated, with ${env:NAME} and ${workspaceFolder} expanded. */
export interface McpServerConfig {
  name: string;
  /** Which file it came from: the project's .kilocode/mcp.json wins over the global file. */
  source: "project" | "global";
  transport: McpTransport;
  /** stdio */
  command?: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  /** sse and streamable-http */
  url?: string;
  headers: Record<string, string>;
  disabled: boolean;
  /** Per request, 1–3600 s (default 60). */
  timeoutSeconds: number;
  /** Tool names that run without asking. */
  alwaysAllow: string[];
  /** Tool names left out of the prompt and refused. */
  disabledTools: string[];
  /** Files whose change restarts the server. */
  watchPaths: string[];
  /** The launch fields as the file writes them; what a project server's approval covers (trust.ts). Absent for entries made in code. */
  written?: McpLaunch;
  /** A project server that may not start (trust.ts): the hub lists it with the reason and starts nothing. */
  blocked?: McpBlocked;
}

/**
 * What decides what a server runs or reaches, before `${env:…}` and `${workspaceFolder}` are
 * expanded: the written form holds references to the user's variables, never their values.
 */
export interface McpLaunch {
  transport: McpTransport;
  command?: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  url?: string;
  headers: Record<string, string>;
}

export interface McpConfigResult {
  servers: McpServerConfig[];
  /** Each names the file, the server and the field; the other servers are kept. */
  errors: string[];
}

/** A tool result or a resource, ready for the model. */
export interface McpCallResult {
  text: string;
  images: LlmImage[];
  isError: boolean;
}

/** What the tools and the prompt need of the hub; the hub implements it. */
export interface McpHubApi {
  servers(): McpServerView[];
  /** hooks: progress reports, and the caller's tag for the requests the server makes meanwhile. */
  callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal, hooks?: McpCallHooks): Promise<McpCallResult>;
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpCallResult>;
}

export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a tool call may carry besides its arguments. */
export interface McpCallHooks {
  onProgress?(progress: McpProgress): void;
  /** Handed to the requests the server makes while this call runs, so the host asks in the right chat. */
  caller?: unknown;
}
