import { execFileSync } from "node:child_process";
import { cpSync, utimesSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { DATABASE_FILE, indexDirFor } from "../../../src/core/codeIndex/indexDatabase";

let root: string;
let storeParent: string;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const storeDir = () => indexDirFor(storeParent, root);
const opened: CodebaseIndex[] = [];
/** The workspace's index as a new session opens it (each closed after the test, as a host closes its own). */
const open = () => {
  const index = new CodebaseIndex(root, { storeDir: storeDir() });
  opened.push(index);
  return index;
};
const databaseFile = () => join(storeDir(), DATABASE_FILE);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-store-ws-"));
  storeParent = mkdtempSync(join(tmpdir(), "kiln-store-"));
  put("src/auth/passwords.ts", "/** Salted scrypt. */\nexport function hashPassword(plain: string): string {\n  return plain;\n}\n");
  put("src/ui/button.ts", "export function renderButton(label: string): string {\n  return label;\n}\n");
  for (let i = 0; i < 30; i++) put(`src/gen/module${i}.ts`, `export function generatedHelper${i}(): number {\n  return ${i};\n}\n`);
});
afterEach(async () => {
  for (const index of opened.splice(0)) await index.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(storeParent, { recursive: true, force: true });
});

describe("the saved codebase index", () => {
  it("opening the workspace again reads no file that did not change, and searches as before", async () => {
    const first = await open().refresh();
    expect(first).toMatchObject({ filesTotal: 32, changed: 32 });
    expect(first.restored).toBeUndefined();
    expect(existsSync(databaseFile())).toBe(true);

    const reopened = open();
    const again = await reopened.refresh();
    expect(again).toMatchObject({ filesTotal: 32, changed: 0, removed: 0, restored: true, chunks: first.chunks });
    const hits = await reopened.search("hash password");
    expect(hits[0]).toMatchObject({ path: "src/auth/passwords.ts", startLine: 1, endLine: 4, symbols: ["hashPassword"] });
  });

  it("a file changed, added or deleted while the workspace was closed is read again, and only those", async () => {
    await open().refresh();
    put("src/ui/button.ts", "export function renderIconButton(icon: string): string {\n  return icon;\n}\n");
    put("src/ui/menu.ts", "export function openContextMenu(): void {}\n");
    rmSync(join(root, "src/gen/module3.ts"));
    const reopened = open();
    expect(await reopened.refresh()).toMatchObject({ filesTotal: 32, changed: 2, removed: 1, restored: true });
    expect((await reopened.search("icon button"))[0]?.symbols).toEqual(["renderIconButton"]);
    expect(await reopened.search("render button label")).not.toContainEqual(expect.objectContaining({ symbols: ["renderButton"] }));
    expect((await reopened.search("open context menu"))[0]?.path).toBe("src/ui/menu.ts");
    expect(await reopened.search("generated helper 3")).not.toContainEqual(expect.objectContaining({ path: "src/gen/module3.ts" }));
    // What the second run learnt is saved too: a third reads nothing.
    expect(await open().refresh()).toMatchObject({ changed: 0, removed: 0, restored: true });
  });

  it("a git branch switch reads again only the files the branches differ in", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: root, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    git("checkout", "-q", "-b", "feature");
    put("src/gen/module1.ts", "export function featureFlagLookup(): boolean {\n  return true;\n}\n");
    put("src/feature/rollout.ts", "export function percentageRollout(): number {\n  return 5;\n}\n");
    rmSync(join(root, "src/gen/module2.ts"));
    git("add", "-A");
    git("commit", "-q", "-m", "feature");
    git("checkout", "-q", "main");

    const index = open();
    expect(await index.refresh()).toMatchObject({ filesTotal: 32, changed: 32 });
    git("checkout", "-q", "feature");
    expect(await index.refresh()).toMatchObject({ filesTotal: 32, changed: 2, removed: 1 });
    expect((await index.search("percentage rollout"))[0]?.path).toBe("src/feature/rollout.ts");
    // Back, in a new session: the saved index is the feature branch's; main has one file changed and
    // one more (read), one fewer (dropped).
    git("checkout", "-q", "main");
    expect(await open().refresh()).toMatchObject({ filesTotal: 32, changed: 2, removed: 1, restored: true });
  });

  it("a damaged saved index is said, the workspace indexed again, and a good one saved over it", async () => {
    const first = open();
    await first.refresh();
    await first.close();
    const good = readFileSync(databaseFile());
    // Cut short, as a disk that filled up or a copy that stopped would leave it.
    writeFileSync(databaseFile(), good.subarray(0, Math.floor(good.length / 3)));
    const reopened = open();
    const summary = await reopened.refresh();
    expect(summary).toMatchObject({ changed: 32 });
    expect(summary.restored).toBeUndefined();
    expect(summary.problems).toEqual([expect.stringMatching(/^the saved index cannot be used: .*; the workspace is indexed again$/)]);
    expect((await reopened.search("hash password"))[0]?.path).toBe("src/auth/passwords.ts");
    await reopened.close();
    expect(await open().refresh()).toMatchObject({ changed: 0, restored: true });
  });

  it("a file that is not SQLite at all, where the index should be, is replaced", async () => {
    mkdirSync(storeDir(), { recursive: true });
    writeFileSync(databaseFile(), "{ this is not a database }");
    const summary = await open().refresh();
    expect(summary.problems?.[0]).toMatch(/the saved index cannot be used: SQLite cannot read it/);
    expect(summary.changed).toBe(32);
  });

  it("an index saved by an earlier Kiln (a JSON snapshot) is replaced by a database", async () => {
    mkdirSync(storeDir(), { recursive: true });
    writeFileSync(join(storeDir(), "index.json"), JSON.stringify({ version: 1, files: [] }));
    const summary = await open().refresh();
    expect(summary).toMatchObject({ changed: 32 });
    expect(summary.problems).toBeUndefined();
    expect(existsSync(join(storeDir(), "index.json"))).toBe(false);
    expect(existsSync(databaseFile())).toBe(true);
  });

  it("a lock left by a process that died inside a transaction does not keep the index locked", async () => {
    const first = open();
    await first.refresh();
    await first.close();
    // node-sqlite3-wasm locks with a folder beside the database; a crash leaves it behind.
    const lock = `${databaseFile()}.lock`;
    mkdirSync(lock);
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(lock, old, old);
    put("src/ui/button.ts", "export function renderToggleSwitch(): string {\n  return '';\n}\n");
    expect(await open().refresh()).toMatchObject({ changed: 1, restored: true });
    expect(existsSync(lock)).toBe(false);
  });

  it("another workspace's saved index, copied into this one's folder, is not used", async () => {
    await open().refresh();
    const other = mkdtempSync(join(tmpdir(), "kiln-store-other-"));
    try {
      cpSync(storeDir(), indexDirFor(storeParent, other), { recursive: true });
      const summary = await new CodebaseIndex(other, { storeDir: indexDirFor(storeParent, other) }).refresh();
      expect(summary.problems?.[0]).toMatch(/it was made for .*, not /);
      expect(summary).toMatchObject({ filesTotal: 0, chunks: 0 });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("clear forgets the index in memory and on disk; the next refresh builds it from nothing", async () => {
    const index = open();
    await index.refresh();
    expect((await index.status()).saved?.bytes).toBeGreaterThan(0);
    await index.clear();
    expect(await index.status()).toEqual({ files: 0, chunks: 0, storeDir: storeDir() });
    expect(await index.search("hash password")).toEqual([]);
    expect(await index.refresh()).toMatchObject({ changed: 32 });
  });

  it("a watcher's change is on disk when refreshPaths resolves: another session sees it", async () => {
    const index = open();
    await index.refresh();
    put("src/ui/button.ts", "export function renderToggleSwitch(): string {\n  return '';\n}\n");
    await index.refreshPaths(["src/ui/button.ts"]);
    const other = open();
    expect((await other.search("toggle switch"))[0]?.symbols).toEqual(["renderToggleSwitch"]);
    expect(await other.refresh()).toMatchObject({ changed: 0, restored: true });
  });

  it("a save that cannot be written leaves the index working and says why", async () => {
    // The store's folder cannot be made: a file is where it would go.
    writeFileSync(join(storeParent, "blocker"), "");
    const index = new CodebaseIndex(root, { storeDir: join(storeParent, "blocker", "index") });
    opened.push(index);
    const summary = await index.refresh();
    expect(summary.problems).toEqual([expect.stringMatching(/^the index cannot be saved in .*blocker.*; it is kept in memory for now$/)]);
    expect((await index.search("hash password"))[0]?.path).toBe("src/auth/passwords.ts");
  });
});
