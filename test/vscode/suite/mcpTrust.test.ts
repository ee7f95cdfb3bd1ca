import * as assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerView } from "../../../src/core/mcp/types";
import type { McpMethod, McpRequests } from "../../../src/shared/protocol/mcp";
import type { ParamsOf } from "../../../src/shared/protocol/requests";
import { kiln, removeMcpConfig, requestOn, waitFor, writeMcpConfig, type RequestAnswer } from "./helpers";

// The suite runs from out/test/vscode: the repository is three folders up.
const TEST_SERVER = pathToFileURL(join(__dirname, "..", "..", "..", "test", "fixtures", "mcp", "testServer.mjs")).href;
const CONNECT_MS = 45_000;

/** A request as one value: its method as `type`, beside its params. */
type McpRequest = { [K in McpMethod]: { type: K } & ParamsOf<McpRequests, K> }[McpMethod];

describe("A project's MCP servers need approval in the real host", () => {
  let markers: string;
  // The marker file is made by the server's command the moment it runs, before it speaks MCP.
  const entry = (name: string, extra: string[] = []) => ({
    command: process.execPath,
    args: ["-e", 'require("fs").writeFileSync(process.argv[1], "ran"); import(process.argv[2]);', join(markers, name), TEST_SERVER, ...extra],
    env: { LOG_LEVEL: "debug", GITHUB_TOKEN: "${env:GITHUB_TOKEN}", API_KEY: "sk-live-0123456789abcdefghij" },
  });
  const server = async (name: string): Promise<McpServerView | undefined> => (await kiln()).mcp.hub.servers().find((s) => s.name === name);
  const waitForServer = async (what: string, name: string, check: (s: McpServerView) => boolean) => {
    const api = await kiln();
    return waitFor(what, () => api.mcp.hub.servers().find((s) => s.name === name && check(s)), CONNECT_MS);
  };

  /** Sends a request as the MCP view does and resolves with the host's answer. */
  async function request({ type, ...params }: McpRequest): Promise<RequestAnswer> {
    return requestOn((await kiln()).sidebar, type, params);
  }

  before(() => {
    markers = mkdtempSync(join(tmpdir(), "kiln-host-trust-"));
  });
  after(async () => {
    await removeMcpConfig();
    rmSync(markers, { recursive: true, force: true });
  });

  it("a new project server is listed as needing approval with what it would run, and its command does not run", async () => {
    const api = await kiln();
    writeMcpConfig(JSON.stringify({ mcpServers: { gated: entry("gated") } }));
    await api.mcp.reload();
    const listed = (await server("gated"))!;
    assert.equal(listed.state, "needs-approval");
    assert.equal(listed.blocked?.reason, "not-approved");
    assert.deepEqual(listed.blocked?.launch.env, [
      { name: "LOG_LEVEL", value: "debug", length: 5 },
      { name: "GITHUB_TOKEN", value: "${env:GITHUB_TOKEN}", length: 19 },
      { name: "API_KEY", length: 28 },
    ]);
    assert.equal(listed.blocked?.launch.command, process.execPath);
    // A restart (the view's button, or a watched file) starts nothing either.
    await api.mcp.hub.restart("gated");
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(existsSync(join(markers, "gated")), false);
    assert.equal(api.mcp.hub.pidOf("gated"), undefined);
  });

  it("Allow and start with a stale fingerprint is refused; with the one shown it starts the server", async () => {
    const shown = (await server("gated"))!.blocked!.fingerprint;
    const stale = await request({ type: "mcp/approve", server: "gated", fingerprint: "0".repeat(64) });
    assert.equal(stale.ok, false);
    assert.match(stale.message, /changed since it was shown/);
    assert.equal((await server("gated"))!.state, "needs-approval");

    const allowed = await request({ type: "mcp/approve", server: "gated", fingerprint: shown });
    assert.deepEqual({ ok: allowed.ok, message: allowed.message }, { ok: true, message: "Allowed gated; starting it." });
    const connected = await waitForServer("the allowed server to connect", "gated", (s) => s.state === "connected");
    assert.ok(connected.tools.some((t) => t.name === "pid"));
    assert.equal(existsSync(join(markers, "gated")), true);
  });

  it("a changed entry stops the server and asks again; the old entry back is allowed again", async () => {
    const api = await kiln();
    const pid = api.mcp.hub.pidOf("gated");
    assert.ok(pid);
    writeMcpConfig(JSON.stringify({ mcpServers: { gated: entry("gated", ["--changed"]) } }));
    await api.mcp.reload();
    const changed = (await server("gated"))!;
    assert.equal(changed.state, "needs-approval");
    assert.equal(changed.blocked?.reason, "changed");
    assert.equal(api.mcp.hub.pidOf("gated"), undefined);

    writeMcpConfig(JSON.stringify({ mcpServers: { gated: entry("gated") } }));
    await api.mcp.reload();
    await waitForServer("the allowed entry to connect again", "gated", (s) => s.state === "connected");
  });

  it("Delete forgets the approval: the same entry written again asks again", async () => {
    const api = await kiln();
    const deleted = await request({ type: "mcp/delete", server: "gated" });
    assert.equal(deleted.ok, true, deleted.message);
    writeMcpConfig(JSON.stringify({ mcpServers: { gated: entry("gated") } }));
    await api.mcp.reload();
    assert.equal((await server("gated"))?.state, "needs-approval");
  });
});
