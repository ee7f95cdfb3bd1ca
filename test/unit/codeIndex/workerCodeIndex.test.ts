import * as esbuild from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WorkerCodeIndex } from "../../../src/platform/node/workerCodeIndex";
// The same build options the extension's bundle of the worker gets.
import { indexWorkerOptions } from "../../../esbuild.mjs";

let workerFile: string;
let root: string;
let index: WorkerCodeIndex;

beforeAll(async () => {
  // Inside the repository, so the bundle finds the tree-sitter wasm in node_modules as the extension finds it beside itself.
  workerFile = join(process.cwd(), "out", "unit-index-worker", `indexWorker-${process.pid}.js`);
  await esbuild.build({ ...indexWorkerOptions, outfile: workerFile, sourcemap: false, minify: false, logLevel: "silent" });
});
afterAll(() => rmSync(dirname(workerFile), { recursive: true, force: true }));

function put(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-worker-index-"));
  put("src/session.ts", "/** Renews the token an hour before it expires. */\nexport function refreshSessionToken(token: string): string {\n  return token;\n}\n");
  put("src/ui.ts", "export function drawButton() {}\n");
  index = new WorkerCodeIndex(root, { workerFile });
});
afterEach(async () => {
  await index.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe("the codebase index in a worker thread", () => {
  it("indexes with progress, answers searches, and takes a watcher's changed paths", async () => {
    const progress: number[] = [];
    const summary = await index.refresh({ onProgress: (p) => progress.push(p.filesDone) });
    expect(summary).toMatchObject({ filesTotal: 2, changed: 2 });
    expect(progress).toEqual([1, 2]);
    const hits = await index.search("refresh session token");
    expect(hits[0]).toMatchObject({ path: "src/session.ts", startLine: 1, endLine: 4, symbols: ["refreshSessionToken"] });
    put("src/login.ts", "export function showLoginForm() {}\n");
    await index.refreshPaths(["src/login.ts"]);
    expect((await index.search("login form"))[0]?.path).toBe("src/login.ts");
  });

  it("a cancelled refresh fails as cancelled, and the next one finishes the work", async () => {
    for (let i = 0; i < 300; i++) put(`gen/file${i}.ts`, `export function generated${i}() { return ${i}; }\n`);
    const controller = new AbortController();
    const first = index.refresh({ signal: controller.signal, onProgress: (p) => p.filesDone === 5 && controller.abort() });
    await expect(first).rejects.toThrow("cancelled");
    expect((await index.refresh()).filesTotal).toBe(302);
    expect((await index.search("generated 299"))[0]?.path).toBe("gen/file299.ts");
  });

  it("a worker that dies fails its calls with a reason; the next call starts a new one", async () => {
    await index.refresh();
    const broken = new WorkerCodeIndex(root, { workerFile: join(dirname(workerFile), "missing.js") });
    await expect(broken.search("token")).rejects.toThrow(/Cannot find module|stopped/);
    await broken.dispose();
    await index.dispose();
    // Closed: a call after it starts a fresh worker, which indexes from nothing.
    expect(await index.search("token")).toEqual([]);
    await index.refresh();
    expect((await index.search("token"))[0]?.path).toBe("src/session.ts");
  });
});
