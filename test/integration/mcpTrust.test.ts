import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpHub } from "../../src/core/mcp/McpHub";
import { gateProjectServers, mcpServerFingerprint } from "../../src/core/mcp/trust";
import type { McpServerConfig, McpServerView } from "../../src/core/mcp/types";
import { silentLogger } from "../fixtures/silentLogger";
import { serverEntry } from "./mcpEverything";

const testServer = pathToFileURL(resolve(__dirname, "../fixtures/mcp/testServer.mjs")).href;
let hub: McpHub | undefined;

afterEach(async () => {
  await hub?.dispose();
  hub = undefined;
});

/** A project entry whose command leaves a marker file when it runs, then serves MCP. */
function markerServer(marker: string): McpServerConfig {
  return serverEntry("repo", { source: "project", command: process.execPath, args: ["-e", 'require("fs").writeFileSync(process.argv[1], "ran"); import(process.argv[2]);', marker, testServer] });
}

function view(h: McpHub, name: string): McpServerView | undefined {
  return h.servers().find((s) => s.name === name);
}

async function until<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the hub and a project server that needs approval", () => {
  it("lists it with the reason and what it would run, and runs nothing: not on update, restart or a tool call", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "kiln-trust-hub-")), "ran.txt");
    hub = new McpHub({ logger: silentLogger, roots: () => [], clientInfo: { name: "test", version: "1" } });
    const [gated] = gateProjectServers([markerServer(marker)], { workspaceTrusted: true, approved: () => undefined });
    await hub.update([gated!]);
    await hub.restart("repo");
    const listed = view(hub, "repo")!;
    expect(listed.state).toBe("needs-approval");
    expect(listed.error).toBe("a server from the project's .kilocode/mcp.json starts only once you allow its command");
    expect(listed.blocked).toMatchObject({ reason: "not-approved", fingerprint: mcpServerFingerprint(gated!), launch: { command: process.execPath } });
    await expect(hub.callTool("repo", "pid", {})).rejects.toThrow('MCP server "repo" was not started: a server from the project');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(existsSync(marker)).toBe(false);
    expect(hub.pidOf("repo")).toBeUndefined();
  });

  it("approved, it starts; its entry changed, it is stopped and blocked again", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "kiln-trust-hub-")), "ran.txt");
    hub = new McpHub({ logger: silentLogger, roots: () => [], clientInfo: { name: "test", version: "1" } });
    const entry = markerServer(marker);
    const approved = mcpServerFingerprint(entry);
    await hub.update(gateProjectServers([entry], { workspaceTrusted: true, approved: () => approved }));
    await until("the approved server to connect", () => view(hub!, "repo")?.state === "connected");
    expect(existsSync(marker)).toBe(true);
    const pid = hub.pidOf("repo");
    expect(pid).toBeGreaterThan(0);

    const changed = { ...entry, args: [...entry.args, "--more"] };
    await hub.update(gateProjectServers([changed], { workspaceTrusted: true, approved: () => approved }));
    expect(view(hub, "repo")).toMatchObject({ state: "needs-approval", blocked: { reason: "changed" } });
    expect(hub.pidOf("repo")).toBeUndefined();
    expect(() => process.kill(pid!, 0)).toThrow();
  });
});
