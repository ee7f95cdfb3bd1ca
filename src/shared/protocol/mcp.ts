import { z } from "zod";
import type { McpServerView } from "../mcpView";
import { method, type Done } from "./requests";

/**
 * The MCP view's messages, part of the chat page's protocol (messages.ts joins them in). The page
 * shows what servers say (names, descriptions, logs), so everything it sends back is checked here.
 */

const server = z.string().min(1).max(200);
const scope = z.enum(["project", "global"]);
export type McpScope = z.infer<typeof scope>;

/** The "Add server" form as typed; checkServerForm and then the host (as the file loader would) check it. */
export const McpServerFormSchema = z
  .object({
    name: z.string().max(200),
    scope,
    transport: z.enum(["stdio", "sse", "streamable-http"]),
    command: z.string().max(4_000),
    /** One argument per entry, so spaces inside an argument need no quoting. */
    args: z.array(z.string().max(4_000)).max(100),
    url: z.string().max(4_000),
    env: z.array(z.object({ name: z.string().max(200), value: z.string().max(10_000) }).strict()).max(100),
  })
  .strict();
export type McpServerForm = z.infer<typeof McpServerFormSchema>;

export const MCP_MESSAGES = [
  /** The page shows the MCP view: the host sends mcp/state now and on each change until mcp/close. */
  z.object({ type: z.literal("mcp/open") }).strict(),
  z.object({ type: z.literal("mcp/close") }).strict(),
] as const;
/** Each answers a line for the status bar, or fails with what went wrong (requests.ts). */
const mcpRequest = method<Done>();
export const MCP_REQUESTS = {
  "mcp/restart": mcpRequest(z.object({ server }).strict()),
  "mcp/setDisabled": mcpRequest(z.object({ server, disabled: z.boolean() }).strict()),
  /** enabled: the tool is offered to the model (disabledTools); alwaysAllow: it runs without asking. */
  "mcp/setTool": mcpRequest(z.object({ server, tool: z.string().min(1).max(200), flag: z.enum(["enabled", "alwaysAllow"]), value: z.boolean() }).strict()),
  "mcp/delete": mcpRequest(z.object({ server }).strict()),
  /** Opens the server's config file in the editor, at its entry. */
  "mcp/edit": mcpRequest(z.object({ server }).strict()),
  "mcp/add": mcpRequest(z.object({ form: McpServerFormSchema }).strict()),
  /** Opens the project's or the global config file, made with an empty server list if missing. */
  "mcp/openFile": mcpRequest(z.object({ scope }).strict()),
  /**
   * "Allow and start" on a project server that needs approval: fingerprint is the entry the card
   * showed, so the host allows that entry and no other (a changed one is shown again instead).
   */
  "mcp/approve": mcpRequest(z.object({ server, fingerprint: z.string().regex(/^[0-9a-f]{64}$/) }).strict()),
  /** Opens VS Code's Manage Workspace Trust, where an untrusted workspace's servers are let start. */
  "mcp/manageTrust": mcpRequest(z.object({}).strict()),
};
export type McpRequests = typeof MCP_REQUESTS;
export type McpMethod = keyof McpRequests;
export type McpToHost = z.infer<(typeof MCP_MESSAGES)[number]>;

export function isMcpMessage(message: { type: string }): message is McpToHost {
  return message.type.startsWith("mcp/");
}

export interface McpFileInfo {
  path: string;
  exists: boolean;
}

export interface McpViewState {
  servers: McpServerView[];
  /** Problems of both files (each names its file and server); servers with an error are left out. */
  errors: string[];
  /** The project file is absent when no folder is open. */
  files: { project?: McpFileInfo; global: McpFileInfo };
}

export type HostToMcpView =
  | { type: "mcp/state"; state: McpViewState }
  /** Kiln: MCP Servers: the page switches to the MCP view. */
  | { type: "mcp/show" };
