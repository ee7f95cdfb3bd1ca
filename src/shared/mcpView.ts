/**
 * What the MCP view shows of a server: kept here, apart from the hub, so the webview reads the same
 * shapes the host sends without reaching into the core.
 */

export type McpTransport = "stdio" | "sse" | "streamable-http";

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

/** A server from the "Add server" form: stdio with a command, or a URL. */
export interface NewServer {
  name: string;
  transport: McpTransport;
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
}
