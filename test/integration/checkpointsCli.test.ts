import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn as xml } from "./cliProcess";

const setup = cliWithModelServer();

/** Every file under `dir` (the .git folder too) with its bytes, by relative path. */
function snapshot(dir: string, skip?: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const rel = relative(dir, path).split("\\").join("/");
    if (entry.isFile() && !(skip && (rel === skip || rel.startsWith(`${skip}/`)))) files.set(rel, readFileSync(path));
  }
  return files;
}

const PROVIDER = (workspace: string, checkpoints: string) => ["--provider", "openai", "--base-url", setup.server.openaiBaseUrl, "--workspace", workspace, "--checkpoint-dir", checkpoints];

describe.runIf(process.platform !== "win32")("checkpoints through the CLI", () => {
  it("kiln run takes a checkpoint before each reply's edits, and restore-checkpoint brings the workspace back byte for byte", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-cp-cli-"));
    const workspace = join(dir, "project");
    const checkpoints = join(dir, "checkpoints");
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(join(workspace, "a.txt"), "first version\n");
    writeFileSync(join(workspace, "win.txt"), "alpha\r\nbeta\r\ngamma\r\n");
    writeFileSync(join(workspace, "logo.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0x0d, 0x0a, 0x1a, 0]));
    writeFileSync(join(workspace, "old.md"), "# to be deleted\n");
    // The user's own repository, with a commit: Kiln must leave it exactly as it is.
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd: workspace, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
    git("init", "--quiet");
    git("add", "a.txt");
    git("commit", "--quiet", "-m", "user's commit");
    const before = snapshot(workspace);
    const userGit = snapshot(join(workspace, ".git"));

    setup.server.enqueue(
      xml("write_to_file", { path: "a.txt", content: "second version\n" }),
      xml("search_and_replace", { path: "win.txt", search: "beta", replace: "BETA" }),
      xml("write_to_file", { path: "src/created.ts", content: "export const created = true;\n" }),
      xml("delete_file", { path: "old.md" }),
      xml("attempt_completion", { result: "Edited." }),
    );
    const run = await runCli(setup.cli, ["run", ...PROVIDER(workspace, checkpoints), "--approve", "read,edit,delete", "--json", "Edit the files"], { OPENAI_API_KEY: "sk-cp" });
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; commit?: string; message?: string });
    const taken = events.filter((e) => e.type === "checkpoint");
    expect(taken.map((e) => e.message)).toEqual(["Before write_to_file a.txt", "Before search_and_replace win.txt", "Before write_to_file src/created.ts", "Before delete_file old.md"]);
    expect(readFileSync(join(workspace, "win.txt"), "utf8")).toBe("alpha\r\nBETA\r\ngamma\r\n");
    // Nothing of the checkpoints went into the workspace or its repository.
    expect(snapshot(join(workspace, ".git"))).toEqual(userGit);
    expect(readdirSync(checkpoints)).toEqual(["checkpoints"]);
    const edited = snapshot(workspace, ".git");

    const restore = await runCli(setup.cli, ["restore-checkpoint", taken[0]!.commit!, "--workspace", workspace, "--checkpoint-dir", checkpoints], {});
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("3 file(s) put back, 1 created since removed");
    expect(restore.stdout).toMatch(/removed {2}src\/created\.ts/);
    const after = snapshot(workspace);
    // Byte for byte: the CRLF file, the binary file, the deleted file back, the created one gone; .git as it was.
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [path, bytes] of before) expect(after.get(path)!.equals(bytes), path).toBe(true);
    expect(git("status", "--porcelain").toString()).toBe("?? logo.bin\n?? old.md\n?? win.txt\n");

    // The restore saved the files as they were, and can itself be undone.
    const undo = /kiln restore-checkpoint ([0-9a-f]{12}) undoes this/.exec(restore.stdout)![1]!;
    const again = await runCli(setup.cli, ["restore-checkpoint", undo, "--workspace", workspace, "--checkpoint-dir", checkpoints], {});
    expect(again.code, again.stderr).toBe(0);
    // (.git left out: the test's own git status above refreshed the user's index.)
    expect(snapshot(workspace, ".git")).toEqual(edited);
  });

  it("prints a line per checkpoint, takes none with --no-checkpoints, and refuses an unknown checkpoint", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-cp-cli-"));
    const workspace = join(dir, "project");
    const checkpoints = join(dir, "checkpoints");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "one");
    setup.server.enqueue(xml("write_to_file", { path: "a.txt", content: "two" }), xml("attempt_completion", { result: "Done." }));
    const shown = await runCli(setup.cli, ["run", ...PROVIDER(workspace, checkpoints), "--approve", "read,edit", "Edit"], { OPENAI_API_KEY: "sk-cp" });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/\[checkpoint ([0-9a-f]{12}): Before write_to_file a\.txt; kiln restore-checkpoint \1 puts the files back\]/);

    setup.server.enqueue(xml("write_to_file", { path: "a.txt", content: "three" }), xml("attempt_completion", { result: "Done." }));
    const none = await runCli(setup.cli, ["run", ...PROVIDER(workspace, join(dir, "unused")), "--no-checkpoints", "--approve", "read,edit", "Edit"], { OPENAI_API_KEY: "sk-cp" });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).not.toContain("checkpoint");
    expect(readdirSync(dir).sort()).toEqual(["checkpoints", "project"]);

    const unknown = await runCli(setup.cli, ["restore-checkpoint", "0123456789abcdef", "--workspace", workspace, "--checkpoint-dir", checkpoints], {});
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("There is no checkpoint 0123456789abcdef.");
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("three");
    const usage = await runCli(setup.cli, ["restore-checkpoint", "--workspace", workspace], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("restore-checkpoint needs a checkpoint's commit");
  });
});
