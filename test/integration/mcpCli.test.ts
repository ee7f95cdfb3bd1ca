import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

const MODULES = resolve("node_modules", "@modelcontextprotocol");
let server: FakeModelServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

/** A workspace whose .kilocode/mcp.json runs server-filesystem on it and server-everything, both over stdio. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-mcp-cli-"));
  writeFileSync(join(dir, "notes.txt"), "the secret word is kiln\n");
  mkdirSync(join(dir, ".kilocode"));
  const servers = {
    files: { command: process.execPath, args: [join(MODULES, "server-filesystem", "dist", "index.js"), "${workspaceFolder}"] },
    everything: { command: process.execPath, args: [join(MODULES, "server-everything", "dist", "index.js"), "stdio"] },
  };
  writeFileSync(join(dir, ".kilocode", "mcp.json"), JSON.stringify({ mcpServers: servers }));
  return dir;
}

function call(protocol: "xml" | "native", name: string, args: Record<string, string>): ScriptedTurn {
  if (protocol === "native") return { toolCalls: [{ id: `call_${name}_${Math.random().toString(36).slice(2, 7)}`, name, arguments: args }] };
  return {
    text: `<${name}>\n${Object.entries(args)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join("\n")}\n</${name}>`,
  };
}

const sent = (r: RecordedRequest) => JSON.stringify(r.body.messages);

describe("kiln run with MCP servers from .kilocode/mcp.json", () => {
  it.each(["xml", "native"] as const)("calls a server-filesystem tool and reads a server-everything resource (%s)", async (protocol) => {
    const dir = workspace();
    const before = server.requests.length;
    server.enqueue(
      call(protocol, "use_mcp_tool", { server_name: "files", tool_name: "read_text_file", arguments: JSON.stringify({ path: join(dir, "notes.txt") }) }),
      call(protocol, "access_mcp_resource", { server_name: "everything", uri: "demo://resource/dynamic/text/1" }),
      call(protocol, "attempt_completion", { result: "Found the word." }),
    );
    const result = await runCli(
      cli,
      ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", dir, "--protocol", protocol, "--approve", "read,mcp", "--trust-project-mcp", "What is the secret word?"],
      { OPENAI_API_KEY: "sk-mcp" },
    );
    expect(result.stderr).not.toMatch(/MCP: /);
    expect(result.code).toBe(0);
    const [first, second, third] = server.requests.slice(before);
    expect(JSON.stringify(first!.body)).toMatch(/use_mcp_tool/);
    if (protocol === "xml") expect(JSON.stringify(first!.body.messages)).toMatch(/## files[\s\S]*read_text_file/);
    expect(sent(second!)).toContain("the secret word is kiln");
    expect(sent(third!)).toMatch(/Resource 1/i);
    expect(result.stdout).toContain("Found the word.");
  });

  it("a broken entry is named on stderr and the run goes on with the other server", async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, ".kilocode", "mcp.json"),
      JSON.stringify({ mcpServers: { bad: { timeout: 0 }, everything: { command: process.execPath, args: [join(MODULES, "server-everything", "dist", "index.js"), "stdio"] } } }),
    );
    server.enqueue(call("xml", "use_mcp_tool", { server_name: "everything", tool_name: "echo", arguments: '{"message":"still here"}' }), call("xml", "attempt_completion", { result: "ok" }));
    const result = await runCli(cli, ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", dir, "--approve", "read,mcp", "--trust-project-mcp", "echo"], {
      OPENAI_API_KEY: "sk-mcp",
    });
    expect(result.stderr).toMatch(/kiln: MCP: \.kilocode\/mcp\.json: server "bad"/);
    expect(result.code).toBe(0);
    expect(sent(server.requests.at(-1)!)).toContain("still here");
  });

  it("in the native protocol each MCP tool is a function of its own, and a call of it reaches the server", async () => {
    const dir = workspace();
    const before = server.requests.length;
    server.enqueue({ toolCalls: [{ id: "call_echo", name: "mcp--everything--echo", arguments: { message: "called directly" } }] }, call("native", "attempt_completion", { result: "done" }));
    const result = await runCli(
      cli,
      ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", dir, "--protocol", "native", "--approve", "read,mcp", "--trust-project-mcp", "echo"],
      { OPENAI_API_KEY: "sk-mcp" },
    );
    expect(result.code).toBe(0);
    const [first, second] = server.requests.slice(before);
    const functions = (first!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(functions).toContain("mcp--everything--echo");
    expect(functions).toContain("mcp--files--read_text_file");
    expect(sent(second!)).toContain("Echo: called directly");
  });
});
