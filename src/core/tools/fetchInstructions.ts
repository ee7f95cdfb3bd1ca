import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { defineTool } from "./defineTool";
import { p } from "./params";
import { said, view } from "./present";

const CREATE_MCP_SERVER = `# Creating an MCP server for Kiln

An MCP server is a separate program that gives Kiln new tools (and resources). Kiln starts it and talks
to it over stdio, or connects to it over HTTP.

## 1. Write the server
TypeScript, with the official SDK (\`npm install @modelcontextprotocol/sdk zod\`), in its own folder:

\`\`\`ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });
server.registerTool(
  "get_forecast",
  { description: "Forecast for a city", inputSchema: { city: z.string().describe("City name") } },
  async ({ city }) => ({ content: [{ type: "text", text: \`Sunny in \${city}\` }] }),
);
await server.connect(new StdioServerTransport());
\`\`\`

Python: \`pip install mcp\`, then \`from mcp.server.fastmcp import FastMCP\`, \`mcp = FastMCP("weather")\`,
decorate functions with \`@mcp.tool()\` (type hints and the docstring become the schema), \`mcp.run()\`.

Rules that save debugging time:
- A stdio server must write nothing but protocol messages to stdout: log to stderr.
- Give every tool a clear description and typed, described parameters: the model reads them.
- Return errors as a result with \`isError: true\` and a message saying what to fix; do not crash.
- Secrets (API keys) come from environment variables set in the config, never from the code.
- Build it (e.g. \`npx tsc\`) and run it once by hand to see that it starts.

## 2. Register it
Project servers go in \`.kilocode/mcp.json\` in the workspace (global ones in Kiln's mcp_settings.json;
a project entry with the same name wins):

\`\`\`json
{
  "mcpServers": {
    "weather": {
      "command": "node",
      "args": ["/absolute/path/to/weather/build/index.js"],
      "env": { "WEATHER_API_KEY": "..." }
    },
    "remote-docs": { "type": "streamable-http", "url": "https://example.com/mcp" }
  }
}
\`\`\`

- stdio: \`command\`, \`args\`, optional \`cwd\` and \`env\` (the server sees only a few basic
  variables such as PATH and HOME plus those in \`env\`; \`\${env:NAME}\` copies one from Kiln's environment).
- HTTP: \`url\` (optional \`headers\`) with \`type\` \`"streamable-http"\` or \`"sse"\`; without \`type\`, a URL
  ending in /sse means SSE and any other URL streamable HTTP.
- Optional for both: \`disabled\`, \`timeout\` (seconds, default 60), \`alwaysAllow\` (tool names that run
  without asking), \`disabledTools\`.

Kiln watches the file and (re)connects a server when its entry changes. Editing files under .kilocode/
always asks the user. Once connected, the server's tools are called with use_mcp_tool.`;

const CREATE_MODE = `# Creating a custom mode for Kiln

A mode gives Kiln a role and decides which tool groups it may use; the groups are enforced when a
tool is called, not only stated in the prompt.

Project modes live in \`.kilocodemodes\` at the workspace root, YAML or JSON (global modes in Kiln's
global modes file; a project mode with the same slug wins). Editing the file always asks the user.

\`\`\`yaml
customModes:
  - slug: docs-writer
    name: Docs Writer
    roleDefinition: You are Kiln, a technical writer who keeps the documentation accurate and short.
    whenToUse: Writing or updating Markdown documentation.
    description: Edits Markdown only
    customInstructions: Match the existing tone. Link to the source instead of repeating it.
    groups:
      - read
      - - edit
        - fileRegex: \\.md$
          description: Markdown files only
      - command
\`\`\`

The same in JSON: \`{"customModes": [{"slug": "docs-writer", "name": "Docs Writer", "roleDefinition": "…",
"groups": ["read", ["edit", {"fileRegex": "\\\\.md$", "description": "Markdown files only"}]]}]}\`.

Fields:
- \`slug\` (required): unique id, lowercase letters, digits and dashes; used by switch_mode and new_task.
- \`name\` (required): shown to the user.
- \`roleDefinition\` (required): the start of the system prompt; who Kiln is in this mode.
- \`groups\` (required): any of \`read\`, \`edit\`, \`command\`, \`browser\`, \`mcp\`. A group is a name, or
  \`[name, {fileRegex, description}]\` to limit the paths it may touch (a JavaScript regex on the path
  relative to the workspace; in JSON write each backslash twice). Asking questions, finishing and switching
  modes are always available.
- \`whenToUse\` (optional): when to pick this mode; the orchestrator reads it to delegate.
- \`description\` (optional): a short summary for the mode picker.
- \`customInstructions\` (optional): extra rules added to the system prompt.`;

const INSTRUCTIONS = { create_mcp_server: CREATE_MCP_SERVER, create_mode: CREATE_MODE } as const;

export const fetchInstructionsTool = defineTool({
  name: "fetch_instructions",
  group: "read",
  description: "Get Kiln's instructions for a task: create_mcp_server (write an MCP server and register it) or create_mode (define a custom mode).",
  params: {
    task: p.string("Which instructions to get", { enum: Object.keys(INSTRUCTIONS) }),
  },
  present(args, status) {
    return view({
      icon: "book",
      title: said(status, {
        wants: () => l10n.t("Kiln wants to read the instructions for {0}", TARGET_SLOT),
        doing: () => l10n.t("Kiln is reading the instructions for {0}", TARGET_SLOT),
        did: () => l10n.t("Kiln read the instructions for {0}", TARGET_SLOT),
        denied: () => l10n.t("Kiln was not allowed to read the instructions for {0}", TARGET_SLOT),
        failed: () => l10n.t("Kiln could not read the instructions for {0}", TARGET_SLOT),
      }),
      target: args.task,
    });
  },
  async execute(args) {
    return { kind: "result", text: INSTRUCTIONS[args.task as keyof typeof INSTRUCTIONS] };
  },
});
