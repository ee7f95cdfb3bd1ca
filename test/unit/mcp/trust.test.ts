import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMcpConfig, type McpVars } from "../../../src/core/mcp/config";
import { describeLaunch, gateProjectServers, isApproved, looksSecret, mcpServerFingerprint, type McpTrustStore } from "../../../src/core/mcp/trust";
import type { McpServerConfig } from "../../../src/core/mcp/types";
import { commandLine } from "../../../src/shared/commandLine";

const WS = resolve("/ws/app");
const vars: McpVars = { workspaceFolder: WS, env: { HOME: "/home/me", TOKEN: "s3cret" } };

function server(entry: Record<string, unknown>, source: "project" | "global" = "project", v = vars): McpServerConfig {
  const result = parseMcpConfig(JSON.stringify({ mcpServers: { s: entry } }), ".kilocode/mcp.json", source, v);
  expect(result.servers).toHaveLength(1);
  return result.servers[0]!;
}

const fingerprint = (entry: Record<string, unknown>, v = vars) => mcpServerFingerprint(server(entry, "project", v));
const BASE = { command: "node", args: ["server.js", "--stdio"], cwd: "srv", env: { B: "2", A: "1" } };

describe("the fingerprint of a project server entry", () => {
  it("is a sha256 that ignores key order and what does not decide what runs", () => {
    const same = fingerprint(BASE);
    expect(same).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint({ ...BASE, env: { A: "1", B: "2" } })).toBe(same);
    expect(fingerprint({ ...BASE, alwaysAllow: ["x"], disabledTools: ["y"], timeout: 5, disabled: true, watchPaths: ["a"] })).toBe(same);
  });

  it("changes with the command, each argument, the folder, an env name or value, the url and a header", () => {
    const base = fingerprint(BASE);
    const changed = [
      { ...BASE, command: "nodejs" },
      { ...BASE, args: ["server.js"] },
      { ...BASE, args: ["server.js", "--stdio", "--evil"] },
      { ...BASE, cwd: "other" },
      { ...BASE, env: { A: "1", B: "3" } },
      { ...BASE, env: { A: "1", B: "2", NODE_OPTIONS: "--require ./x.js" } },
      { ...BASE, type: "sse", url: "https://h.example/sse" },
    ].map((e) => fingerprint(e));
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
    const remote = { url: "https://h.example/mcp", headers: { Authorization: "Bearer ${env:TOKEN}" } };
    expect(fingerprint({ ...remote, url: "https://other.example/mcp" })).not.toBe(fingerprint(remote));
    expect(fingerprint({ ...remote, headers: { Authorization: "Bearer ${env:AWS_SECRET_ACCESS_KEY}" } })).not.toBe(fingerprint(remote));
  });

  it("covers the entry as written: a rotated token changes nothing, a different variable does", () => {
    const entry = { command: "srv", env: { GITHUB_TOKEN: "${env:TOKEN}" } };
    expect(fingerprint(entry, { ...vars, env: { TOKEN: "new-value" } })).toBe(fingerprint(entry));
    expect(fingerprint({ command: "srv", env: { GITHUB_TOKEN: "${env:OTHER}" } })).not.toBe(fingerprint(entry));
  });
});

describe("which project servers may start", () => {
  const entries = [server(BASE), server({ command: "global-srv" }, "global"), { ...server({ command: "off" }), name: "off", disabled: true }];
  const approvals = new Map<string, string>();
  const gate = (workspaceTrusted: boolean) => gateProjectServers(entries, { workspaceTrusted, approved: (name) => approvals.get(name) });

  it("a project server is blocked until its entry is approved; global and disabled ones are left alone", () => {
    const [project, global, off] = gate(true);
    expect(project!.blocked).toMatchObject({ reason: "not-approved", fingerprint: mcpServerFingerprint(entries[0]!) });
    expect(global!.blocked).toBeUndefined();
    expect(off!.blocked).toBeUndefined();
    approvals.set("s", mcpServerFingerprint(entries[0]!));
    expect(gate(true)[0]!.blocked).toBeUndefined();
    approvals.set("s", "0".repeat(64));
    expect(gate(true)[0]!.blocked?.reason).toBe("changed");
  });

  it("in an untrusted workspace every project server is blocked, approved or not", () => {
    approvals.set("s", mcpServerFingerprint(entries[0]!));
    expect(gate(false).map((s) => s.blocked?.reason)).toEqual(["untrusted-workspace", undefined, undefined]);
  });

  it("isApproved compares the stored fingerprint for that workspace and server", () => {
    const store: McpTrustStore = { approvedFingerprint: (ws, name) => (ws === "/a" && name === "s" ? "f" : undefined), approve: async () => {}, revoke: async () => {} };
    expect(isApproved(store, "/a", "s", "f")).toBe(true);
    expect(isApproved(store, "/b", "s", "f")).toBe(false);
    expect(isApproved(store, "/a", "s", "g")).toBe(false);
  });
});

describe("what the approval shows", () => {
  it("the written command, args and env, with the folder it runs in; secret-looking literals masked with their length", () => {
    const launch = describeLaunch(
      server({ command: "${env:HOME}/bin/srv", args: ["--root", "${workspaceFolder}"], env: { GITHUB_TOKEN: "${env:TOKEN}", LOG_LEVEL: "debug", API_KEY: "abc", PORT: 3000, BLOB: "x".repeat(60) } }),
    );
    expect(launch).toEqual({
      transport: "stdio",
      command: "${env:HOME}/bin/srv",
      args: ["--root", "${workspaceFolder}"],
      cwd: WS,
      env: [
        { name: "GITHUB_TOKEN", value: "${env:TOKEN}", length: 12 },
        { name: "LOG_LEVEL", value: "debug", length: 5 },
        { name: "API_KEY", length: 3 },
        { name: "PORT", value: "3000", length: 4 },
        { name: "BLOB", length: 60 },
      ],
      headers: [],
    });
    // The expanded value (the user's secret) is nowhere in what the page gets.
    expect(JSON.stringify(launch)).not.toContain("s3cret");
  });

  it("a remote server's url and headers; a reference behind a scheme word is shown, a literal token is not", () => {
    const launch = describeLaunch(server({ url: "https://h.example/mcp", headers: { Authorization: "Bearer ${env:TOKEN}", "X-Api": "Bearer ghp_0123456789abcdefghijABCDEFGHIJ" } }));
    expect(launch).toMatchObject({ transport: "streamable-http", url: "https://h.example/mcp", env: [] });
    expect(launch.headers).toEqual([
      { name: "Authorization", value: "Bearer ${env:TOKEN}", length: 19 },
      { name: "X-Api", length: 41 },
    ]);
    expect(launch.cwd).toBeUndefined();
  });

  it("looksSecret: names that sound secret, long literals, token-like runs; not ordinary values or references", () => {
    expect(looksSecret("PASSWORD", "hunter2")).toBe(true);
    expect(looksSecret("DEBUG", "sk_live_51HxYzAbCdEfGh12345")).toBe(true);
    expect(looksSecret("NOTE", "x".repeat(49))).toBe(true);
    expect(looksSecret("SECRET", "${env:SECRET}")).toBe(false);
    expect(looksSecret("DATA_DIR", "/home/me/some/long/path/to/data")).toBe(false);
    expect(looksSecret("MODE", "production")).toBe(false);
  });

  it("the command line quotes only what a shell would split, so each argument's end is plain", () => {
    expect(commandLine("node", ["-e", 'require("fs")', "a b", "it's", "${env:X}", "--flag=1"])).toBe(`node -e 'require("fs")' 'a b' 'it'\\''s' \${env:X} --flag=1`);
  });
});
