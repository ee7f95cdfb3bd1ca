import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { McpServerView } from "../../../src/core/mcp/types";
import type { McpMethod, McpRequests, McpServerForm, McpViewState } from "../../../src/shared/protocol/mcp";
import type { ParamsOf } from "../../../src/shared/protocol/requests";
import { allowMcpServer, kiln, requestOn, waitFor, type RequestAnswer } from "./helpers";

// The suite runs from out/test/vscode: the repository, with its node_modules, is three folders up.
const EVERYTHING = join(__dirname, "..", "..", "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const CONNECT_MS = 45_000;

/** A request as one value: its method as `type`, beside its params. */
type McpRequest = { [K in McpMethod]: { type: K } & ParamsOf<McpRequests, K> }[McpMethod];

describe("The MCP view in the real host (sidebar, mcp/* messages)", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const configFile = join(workspace, ".kilocode", "mcp.json");
  const watched = join(workspace, ".kilocode", "server-build.txt");
  // As a person wrote it: 4 spaces, a one-line args list, a field Kiln does not use, a key of another tool.
  const written = (extra = "") => `{
    "mcpServers": {
        "everything": {
            "command": ${JSON.stringify(process.execPath)},
            "args": [${JSON.stringify(EVERYTHING)}, "stdio"],
            "autoApprove": []${extra}
        }
    },
    "theme": "kept"
}
`;
  let latest: McpViewState | undefined;
  let listener: vscode.Disposable | undefined;

  const write = (text: string) => {
    mkdirSync(join(workspace, ".kilocode"), { recursive: true });
    writeFileSync(configFile, text);
  };
  const serverIn = (name: string, state = latest) => state?.servers.find((s) => s.name === name);
  const waitForServer = (what: string, name: string, check: (s: McpServerView) => boolean) =>
    waitFor(
      what,
      () => {
        const server = serverIn(name);
        return server && check(server) ? server : undefined;
      },
      CONNECT_MS,
    );
  const connectedLines = (name: string) => (serverIn(name)?.log ?? []).filter((l) => l.includes("[kiln] connected")).length;

  /** Sends a request as the page does and resolves with the host's answer to it. */
  async function request({ type, ...params }: McpRequest): Promise<RequestAnswer> {
    return requestOn((await kiln()).sidebar, type, params);
  }

  /** Resolves once a watcher has seen the next change of the config file and Kiln is done with it. */
  async function nextWatcherEvent(): Promise<() => Promise<void>> {
    const api = await kiln();
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(join(workspace, ".kilocode")), "mcp.json"));
    // A write by rename may come as a change or as a create.
    const seen = new Promise<void>((resolve) => {
      watcher.onDidChange(() => resolve());
      watcher.onDidCreate(() => resolve());
    });
    return async () => {
      await seen;
      watcher.dispose();
      // Queued after the reload that event asked for (if any), and itself a no-op for unchanged files.
      await api.mcp.reload(true);
    };
  }

  before(async () => {
    const api = await kiln();
    listener = api.sidebar.onDidPost((m) => {
      if (m.type === "mcp/state") latest = m.state;
    });
    api.sidebar.receive({ type: "mcp/open" });
  });
  after(async () => {
    const api = await kiln();
    api.sidebar.receive({ type: "mcp/close" });
    listener?.dispose();
    // The folder too: the suites share the workspace, and it has no .kilocode of its own.
    rmSync(join(workspace, ".kilocode"), { recursive: true, force: true });
    await api.mcp.reload();
  });
  beforeEach(async () => {
    const api = await kiln();
    write(written());
    await api.mcp.reload();
    await allowMcpServer("everything");
    await waitForServer("everything to connect", "everything", (s) => s.state === "connected");
  });

  it("shows the project's server connected, with its tools, transport and file", async () => {
    const server = serverIn("everything")!;
    assert.equal(server.source, "project");
    assert.equal(server.transport, "stdio");
    const echo = server.tools.find((t) => t.name === "echo");
    assert.ok(echo, server.tools.map((t) => t.name).join(", "));
    assert.deepEqual({ enabled: echo.enabled, alwaysAllow: echo.alwaysAllow }, { enabled: true, alwaysAllow: false });
    assert.deepEqual(latest!.files.project, { path: configFile, exists: true });
  });

  it("always allow writes alwaysAllow into the file, keeps the rest as written, and leaves the server running", async () => {
    const api = await kiln();
    const pid = api.mcp.hub.pidOf("everything");
    assert.ok(pid);
    assert.equal(connectedLines("everything"), 1);
    const settled = await nextWatcherEvent();
    const result = await request({ type: "mcp/setTool", server: "everything", tool: "echo", flag: "alwaysAllow", value: true });
    assert.deepEqual({ ok: result.ok, message: result.message }, { ok: true, message: "echo runs without asking." });
    assert.equal(readFileSync(configFile, "utf8"), written(',\n            "alwaysAllow": ["echo"]'));
    assert.equal(serverIn("everything")!.tools.find((t) => t.name === "echo")!.alwaysAllow, true);
    // The watcher's event for Kiln's own write comes and goes without a reconnect.
    await settled();
    assert.equal(api.mcp.hub.pidOf("everything"), pid);
    assert.equal(api.mcp.hub.servers().find((s) => s.name === "everything")?.state, "connected");
    assert.equal(connectedLines("everything"), 1);

    // Turning a tool off writes disabledTools; the same server process still runs.
    await request({ type: "mcp/setTool", server: "everything", tool: "get-sum", flag: "enabled", value: false });
    assert.deepEqual(JSON.parse(readFileSync(configFile, "utf8")).mcpServers.everything.disabledTools, ["get-sum"]);
    assert.equal(serverIn("everything")!.tools.find((t) => t.name === "get-sum")!.enabled, false);
    assert.equal(api.mcp.hub.pidOf("everything"), pid);
  });

  it("Disable stops the server and Enable starts it again, giving back the file as it was", async () => {
    const result = await request({ type: "mcp/setDisabled", server: "everything", disabled: true });
    assert.equal(result.ok, true, result.message);
    assert.equal(readFileSync(configFile, "utf8"), written(',\n            "disabled": true'));
    await waitForServer("the server to be disabled", "everything", (s) => s.state === "disabled");
    await request({ type: "mcp/setDisabled", server: "everything", disabled: false });
    assert.equal(readFileSync(configFile, "utf8"), written());
    await waitForServer("the server to connect again", "everything", (s) => s.state === "connected");
  });

  it("Delete removes the entry and the server, and keeps the rest of the file", async () => {
    const api = await kiln();
    const result = await request({ type: "mcp/delete", server: "everything" });
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(JSON.parse(readFileSync(configFile, "utf8")), { mcpServers: {}, theme: "kept" });
    await waitFor("the server to be gone", () => (serverIn("everything") === undefined ? true : undefined));
    assert.equal(api.mcp.hub.pidOf("everything"), undefined);
  });

  it("Add server writes a valid entry after the others, and the new server connects", async () => {
    const form: McpServerForm = { name: "second", scope: "project", transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], url: "", env: [{ name: "KILN_MCP_TEST", value: "1" }] };
    const result = await request({ type: "mcp/add", form });
    assert.equal(result.ok, true, result.message);
    const text = readFileSync(configFile, "utf8");
    assert.ok(text.startsWith(written().slice(0, written().indexOf("\n    },"))), text);
    assert.deepEqual(JSON.parse(text).mcpServers.second, { command: process.execPath, args: [EVERYTHING, "stdio"], env: { KILN_MCP_TEST: "1" } });
    const second = await waitForServer("the new server to connect", "second", (s) => s.state === "connected");
    assert.ok(second.tools.some((t) => t.name === "echo"));
    assert.equal(serverIn("everything")!.state, "connected");
  });

  it("a bad Add server is refused with its field named, and the file is left alone", async () => {
    const base: McpServerForm = { name: "third", scope: "project", transport: "stdio", command: "node", args: [], url: "", env: [] };
    const refusals = [
      await request({ type: "mcp/add", form: { ...base, command: "  " } }),
      await request({ type: "mcp/add", form: { ...base, transport: "sse", url: "ftp://example.com/sse" } }),
      await request({ type: "mcp/add", form: { ...base, name: "everything" } }),
      await request({ type: "mcp/add", form: { ...base, env: [{ name: "NOT A NAME", value: "x" }] } }),
    ];
    assert.deepEqual(
      refusals.map((r) => ({ ok: r.ok, field: r.field })),
      [
        { ok: false, field: "command" },
        { ok: false, field: "url" },
        { ok: false, field: "name" },
        { ok: false, field: "env" },
      ],
    );
    assert.match(refusals[2]!.message, /already has a server "everything"/);
    assert.equal(readFileSync(configFile, "utf8"), written());
    // What the page cannot send at all (an unknown field) is refused before it is acted on.
    const invalid = await requestOn((await kiln()).sidebar, "mcp/add", { form: { ...base, extra: 1 } });
    assert.equal(invalid.ok, false);
    assert.equal(readFileSync(configFile, "utf8"), written());
  });

  it("an edit of a file that is not valid JSON is refused and writes nothing; the problem shows in the view", async () => {
    const api = await kiln();
    write('{ "mcpServers": { "everything": ');
    await api.mcp.reload();
    await waitFor("the problem in the view", () => (latest?.errors.some((e) => /mcp\.json: not valid JSON/.test(e)) ? true : undefined));
    const result = await request({ type: "mcp/setTool", server: "everything", tool: "echo", flag: "alwaysAllow", value: true });
    assert.equal(result.ok, false);
    assert.match(result.message, /not valid JSON.*nothing was written/);
    assert.equal(readFileSync(configFile, "utf8"), '{ "mcpServers": { "everything": ');
    // The last good config keeps the server running meanwhile.
    assert.equal(serverIn("everything")!.state, "connected");
  });

  it("Edit opens the config file at the server's entry", async () => {
    const result = await request({ type: "mcp/edit", server: "everything" });
    assert.equal(result.ok, true, result.message);
    const editor = await waitFor("the config file in an editor", () => (vscode.window.activeTextEditor?.document.uri.fsPath === configFile ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.document.lineAt(editor.selection.active.line).text.trim(), '"everything": {');
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("a change to a file in watchPaths restarts the server", async () => {
    const api = await kiln();
    writeFileSync(watched, "build 1\n");
    write(written(`,\n            "watchPaths": [${JSON.stringify(watched)}]`));
    await api.mcp.reload();
    const first = await waitFor("the server with watchPaths to connect", () => (serverIn("everything")?.state === "connected" ? api.mcp.hub.pidOf("everything") : undefined), CONNECT_MS);
    writeFileSync(watched, "build 2\n");
    const second = await waitFor(
      "a new server process",
      () => {
        const pid = api.mcp.hub.pidOf("everything");
        return pid !== undefined && pid !== first && serverIn("everything")?.state === "connected" ? pid : undefined;
      },
      CONNECT_MS,
    );
    assert.notEqual(second, first);
    assert.ok(existsSync(watched));
  });

  it("Kiln: MCP Servers reveals the sidebar, whose page switches to the MCP view and asks for the state", async () => {
    const api = await kiln();
    const seen: string[] = [];
    // Closed here, so a state now can only be the answer to the page's own mcp/open.
    api.sidebar.receive({ type: "mcp/close" });
    const l = api.sidebar.onDidPost((m) => seen.push(m.type));
    try {
      await vscode.commands.executeCommand("kiln.openMcpServers");
      await waitFor("the page to be told", () => (seen.includes("mcp/show") ? true : undefined), 30_000);
      // Only the real page answers mcp/show with mcp/open, which the host answers with a state.
      await waitFor("the page to open the view", () => (seen.indexOf("mcp/state", seen.indexOf("mcp/show")) > 0 ? true : undefined), 30_000);
    } finally {
      l.dispose();
      api.sidebar.receive({ type: "mcp/open" });
    }
  });
});
