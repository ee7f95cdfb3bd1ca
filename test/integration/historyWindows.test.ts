import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryStore } from "../../src/core/history/HistoryStore";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";

function run(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args]);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("task history shared by several windows", () => {
  let dir: string;
  let script: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kiln-history-windows-"));
    script = join(dir, "writer.js");
    await esbuild.build({ entryPoints: [join(__dirname, "..", "fixtures", "historyWriter.ts")], bundle: true, platform: "node", outfile: script, logLevel: "silent" });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("three processes saving at once lose no task from the index", async () => {
    const root = join(dir, "tasks");
    const results = await Promise.all(["a", "b", "c"].map((prefix) => run(script, [root, prefix, "25"])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const list = await new HistoryStore(root, new NodeFileSystem()).list();
    expect(list.problems).toEqual([]);
    expect(list.entries).toHaveLength(75);
    expect(new Set(list.entries.map((e) => e.workspace))).toEqual(new Set(["/w/a", "/w/b", "/w/c"]));
  });
});
