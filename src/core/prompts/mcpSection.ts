import type { McpServerView } from "../mcp/types";

/** Descriptions and schemas come from servers: kept to a size that cannot drown the prompt. */
const MAX_DESCRIPTION = 1_000;
const MAX_SCHEMA = 4_000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Whether any server can be used: the MCP tools are offered only then. */
export function hasUsableServers(servers: readonly McpServerView[] | undefined): boolean {
  return (servers ?? []).some((s) => s.state === "connected");
}

/**
 * The connected servers with their tools (name, description, input schema), resources and
 * templates, for modes with the mcp group. Sorted by name so the prompt stays the same between
 * requests and caches well.
 */
export function mcpSection(servers: readonly McpServerView[] | undefined): string {
  const usable = [...(servers ?? [])].filter((s) => s.state === "connected").sort((a, b) => a.name.localeCompare(b.name));
  if (usable.length === 0) return "";
  const parts = usable.map((server) => {
    const lines = [`## ${server.name}`];
    if (server.instructions) lines.push("", clip(server.instructions, MAX_DESCRIPTION));
    const tools = server.tools.filter((t) => t.enabled).sort((a, b) => a.name.localeCompare(b.name));
    if (tools.length) {
      lines.push("", "### Tools (use_mcp_tool)");
      for (const tool of tools) lines.push(`- ${tool.name}: ${clip(tool.description ?? "", MAX_DESCRIPTION)}`, `    Input schema: ${clip(JSON.stringify(tool.inputSchema), MAX_SCHEMA)}`);
    }
    if (server.resources.length) {
      lines.push("", "### Resources (access_mcp_resource)");
      for (const r of server.resources.slice(0, 50)) lines.push(`- ${r.uri}${r.name ? ` (${r.name})` : ""}${r.description ? `: ${clip(r.description, 200)}` : ""}`);
    }
    if (server.templates.length) {
      lines.push("", "### Resource templates (access_mcp_resource, with the placeholders filled in)");
      for (const t of server.templates.slice(0, 50)) lines.push(`- ${t.uriTemplate}${t.name ? ` (${t.name})` : ""}${t.description ? `: ${clip(t.description, 200)}` : ""}`);
    }
    return lines.join("\n");
  });
  return `\n\n# MCP servers\n\nConnected MCP servers give you more tools and resources. Call a tool with use_mcp_tool (server_name, tool_name, arguments as JSON) and read a resource with access_mcp_resource (server_name, uri).\n\n${parts.join("\n\n")}`;
}
