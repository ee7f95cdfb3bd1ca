import * as assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { allowMcpServer, COMPLETE, kiln, promptOf, removeMcpConfig, startTurn, useFakeModel, waitFor, writeMcpConfig, xmlCall } from "./helpers";

// The suite runs from out/test/vscode: the repository, with its node_modules, is three folders up.
const EVERYTHING = join(__dirname, "..", "..", "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

describe("MCP servers from .kilocode/mcp.json in the real host", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(async () => {
    await removeMcpConfig();
    await server.close();
  });
  beforeEach(async () => {
    restore = await useFakeModel(server);
  });
  afterEach(() => restore());

  it("connects the server, lists it in the prompt, and a tool call approved on its card reaches it", async () => {
    const api = await kiln();
    writeMcpConfig(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    await api.mcp.reload();
    await allowMcpServer("everything");
    const connected = await waitFor("the server to connect", () => api.mcp.hub.servers().find((s) => s.name === "everything" && s.state === "connected"), 45_000);
    assert.ok(
      connected.tools.some((t) => t.name === "echo"),
      connected.tools.map((t) => t.name).join(", "),
    );

    api.sidebar.newTask();
    server.enqueue(xmlCall("use_mcp_tool", { server_name: "everything", tool_name: "echo", arguments: '{"message": "hello from Kiln"}' }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Echo something");
    const card = await turn.card();
    assert.equal(card.approval?.summary, 'Use echo on everything with {"message": "hello from Kiln"}');
    turn.answer(card.id, true);
    await turn.done;
    const first = promptOf(server.requests.at(-2)!);
    assert.match(first.system, /# MCP servers[\s\S]*## everything[\s\S]*- echo:/);
    assert.match(promptOf(server.requests.at(-1)!).all, /Echo: hello from Kiln/);
  });

  it("a config that is not valid JSON is reported with its name, and the running server keeps going", async () => {
    const api = await kiln();
    writeMcpConfig(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    await api.mcp.reload();
    await allowMcpServer("everything");
    await waitFor("the server to connect", () => api.mcp.hub.servers().find((s) => s.state === "connected"), 45_000);
    writeMcpConfig('{ "mcpServers": { "everything": ');
    await api.mcp.reload();
    assert.match(api.mcp.errors.join("\n"), /\.kilocode\/mcp\.json/);
    assert.equal(api.mcp.hub.servers().find((s) => s.name === "everything")?.state, "connected");
    writeMcpConfig(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"], disabled: true } } }));
    await api.mcp.reload();
    await waitFor("the server to be disabled", () => (api.mcp.hub.servers().find((s) => s.name === "everything")?.state === "disabled" ? true : undefined));
  });

  it("Edit Global MCP Config opens the global file, made with an empty list", async () => {
    const api = await kiln();
    await vscode.commands.executeCommand("kiln.editGlobalMcpConfig");
    const editor = await waitFor("the global file in an editor", () => vscode.window.activeTextEditor);
    assert.equal(editor.document.uri.fsPath, api.mcp.globalFile.fsPath);
    assert.deepEqual(JSON.parse(editor.document.getText()), { mcpServers: {} });
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
});
