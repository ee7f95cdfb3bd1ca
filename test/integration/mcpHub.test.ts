import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { STABLE_CONNECTION_MS, type ReconnectClock } from "../../src/core/mcp/connection";
import { McpHub } from "../../src/core/mcp/McpHub";
import type { McpServerConfig, McpServerView } from "../../src/core/mcp/types";
import { silentLogger } from "../fixtures/silentLogger";

const require = createRequire(import.meta.url);
const everythingMain = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const fixture = resolve(__dirname, "../fixtures/mcp/testServer.mjs");
const root = mkdtempSync(join(tmpdir(), "kiln-mcp-root-"));

function config(name: string, over: Partial<McpServerConfig>): McpServerConfig {
  return {
    name,
    source: "global",
    transport: "stdio",
    args: [],
    env: {},
    headers: {},
    disabled: false,
    timeoutSeconds: 30,
    alwaysAllow: [],
    disabledTools: [],
    watchPaths: [],
    ...over,
  };
}

const fixtureServer = (name: string, over: Partial<McpServerConfig> = {}) => config(name, { command: process.execPath, args: [fixture], ...over });

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? ok(addr.port) : fail(new Error("no port"))));
    });
  });
}

/** Starts server-everything over HTTP and resolves once it says it listens. */
async function startEverything(mode: "sse" | "streamableHttp"): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingMain, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server-everything ${mode} did not start`)), 15_000);
    let seen = "";
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (/port/i.test(seen)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", onData);
    child.once("exit", (code) => fail(new Error(`server-everything ${mode} exited (${code}): ${seen}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function waitFor<T>(what: string, probe: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let hub: McpHub;
const view = (name: string): McpServerView | undefined => hub.servers().find((s) => s.name === name);
const connected = (name: string) => waitFor(`${name} connected`, () => view(name)?.state === "connected" && view(name));
const pidTool = async (name: string) => Number((await hub.callTool(name, "pid", {})).text);

function newHub(clock?: ReconnectClock): McpHub {
  hub = new McpHub({ logger: silentLogger, roots: () => [root], clientInfo: { name: "kiln-test", version: "0.0.0" }, ...(clock && { clock }) });
  return hub;
}

/** A clock for the reconnect backoff that moves only when the test says: retries wait until run. */
class ManualClock implements ReconnectClock {
  time = 0;
  readonly waiting: { ms: number; fn: () => void }[] = [];
  now = () => this.time;
  after = (ms: number, fn: () => void) => {
    const entry = { ms, fn };
    this.waiting.push(entry);
    return () => {
      const i = this.waiting.indexOf(entry);
      if (i >= 0) this.waiting.splice(i, 1);
    };
  };
  /** Lets the one pending retry happen, as if its delay had passed; returns that delay. */
  runRetry(): number {
    expect(this.waiting).toHaveLength(1);
    const entry = this.waiting.shift()!;
    this.time += entry.ms;
    entry.fn();
    return entry.ms;
  }
}

afterEach(async () => {
  await hub?.dispose();
});

describe("server-everything over each transport", () => {
  const http: ChildProcess[] = [];
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    const sse = await startEverything("sse");
    const streamable = await startEverything("streamableHttp");
    http.push(sse.child, streamable.child);
    urls.sse = `${sse.base}/sse`;
    urls.http = `${streamable.base}/mcp`;
  });

  afterAll(() => {
    for (const child of http) child.kill();
  });

  const cases: [string, () => McpServerConfig][] = [
    ["stdio", () => config("everything", { command: process.execPath, args: [everythingMain, "stdio"] })],
    ["sse", () => config("everything", { transport: "sse", url: urls.sse, headers: { "X-Kiln-Test": "1" } })],
    ["streamable-http", () => config("everything", { transport: "streamable-http", url: urls.http, headers: { "X-Kiln-Test": "1" } })],
  ];

  it.each(cases)(
    "lists and calls tools, reads resources and templates, sees prompts (%s)",
    async (_t, make) => {
      newHub();
      await hub.update([make()]);
      const v = await connected("everything");
      expect(v.tools.map((t) => t.name)).toContain("echo");
      expect((await hub.callTool("everything", "echo", { message: "hello kiln" })).text).toContain("hello kiln");

      expect(v.resources.length).toBeGreaterThan(0);
      const first = await hub.readResource("everything", v.resources[0]!.uri);
      expect(first.text.length + first.images.length).toBeGreaterThan(0);
      expect(v.templates.map((t) => t.uriTemplate)).toContain("demo://resource/dynamic/text/{resourceId}");
      const templated = await hub.readResource("everything", "demo://resource/dynamic/text/7");
      expect(templated.text).toMatch(/\S/);
      expect(v.prompts.length).toBeGreaterThan(0);

      const image = await hub.callTool("everything", "get-tiny-image", {});
      expect(image.images[0]?.mediaType).toBe("image/png");
    },
    40_000,
  );

  it("answers roots/list for server-everything's get-roots-list", async () => {
    newHub();
    await hub.update([cases[0]![1]()]);
    await connected("everything");
    const r = await hub.callTool("everything", "get-roots-list", {});
    expect(r.text).toContain(pathToFileURL(root).href);
  }, 30_000);
});

describe("stdio connections (fixture server)", () => {
  it("gives a server the safe base, proxies, locale and its entry's env, never the user's other variables or secrets", async () => {
    const set = {
      OPENROUTER_TOKEN: "sk-or-from-user",
      MY_LLM_SECRET: "from-user-secret",
      KILN_MCP_TEST_USER: "from-user",
      HTTPS_PROXY: "http://proxy.example:3128",
      no_proxy: "localhost",
      LANG: "de_DE.UTF-8",
      LC_API_TOKEN: "locale-named-secret",
    };
    const before = Object.fromEntries(Object.keys(set).map((name) => [name, process.env[name]]));
    Object.assign(process.env, set);
    try {
      newHub();
      await hub.update([fixtureServer("fx", { env: { KILN_MCP_TEST_CONFIG: "from-config", SERVICE_API_TOKEN: "declared-secret" } })]);
      await connected("fx");
      const seen = async (name: string) => (await hub.callTool("fx", "env", { name })).text;
      for (const name of ["OPENROUTER_TOKEN", "MY_LLM_SECRET", "KILN_MCP_TEST_USER", "LC_API_TOKEN"]) expect(await seen(name), name).toBe("(unset)");
      expect(await seen("KILN_MCP_TEST_CONFIG")).toBe("from-config");
      expect(await seen("SERVICE_API_TOKEN")).toBe("declared-secret");
      expect(await seen("HTTPS_PROXY")).toBe("http://proxy.example:3128");
      expect(await seen("no_proxy")).toBe("localhost");
      expect(await seen("LANG")).toBe("de_DE.UTF-8");
      expect(await seen("PATH")).toBe(process.env.PATH);
      expect(await seen("HOME")).toBe(process.env.HOME);
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 30_000);

  it("passes env, keeps stderr, answers roots, applies tool flags", async () => {
    newHub();
    await hub.update([fixtureServer("fx", { env: { KILN_MCP_TEST_CONFIG: "from-config" }, disabledTools: ["hang"], alwaysAllow: ["pid"] })]);
    const v = await connected("fx");
    expect((await hub.callTool("fx", "env", { name: "KILN_MCP_TEST_CONFIG" })).text).toBe("from-config");
    expect((await hub.callTool("fx", "roots", {})).text).toBe(pathToFileURL(root).href);
    await hub.rootsChanged();
    expect(v.instructions).toBe("Test server instructions.");
    await waitFor("stderr in log", () => view("fx")?.log.some((l) => l.includes("test server started")));

    expect(v.tools.find((t) => t.name === "hang")?.enabled).toBe(false);
    expect(v.tools.find((t) => t.name === "pid")?.alwaysAllow).toBe(true);
    await expect(hub.callTool("fx", "hang", {})).rejects.toThrow(/disabled/);
    await expect(hub.callTool("fx", "nope", {})).rejects.toThrow(/has no tool "nope"/);
    await expect(hub.callTool("ghost", "pid", {})).rejects.toThrow(/Unknown MCP server "ghost"/);
  }, 30_000);

  it("reconnects a server that crashed", async () => {
    newHub();
    await hub.update([fixtureServer("fx")]);
    await connected("fx");
    const before = await pidTool("fx");
    await hub.callTool("fx", "crash", {});
    await waitFor("error state", () => view("fx")?.state === "error" || hub.pidOf("fx") !== before);
    await waitFor("reconnect", () => view("fx")?.state === "connected" && hub.pidOf("fx") !== before);
    const after = await pidTool("fx");
    expect(after).not.toBe(before);
    expect(view("fx")?.log.some((l) => l.includes("retrying"))).toBe(true);
  }, 30_000);

  it("backs off further each time a server crashes right after connecting, and starts over once one stays up", async () => {
    const clock = new ManualClock();
    newHub(clock);
    await hub.update([fixtureServer("fx")]);
    await connected("fx");
    const crashAndWait = async (upForMs: number) => {
      clock.time += upForMs;
      const pid = hub.pidOf("fx");
      await hub.callTool("fx", "crash", {});
      const v = await waitFor("error state", () => view("fx")?.state === "error" && view("fx"));
      await waitFor("the retry to be scheduled", () => clock.waiting.length === 1);
      return { error: v.error ?? "", pid };
    };
    const errors: string[] = [];
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const { error, pid } = await crashAndWait(0);
      errors.push(error);
      delays.push(clock.runRetry());
      await waitFor("reconnect", () => view("fx")?.state === "connected" && hub.pidOf("fx") !== pid);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000]);
    // The card and the model both read why the server is down and when the next try is.
    expect(errors[0]).toBe("connection closed (retrying in 1 s)");
    expect(errors[3]).toBe("connection closed (failed 4 times in a row; retrying in 8 s)");
    await crashAndWait(0);
    await expect(hub.callTool("fx", "pid", {})).rejects.toThrow("is not connected: connection closed (failed 5 times in a row; retrying in 16 s)");
    expect(clock.runRetry()).toBe(16_000);
    await waitFor("reconnect", () => view("fx")?.state === "connected");

    // Up a little less than the minimum: still counts as a crash in a row (capped at 30 s).
    expect((await crashAndWait(STABLE_CONNECTION_MS - 1)).error).toBe("connection closed (failed 6 times in a row; retrying in 30 s)");
    expect(clock.runRetry()).toBe(30_000);
    await waitFor("reconnect", () => view("fx")?.state === "connected");

    // A connection that stayed up long enough earns a fresh start: 1 s again.
    expect((await crashAndWait(STABLE_CONNECTION_MS)).error).toBe("connection closed (retrying in 1 s)");
    expect(clock.runRetry()).toBe(1_000);
    await waitFor("reconnect", () => view("fx")?.state === "connected");
  }, 60_000);

  it("reconnects only the server whose entry changed; disabled servers have no process", async () => {
    newHub();
    await hub.update([fixtureServer("a"), fixtureServer("b"), fixtureServer("c", { disabled: true })]);
    await connected("a");
    await connected("b");
    expect(view("c")?.state).toBe("disabled");
    expect(hub.pidOf("c")).toBeUndefined();
    const [a1, b1] = [await pidTool("a"), await pidTool("b")];

    await hub.update([fixtureServer("a"), fixtureServer("b", { env: { CHANGED: "1" } }), fixtureServer("c", { disabled: true })]);
    await connected("b");
    expect(await pidTool("a")).toBe(a1);
    const b2 = await pidTool("b");
    expect(b2).not.toBe(b1);
    expect(isAlive(b1)).toBe(false);

    // Only a tool flag changed: applied without a reconnect.
    await hub.update([fixtureServer("a", { disabledTools: ["pid"] }), fixtureServer("b", { env: { CHANGED: "1" } })]);
    expect(view("a")?.tools.find((t) => t.name === "pid")?.enabled).toBe(false);
    expect(hub.pidOf("a")).toBe(a1);
    expect(view("c")).toBeUndefined();
  }, 30_000);

  it("shows a server that cannot start in the error state with the reason, and keeps retrying", async () => {
    newHub();
    await hub.update([config("bad", { command: join(root, "no-such-server") })]);
    const v = await waitFor("error state", () => view("bad")?.state === "error" && view("bad"));
    expect(v.error).toMatch(/ENOENT|spawn|closed/);
    await waitFor("a retry", () => view("bad")?.log.filter((l) => l.includes("retrying")).length === 2, 10_000);
  }, 30_000);

  it("times out a server that hangs with a clear error", async () => {
    newHub();
    await hub.update([fixtureServer("slow", { timeoutSeconds: 1 })]);
    await connected("slow");
    await expect(hub.callTool("slow", "hang", {})).rejects.toThrow(/no answer within 1 s/);
    // The connection survives a timed-out call.
    expect(await pidTool("slow")).toBeGreaterThan(0);
  }, 30_000);

  it("gives a server that is slow to start more than its call timeout to connect", async () => {
    newHub();
    await hub.update([fixtureServer("late", { timeoutSeconds: 1, env: { KILN_TEST_START_DELAY_MS: "2500" } })]);
    await connected("late");
    expect(await pidTool("late")).toBeGreaterThan(0);
  }, 30_000);

  it("leaves no child process after dispose", async () => {
    newHub();
    await hub.update([fixtureServer("a"), fixtureServer("b")]);
    await connected("a");
    await connected("b");
    const pids = [await pidTool("a"), await pidTool("b")];
    await hub.callTool("a", "hang", {}, AbortSignal.timeout(100)).catch(() => undefined);
    await hub.dispose();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(hub.servers()).toEqual([]);
  }, 30_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
