import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowCheckpoints } from "../../src/core/checkpoints/ShadowCheckpoints";

describe("checkpoints in a shadow git repository", () => {
  let dir: string;
  let workspace: string;
  let storage: string;
  const file = (path: string, content: string | Buffer) => {
    mkdirSync(join(workspace, path, ".."), { recursive: true });
    writeFileSync(join(workspace, path), content);
  };
  const read = (path: string) => readFileSync(join(workspace, path));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kiln-checkpoints-"));
    workspace = join(dir, "project");
    storage = join(dir, "storage");
    mkdirSync(workspace);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("restores a checkpoint byte for byte: changed, deleted and created files", async () => {
    const crlf = Buffer.from("line one\r\nline two\r\n");
    const binary = Buffer.from([0, 255, 10, 13, 0, 1, 2]);
    file("src/a.txt", crlf);
    file("src/b.bin", binary);
    file("gone.md", "# will be deleted\n");
    // The workspace's own attributes must not rewrite line endings on restore.
    file(".gitattributes", "* text=auto eol=lf\n");
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    const first = await checkpoints.save("task1", "before edit");
    expect(first.kind).toBe("saved");
    file("src/a.txt", "rewritten\n");
    rmSync(join(workspace, "gone.md"));
    file("src/new/created.ts", "export const x = 1;\n");
    const restored = await checkpoints.restore("task1", first.kind === "saved" ? first.commit : "");
    expect(read("src/a.txt").equals(crlf)).toBe(true);
    expect(read("src/b.bin").equals(binary)).toBe(true);
    expect(read("gone.md").toString()).toBe("# will be deleted\n");
    expect(existsSync(join(workspace, "src/new/created.ts"))).toBe(false);
    expect(restored.removed).toEqual(["src/new/created.ts"]);
    expect(restored.restored.sort()).toEqual(["gone.md", "src/a.txt"]);
  });

  it("never touches the user's own .git, and a restore can itself be undone", async () => {
    execFileSync("git", ["init", "--quiet"], { cwd: workspace });
    file("a.txt", "one\n");
    const before = readFileSync(join(workspace, ".git", "HEAD"), "utf8");
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    const first = await checkpoints.save("t", "first");
    file("a.txt", "two\n");
    await checkpoints.restore("t", first.kind === "saved" ? first.commit : "");
    expect(read("a.txt").toString()).toBe("one\n");
    const [undo] = await checkpoints.list("t");
    expect(undo!.message).toBe("Before restoring a checkpoint");
    await checkpoints.restore("t", undo!.commit);
    expect(read("a.txt").toString()).toBe("two\n");
    expect(readFileSync(join(workspace, ".git", "HEAD"), "utf8")).toBe(before);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: workspace }).toString()).toBe("?? a.txt\n");
  });

  it("leaves out ignored files, build folders and files over the size cap, and leaves them alone on restore", async () => {
    file(".gitignore", "secret.env\n");
    file("secret.env", "TOKEN=1\n");
    file("node_modules/lib/index.js", "module.exports = 1;\n");
    file("big.dat", Buffer.alloc(2048, 1));
    file("small.txt", "small\n");
    const checkpoints = new ShadowCheckpoints({ storage, workspace, maxFileBytes: 1024 });
    const first = await checkpoints.save("t", "first");
    expect(first).toMatchObject({ kind: "saved", skippedLarge: ["big.dat"] });
    file("secret.env", "TOKEN=2\n");
    file("big.dat", Buffer.alloc(4096, 2));
    file("small.txt", "changed\n");
    await checkpoints.restore("t", first.kind === "saved" ? first.commit : "");
    expect(read("small.txt").toString()).toBe("small\n");
    expect(read("secret.env").toString()).toBe("TOKEN=2\n");
    expect(read("big.dat").length).toBe(4096);
    expect(existsSync(join(workspace, "node_modules/lib/index.js"))).toBe(true);
  });

  it("shows the diff since a checkpoint, new files included, and says when nothing changed", async () => {
    file("a.txt", "one\n");
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    const first = await checkpoints.save("t", "first");
    const commit = first.kind === "saved" ? first.commit : "";
    expect(await checkpoints.save("t", "again")).toEqual({ kind: "unchanged", commit });
    file("a.txt", "two\n");
    file("b.txt", "new\n");
    const diff = await checkpoints.diffSince(commit);
    expect(diff).toContain("-one\n+two");
    expect(diff).toContain("+++ b/b.txt");
  });

  it("lists the files changed since a checkpoint, and gives a file's text as the checkpoint had it", async () => {
    file("a.txt", "one\n");
    file("gone.txt", "bye\n");
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    const first = await checkpoints.save("t", "first");
    const commit = first.kind === "saved" ? first.commit : "";
    file("a.txt", "two\n");
    file("dir/b c.txt", "new\n");
    rmSync(join(workspace, "gone.txt"));
    const changes = await checkpoints.changedSince(commit);
    expect(changes.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: "a.txt", change: "modified" },
      { path: "dir/b c.txt", change: "added" },
      { path: "gone.txt", change: "deleted" },
    ]);
    expect(await checkpoints.fileAt(commit, "a.txt")).toBe("one\n");
    expect(await checkpoints.fileAt(commit, "gone.txt")).toBe("bye\n");
    expect(await checkpoints.fileAt(commit, "dir/b c.txt")).toBeUndefined();
    await expect(checkpoints.fileAt("not-a-commit", "a.txt")).rejects.toThrow(/not a checkpoint id/);
  });

  it("is off, with the reason, in a home folder or a workspace holding another repository", async () => {
    mkdirSync(join(workspace, "vendor", "lib", ".git"), { recursive: true });
    const nested = new ShadowCheckpoints({ storage, workspace });
    expect(await nested.save("t", "x")).toEqual({ kind: "skipped", reason: expect.stringContaining("another git repository (vendor/lib)") });
    await expect(nested.restore("t", "abcdef1")).rejects.toThrow(/Checkpoints are off/);
  });

  it("refuses a checkpoint id that is not one, leaving the files as they are", async () => {
    file("a.txt", "one\n");
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    await checkpoints.save("t", "first");
    await expect(checkpoints.restore("t", "--hard")).rejects.toThrow(/not a checkpoint id/);
    await expect(checkpoints.restore("t", "0123456789abcdef0123456789abcdef01234567")).rejects.toThrow(/no checkpoint/);
    expect(read("a.txt").toString()).toBe("one\n");
  });

  it("skips a checkpoint that runs over its time budget, with a note, and the next one works", async () => {
    for (let i = 0; i < 300; i++) file(`f/${i}.txt`, `file ${i}\n`);
    const slow = new ShadowCheckpoints({ storage, workspace, timeBudgetMs: 1 });
    await slow.disabledReason();
    const result = await slow.save("t", "x");
    expect(result).toEqual({ kind: "skipped", reason: expect.stringMatching(/took longer than .* and was skipped|time budget/) });
    const normal = new ShadowCheckpoints({ storage, workspace });
    expect((await normal.save("t", "y")).kind).toBe("saved");
  });

  it("cleanup drops the oldest other tasks' checkpoints until the store fits", async () => {
    const checkpoints = new ShadowCheckpoints({ storage, workspace });
    for (const task of ["old", "mid", "current"]) {
      file(`${task}.bin`, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + task.length) % 256)));
      await checkpoints.save(task, task);
      rmSync(join(workspace, `${task}.bin`));
    }
    const dropped = await checkpoints.cleanup(1, ["current"]);
    expect(dropped.sort()).toEqual(["mid", "old"]);
    expect(await checkpoints.list("old")).toEqual([]);
    expect(await checkpoints.list("current")).toHaveLength(1);
  });
});
