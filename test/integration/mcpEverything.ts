import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer, type AddressInfo } from "node:net";
import type { McpServerConfig } from "../../src/core/mcp/types";

/** server-everything, the MCP reference server, for tests that run it over stdio or HTTP. */
export const everythingMain = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

/** A validated server entry for `name`, stdio by default. */
export function serverEntry(name: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name, source: "global", transport: "stdio", args: [], env: {}, headers: {}, disabled: false, timeoutSeconds: 30, alwaysAllow: [], disabledTools: [], watchPaths: [], ...over };
}

/** A port nobody listens on now (the server binds it right after). */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
}

/** Starts server-everything's streamable HTTP transport; resolves with its /mcp URL once it listens. */
export async function startEverythingHttp(): Promise<{ child: ChildProcess; url: string }> {
  const port = await unusedPort();
  const child = spawn(process.execPath, [everythingMain, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  let said = "";
  await new Promise<void>((ok, fail) => {
    const listening = (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port/i.test(said)) ok();
    };
    child.stdout?.on("data", listening);
    child.stderr?.on("data", listening);
    child.once("exit", (code) => fail(new Error(`server-everything exited (${code}) before listening: ${said}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

/** Polls until `probe` gives a value; fails after `ms` naming what it waited for. */
export async function eventually<T>(what: string, probe: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
