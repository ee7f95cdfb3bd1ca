import type { LlmImage } from "../llm/types";
import type { McpCallHooks } from "./requests";

/**
 * What the MCP hub is made of, shared by its parts: the config (config.ts), the connections
 * (McpHub.ts) and the tools that call servers (tools/useMcpTool.ts, tools/accessMcpResource.ts).
 */

export type McpTransport = "stdio" | "sse" | "streamable-http";

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
}

export interface McpConfigResult {
  servers: McpServerConfig[];
  /** Each names the file, the server and the field; the other servers are kept. */
  errors: string[];
}

export type McpServerState = "connecting" | "connected" | "error" | "disabled";

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  alwaysAllow: boolean;
  enabled: boolean;
}

export interface McpResourceInfo {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
}

export interface McpTemplateInfo {
  uriTemplate: string;
  name?: string;
  description?: string;
  mimeType?: string;
}

export interface McpServerView {
  name: string;
  source: "project" | "global";
  transport: McpTransport;
  state: McpServerState;
  /** Why it is in the error state. */
  error?: string;
  tools: McpToolInfo[];
  resources: McpResourceInfo[];
  templates: McpTemplateInfo[];
  prompts: { name: string; description?: string }[];
  /** The server's own instructions, from its initialize answer. */
  instructions?: string;
  /** The tail of its stderr and of Kiln's notes about it. */
  log: string[];
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
