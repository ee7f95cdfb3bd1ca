import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { keepLastGood, loadMcpConfigFile, mergeMcpConfigs, parseMcpConfig, sameServer, type McpVars } from "../../../src/core/mcp/config";

const PROJECT = ".kilocode/mcp.json";
const GLOBAL = "mcp_settings.json";
const WS = resolve("/ws/app");
const vars: McpVars = { workspaceFolder: WS, env: { HOME: "/home/me", TOKEN: "s3cret" } };

function parse(servers: unknown, file = PROJECT, source: "project" | "global" = "project", v = vars) {
  return parseMcpConfig(JSON.stringify({ mcpServers: servers }), file, source, v);
}

function one(entry: unknown, v = vars) {
  const result = parse({ s: entry }, PROJECT, "project", v);
  expect(result.errors).toEqual([]);
  expect(result.servers).toHaveLength(1);
  return result.servers[0]!;
}

function errorsOf(entry: unknown) {
  const result = parse({ db: entry });
  expect(result.servers).toEqual([]);
  return result.errors;
}

describe("transport", () => {
  it("is stdio for a command, with the defaults filled in", () => {
    expect(one({ command: "npx", args: ["-y", "server"] })).toEqual({
      name: "s",
      source: "project",
      transport: "stdio",
      command: "npx",
      args: ["-y", "server"],
      cwd: WS,
      env: {},
      headers: {},
      disabled: false,
      timeoutSeconds: 60,
      alwaysAllow: [],
      disabledTools: [],
      watchPaths: [],
      written: { transport: "stdio", command: "npx", args: ["-y", "server"], env: {}, headers: {} },
    });
  });

  it("is SSE for a url ending in /sse, even with a query or trailing slash", () => {
    expect(one({ url: "https://h.example/sse" }).transport).toBe("sse");
    expect(one({ url: "https://h.example/v1/sse/?key=1" }).transport).toBe("sse");
  });

  it("is streamable HTTP for any other url", () => {
    const server = one({ url: "https://h.example/mcp", headers: { "X-Team": "a" } });
    expect(server).toMatchObject({ transport: "streamable-http", url: "https://h.example/mcp", headers: { "X-Team": "a" } });
    expect(server.command).toBeUndefined();
    expect(one({ url: "https://h.example/ssex" }).transport).toBe("streamable-http");
  });

  it("follows an explicit type and the spellings Kilo, Roo, Cline and VS Code use", () => {
    const url = "https://h.example/mcp/sse";
    expect(one({ type: "stdio", command: "x" }).transport).toBe("stdio");
    expect(one({ type: "streamable-http", url }).transport).toBe("streamable-http");
    expect(one({ type: "streamableHttp", url }).transport).toBe("streamable-http");
    expect(one({ type: "http", url }).transport).toBe("streamable-http");
    expect(one({ type: "SSE", url: "https://h.example/events" }).transport).toBe("sse");
    expect(one({ transportType: "sse", url: "https://h.example/events" }).transport).toBe("sse");
  });

  it("with an explicit type ignores the other kind's fields", () => {
    const server = one({ type: "stdio", command: "x", url: "https://h.example/mcp" });
    expect(server.transport).toBe("stdio");
    expect(server.url).toBeUndefined();
  });
});

describe("settings", () => {
  it("reads the common fields", () => {
    const server = one({
      command: "x",
      disabled: true,
      timeout: 3600,
      alwaysAllow: ["query"],
      disabledTools: ["drop"],
      watchPaths: ["${workspaceFolder}/build/index.js"],
    });
    expect(server).toMatchObject({
      disabled: true,
      timeoutSeconds: 3600,
      alwaysAllow: ["query"],
      disabledTools: ["drop"],
      watchPaths: [`${WS}/build/index.js`],
    });
  });

  it("takes a relative cwd from the workspace folder and keeps an absolute one", () => {
    expect(one({ command: "x", cwd: "tools" }).cwd).toBe(resolve(WS, "tools"));
    expect(one({ command: "x", cwd: "/opt/srv" }).cwd).toBe("/opt/srv");
    expect(one({ command: "x" }, { env: {} }).cwd).toBeUndefined();
  });

  it("turns number and boolean env values into strings", () => {
    expect(one({ command: "x", env: { PORT: 3000, DEBUG: true } }).env).toEqual({ PORT: "3000", DEBUG: "true" });
  });
});

describe("expansion", () => {
  it("expands ${env:NAME} and ${workspaceFolder} in command, args, cwd and env", () => {
    const server = one({
      command: "${env:HOME}/bin/srv",
      args: ["--root", "${workspaceFolder}", "--token=${env:TOKEN}"],
      cwd: "${workspaceFolder}/srv",
      env: { API_KEY: "${env:TOKEN}", EMPTY: "${env:NOPE}" },
    });
    expect(server.command).toBe("/home/me/bin/srv");
    expect(server.args).toEqual(["--root", WS, "--token=s3cret"]);
    expect(server.cwd).toBe(`${WS}/srv`);
    expect(server.env).toEqual({ API_KEY: "s3cret", EMPTY: "" });
  });

  it("expands url and headers", () => {
    const server = one({ url: "https://h.example/${env:TOKEN}/mcp", headers: { Authorization: "Bearer ${env:TOKEN}" } });
    expect(server.url).toBe("https://h.example/s3cret/mcp");
    expect(server.headers).toEqual({ Authorization: "Bearer s3cret" });
  });

  it("keeps the server but warns when a header or url uses an unset variable", () => {
    const result = parse({ api: { url: "https://h.example/mcp", headers: { Authorization: "Bearer ${env:API_TOKEN}" } } });
    expect(result.servers[0]!.headers).toEqual({ Authorization: "Bearer " });
    expect(result.errors).toEqual(['.kilocode/mcp.json: server "api": headers.Authorization uses ${env:API_TOKEN}, which is not set']);
  });

  it("refuses ${workspaceFolder} when no folder is open", () => {
    const result = parse({ fs: { command: "srv", args: ["${workspaceFolder}"] } }, GLOBAL, "global", { env: {} });
    expect(result.servers).toEqual([]);
    expect(result.errors).toEqual(['mcp_settings.json: server "fs": args uses ${workspaceFolder} but no workspace folder is open']);
  });
});

describe("validation messages name the file, the server and the field", () => {
  it.each([
    [{ command: "x", timeout: 0 }, "timeout must be a whole number from 1 to 3600"],
    [{ command: "x", timeout: 3601 }, "timeout must be a whole number from 1 to 3600"],
    [{ command: "x", timeout: 1.5 }, "timeout must be a whole number from 1 to 3600"],
    [{ command: "x", timeout: "60" }, "timeout must be a whole number from 1 to 3600"],
    [{ command: "" }, "command must be a non-empty string"],
    [{ command: "x", args: "-y srv" }, "args must be a list of strings"],
    [{ command: "x", args: ["a", 1] }, "args must be a list of strings"],
    [{ command: "x", cwd: 5 }, "cwd must be a string"],
    [{ command: "x", env: { A: ["b"] } }, "env must map variable names to strings"],
    [{ url: 5 }, "url must be a non-empty string"],
    [{ url: "https://h.example/mcp", headers: { A: 1 } }, "headers must map header names to strings"],
    [{ command: "x", disabled: "yes" }, "disabled must be true or false"],
    [{ command: "x", alwaysAllow: "query" }, "alwaysAllow must be a list of tool names"],
    [{ command: "x", disabledTools: [1] }, "disabledTools must be a list of tool names"],
    [{ command: "x", watchPaths: "a.js" }, "watchPaths must be a list of paths"],
    [{ type: "websocket", url: "wss://h" }, 'type must be "stdio", "sse" or "streamable-http", not "websocket"'],
    [{ type: 3, command: "x" }, 'type must be "stdio", "sse" or "streamable-http"'],
    [{ type: "stdio", url: "https://h.example/mcp" }, "command is required for a stdio server"],
    [{ type: "sse", command: "x" }, "url is required for an SSE server"],
    [{ type: "http", command: "x" }, "url is required for a streamable HTTP server"],
    [{ url: "ftp://h.example/mcp" }, 'url must be an http or https URL, not "ftp://h.example/mcp"'],
    [{ url: "not a url" }, 'url must be an http or https URL, not "not a url"'],
    [{ command: "x", url: "https://h.example/mcp" }, 'has both "command" and "url": add "type" to say which to use'],
    [{ args: ["x"] }, 'needs a "command" (to start a local server) or a "url" (to reach a remote one)'],
    ["npx srv", 'must be an object with a "command" or a "url"'],
  ])("%j → %s", (entry, message) => {
    expect(errorsOf(entry)).toEqual([`.kilocode/mcp.json: server "db": ${message}`]);
  });

  it("lists every bad field of one server", () => {
    expect(errorsOf({ command: "x", timeout: -1, disabled: 1 })).toEqual([
      '.kilocode/mcp.json: server "db": disabled must be true or false',
      '.kilocode/mcp.json: server "db": timeout must be a whole number from 1 to 3600',
    ]);
  });

  it("keeps the good servers beside a bad one", () => {
    const result = parse({ good: { command: "ok" }, db: { command: "x", timeout: 0 }, remote: { url: "https://h.example/sse" } }, GLOBAL, "global");
    expect(result.servers.map((s) => [s.name, s.source, s.transport])).toEqual([
      ["good", "global", "stdio"],
      ["remote", "global", "sse"],
    ]);
    expect(result.errors).toEqual(['mcp_settings.json: server "db": timeout must be a whole number from 1 to 3600']);
    expect(result.fileError).toBe(false);
  });
});

describe("the file as a whole", () => {
  it("reports invalid JSON once, with where it is, and gives no servers", () => {
    const result = parseMcpConfig('{\n  "mcpServers": {\n    "a": { command: "x" }\n  }\n}', PROJECT, "project", vars);
    expect(result.servers).toEqual([]);
    expect(result.fileError).toBe(true);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^\.kilocode\/mcp\.json: not valid JSON: .*line 3,? column 12/);
  });

  it("reports a wrong shape once", () => {
    expect(parseMcpConfig("[]", PROJECT, "project", vars).errors).toEqual(['.kilocode/mcp.json: must be a JSON object like {"mcpServers": {}}']);
    const result = parseMcpConfig('{"mcpServers": []}', PROJECT, "project", vars);
    expect(result).toEqual({ servers: [], errors: ['.kilocode/mcp.json: "mcpServers" must be an object of servers by name'], fileError: true });
  });

  it("treats an empty file or one without mcpServers as no servers and no error", () => {
    for (const text of ["", "  \n", "{}"]) expect(parseMcpConfig(text, PROJECT, "project", vars)).toEqual({ servers: [], errors: [], fileError: false });
  });

  it("keeps the last good servers while the file is broken", () => {
    const good = parse({ a: { command: "x" } });
    const broken = parseMcpConfig('{"mcpServers": {', PROJECT, "project", vars);
    const kept = keepLastGood(broken, good);
    expect(kept.servers).toEqual(good.servers);
    expect(kept.errors).toEqual(broken.errors);
    expect(keepLastGood(good, undefined)).toBe(good);
    const fixed = parse({ b: { command: "y" } });
    expect(keepLastGood(fixed, good)).toBe(fixed);
  });

  it("loads a file from disk, and a missing file is no servers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-mcp-"));
    writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { a: { command: "x" } } }));
    const loaded = await loadMcpConfigFile(join(dir, "mcp.json"), PROJECT, "project", vars);
    expect(loaded.servers.map((s) => s.name)).toEqual(["a"]);
    expect(await loadMcpConfigFile(join(dir, "none.json"), PROJECT, "project", vars)).toEqual({ servers: [], errors: [], fileError: false });
  });

  it("accepts a Roo/Cline settings file pasted as is, ignoring their extra fields", () => {
    const text = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${env:TOKEN}" },
      "alwaysAllow": ["get_issue"],
      "autoApprove": ["list_issues"],
      "disabled": false,
      "timeout": 120,
      "transportType": "stdio"
    },
    "context7": {
      "type": "streamableHttp",
      "url": "https://mcp.context7.com/mcp",
      "headers": { "CONTEXT7_API_KEY": "abc" },
      "autoApprove": [],
      "disabled": true
    },
    "legacy": { "url": "http://localhost:3001/sse", "transportType": "sse", "networkTimeout": 60000 }
  }
}`;
    const result = parseMcpConfig(text, GLOBAL, "global", vars);
    expect(result.errors).toEqual([]);
    expect(result.servers.map((s) => [s.name, s.transport, s.disabled, s.timeoutSeconds])).toEqual([
      ["github", "stdio", false, 120],
      ["context7", "streamable-http", true, 60],
      ["legacy", "sse", false, 60],
    ]);
    expect(result.servers[0]).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: "s3cret" }, alwaysAllow: ["get_issue"] });
  });
});

describe("merging and comparing", () => {
  it("lets the project's server win over the global one of the same name and keeps both files' errors", () => {
    const global = parse({ db: { command: "global-db" }, web: { url: "https://h.example/mcp" }, bad: { timeout: 0, command: "x" } }, GLOBAL, "global");
    const project = parse({ db: { command: "project-db" }, nope: {} });
    const merged = mergeMcpConfigs(global, project);
    expect(merged.servers.map((s) => [s.name, s.source, s.command ?? s.url])).toEqual([
      ["db", "project", "project-db"],
      ["web", "global", "https://h.example/mcp"],
    ]);
    expect(merged.errors).toEqual([
      'mcp_settings.json: server "bad": timeout must be a whole number from 1 to 3600',
      '.kilocode/mcp.json: server "nope": needs a "command" (to start a local server) or a "url" (to reach a remote one)',
    ]);
  });

  it("tells a changed server from an unchanged one", () => {
    const base = { command: "x", args: ["a"], env: { A: "1", B: "2" } };
    expect(sameServer(one(base), one({ ...base }))).toBe(true);
    expect(sameServer(one(base), one({ ...base, env: { B: "2", A: "1" } }))).toBe(true);
    expect(sameServer(one(base), one({ ...base, env: { A: "1", B: "3" } }))).toBe(false);
    expect(sameServer(one(base), one({ ...base, args: ["a", "b"] }))).toBe(false);
    expect(sameServer(one(base), one({ ...base, timeout: 30 }))).toBe(false);
    expect(sameServer(one(base), one({ ...base, alwaysAllow: ["t"] }))).toBe(false);
  });
});
