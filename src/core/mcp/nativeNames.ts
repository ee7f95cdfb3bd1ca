import type { NativeTool } from "../llm/types";
import type { ToolUseBlock } from "../toolcall/types";
import type { McpServerView } from "./types";

/** Providers' limit on a function name. */
const MAX_NAME = 64;
const PREFIX = "mcp--";

interface McpFunction {
  name: string;
  server: string;
  tool: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Letters, digits, _ and - are what every provider takes in a function name. */
function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_").replace(/-{2,}/g, "-") || "_";
}

/**
 * One native function per enabled tool of each connected server, `mcp--<server>--<tool>`: cleaned,
 * at most 64 characters (long parts shortened), a clash numbered. Sorted by server and tool, so
 * the same servers give the same list and the prompt caches well.
 */
export function mcpFunctions(servers: readonly McpServerView[] | undefined): McpFunction[] {
  const pairs = (servers ?? [])
    .filter((s) => s.state === "connected")
    .flatMap((s) => s.tools.filter((t) => t.enabled).map((t) => ({ server: s.name, tool: t })))
    .sort((a, b) => a.server.localeCompare(b.server) || a.tool.name.localeCompare(b.tool.name));
  const taken = new Set<string>();
  return pairs.map(({ server, tool }) => {
    const serverPart = clean(server).slice(0, 20);
    const base = `${PREFIX}${serverPart}--${clean(tool.name)}`.slice(0, MAX_NAME);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    const schema = tool.inputSchema.type === "object" ? tool.inputSchema : { type: "object", properties: {} };
    return { name, server, tool: tool.name, description: `${tool.description ?? tool.name} (MCP server ${server})`, parameters: schema };
  });
}

export function mcpNativeTools(servers: readonly McpServerView[] | undefined): NativeTool[] {
  return mcpFunctions(servers).map(({ name, description, parameters }) => ({ name, description, parameters }));
}

/** A native call of an MCP function as the use_mcp_tool call it stands for; other calls unchanged. */
export function asUseMcpTool(block: ToolUseBlock, servers: readonly McpServerView[] | undefined): ToolUseBlock {
  if (!block.name.startsWith(PREFIX)) return block;
  const fn = mcpFunctions(servers).find((f) => f.name === block.name);
  if (!fn) return block;
  return { ...block, name: "use_mcp_tool", params: { server_name: fn.server, tool_name: fn.tool, arguments: JSON.stringify(block.input ?? {}) } };
}
