import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { checkArguments } from "../mcp/argumentCheck";
import { progressText } from "../mcp/requests";
import type { McpHubApi, McpServerView } from "../mcp/types";
import { untrusted } from "../prompts/untrusted";
import { parseJsonWithinLimits } from "../toolcall/jsonLimits";
import { defineTool, toolError, type ToolOutcome } from "./defineTool";
import { p } from "./params";
import { fieldsBody, said, view } from "./present";

/** The server, connected, or the error the model can act on. */
export function connectedServer(hub: McpHubApi | undefined, name: string): McpServerView | ToolOutcome {
  if (!hub) return toolError("unavailable", "no MCP servers are configured here.");
  const servers = hub.servers();
  const server = servers.find((s) => s.name === name);
  if (!server) {
    const names = servers.map((s) => s.name);
    return toolError("not_found", `there is no MCP server "${name}". ${names.length ? `Servers: ${names.join(", ")}.` : "No servers are configured."}`);
  }
  if (server.state === "needs-approval") {
    return toolError(
      "unavailable",
      `MCP server "${name}" has not been started: it comes from the project's .kilocode/mcp.json and the user has not allowed it yet${server.error ? ` (${server.error})` : ""}. Ask the user to allow it in Kiln's MCP view, or do without it.`,
    );
  }
  if (server.state !== "connected") return toolError("unavailable", `MCP server "${name}" is ${server.state}${server.error ? ` (${server.error})` : ""}; it cannot be used now.`);
  return server;
}

function parseArguments(raw: string | undefined): Record<string, unknown> | string {
  if (raw === undefined || raw.trim() === "") return {};
  const parsed = parseJsonWithinLimits(raw);
  if (!parsed.ok) return `arguments is ${parsed.error}`;
  const value = parsed.value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return "arguments must be a JSON object";
}

export const useMcpToolTool = defineTool({
  name: "use_mcp_tool",
  group: "mcp",
  description: "Call a tool of a connected MCP server (the servers and their tools are listed under MCP servers). arguments is a JSON object that matches the tool's input schema.",
  params: {
    server_name: p.string("The MCP server's name"),
    tool_name: p.string("The tool's name on that server"),
    arguments: p.string("The tool's arguments as a JSON object", { optional: true, raw: true }),
  },
  present(args, status) {
    return view(
      {
        icon: "plug",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to use {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is using {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln used {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to use {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not use {0}", TARGET_SLOT),
        }),
        target: [args.server_name, args.tool_name].filter(Boolean).join(" · "),
      },
      fieldsBody([[l10n.t("arguments"), args.arguments]], true),
    );
  },
  approval: (args) => ({
    summary: args.arguments?.trim()
      ? l10n.t("Use {0} on {1} with {2}", args.tool_name, args.server_name, args.arguments.trim().slice(0, 200))
      : l10n.t("Use {0} on {1}", args.tool_name, args.server_name),
    paths: [],
    // Checked first (server, tool, arguments), then asked: the user approves a call that can run.
    reviewed: true,
    mcpTool: { server: args.server_name, tool: args.tool_name },
  }),
  async execute(args, context) {
    const server = connectedServer(context.mcp, args.server_name);
    if ("kind" in server) return server;
    const tool = server.tools.find((t) => t.name === args.tool_name);
    if (!tool)
      return toolError(
        "not_found",
        `MCP server "${server.name}" has no tool "${args.tool_name}". Its tools: ${
          server.tools
            .filter((t) => t.enabled)
            .map((t) => t.name)
            .join(", ") || "none"
        }.`,
      );
    if (!tool.enabled) return toolError("unavailable", `the user turned off ${tool.name} on "${server.name}".`);
    const parsed = parseArguments(args.arguments);
    if (typeof parsed === "string") return toolError("invalid_args", `${parsed}.`);
    const problem = checkArguments(tool.inputSchema, parsed);
    if (problem) return toolError("invalid_args", `${problem}. The input schema of ${tool.name}: ${JSON.stringify(tool.inputSchema)}`);
    const decision = context.approve ? await context.approve() : { approved: true as const };
    if (!decision.approved) return { kind: "denied", feedback: decision.feedback };
    const progress = context.progress;
    const result = await context.mcp!.callTool(server.name, tool.name, parsed, context.signal, progress ? { onProgress: (p) => progress(progressText(p)) } : {});
    // The server's words, error or not, are data for the model: it may not take orders from them.
    const source = `mcp:${server.name}/${tool.name}`;
    if (result.isError) return toolError("mcp", `${server.name}/${tool.name} reported an error:\n${untrusted(source, result.text || "(no message)")}`);
    return { kind: "result", text: result.text ? untrusted(source, result.text) : "(the tool returned nothing)", ...(result.images.length ? { images: result.images } : {}) };
  },
});

export const accessMcpResourceTool = defineTool({
  name: "access_mcp_resource",
  group: "mcp",
  description: "Read a resource of a connected MCP server by its URI (its resources and URI templates are listed under MCP servers).",
  params: {
    server_name: p.string("The MCP server's name"),
    uri: p.string("The resource's URI"),
  },
  present(args, status) {
    const verbs = {
      wants: () => l10n.t("Kiln wants to read a resource from {0}", TARGET_SLOT),
      doing: () => l10n.t("Kiln is reading a resource from {0}", TARGET_SLOT),
      did: () => l10n.t("Kiln read a resource from {0}", TARGET_SLOT),
      denied: () => l10n.t("Kiln was not allowed to read a resource from {0}", TARGET_SLOT),
      failed: () => l10n.t("Kiln could not read a resource from {0}", TARGET_SLOT),
    };
    return view({ icon: "plug", title: said(status, verbs), target: args.server_name }, fieldsBody([[l10n.t("URI"), args.uri]]));
  },
  approval: (args) => ({ summary: l10n.t("Read {0} from {1}", args.uri, args.server_name), paths: [], reviewed: true }),
  async execute(args, context) {
    const server = connectedServer(context.mcp, args.server_name);
    if ("kind" in server) return server;
    const decision = context.approve ? await context.approve() : { approved: true as const };
    if (!decision.approved) return { kind: "denied", feedback: decision.feedback };
    const result = await context.mcp!.readResource(server.name, args.uri.trim(), context.signal);
    const source = `mcp:${server.name}/${args.uri.trim()}`;
    if (result.isError) return toolError("mcp", `reading ${args.uri} from ${server.name} failed:\n${untrusted(source, result.text)}`);
    return { kind: "result", text: result.text ? untrusted(source, result.text) : "(the resource is empty)", ...(result.images.length ? { images: result.images } : {}) };
  },
});
