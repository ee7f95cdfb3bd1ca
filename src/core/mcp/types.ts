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

/** untrusted-workspace: VS Code's Workspace Trust says no; not-approved: never allowed here; changed: allowed, but not as it is now. */
export type McpBlockReason = "untrusted-workspace" | "not-approved" | "changed";

export interface McpBlocked {
  reason: McpBlockReason;
  /** The entry as it is now; allowing it records this, so a later change asks again. */
  fingerprint: string;
  launch: McpLaunchView;
}

/** A variable or header as the approval card shows it: value absent when it looks like a secret. */
export interface McpShownValue {
  name: string;
  value?: string;
  /** The written value's length, so a masked one still shows that something is there. */
  length: number;
}

/** What a blocked server would run, for the person deciding: the written form, secret-looking literals masked. */
export interface McpLaunchView {
  transport: McpTransport;
  command?: string;
  args: string[];
  /** Where it would run, expanded (the workspace folder when the entry names none). */
  cwd?: string;
  env: McpShownValue[];
  url?: string;
  headers: McpShownValue[];
}

export interface McpConfigResult {
  servers: McpServerConfig[];
  /** Each names the file, the server and the field; the other servers are kept. */
  errors: string[];
}

/** needs-approval: a project server not started until the workspace is trusted and its entry allowed. */
export type McpServerState = "connecting" | "connected" | "error" | "disabled" | "needs-approval";

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
  /** Why it is in the error state, or why it was not started. */
  error?: string;
  /** Set in the needs-approval state: what it would run, and what allowing it records. */
  blocked?: McpBlocked;
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
