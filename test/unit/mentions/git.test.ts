import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/core/mentions/resolve";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

let root: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
const resolve = (text: string) => resolveMentions(text, { cwd: root, fs: new NodeFileSystem(), allowPrivateUrls: false });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-git-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function initRepo(): string {
  git("init", "-q");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "Tester");
  writeFileSync(join(root, "a.txt"), "first\n");
  git("add", "a.txt");
  git("commit", "-q", "-m", "Add a.txt");
  return git("rev-parse", "HEAD").trim();
}

describe("git mentions", () => {
  it("@git-changes shows the status and the diff of uncommitted changes", async () => {
    initRepo();
    writeFileSync(join(root, "a.txt"), "first\nsecond\n");
    writeFileSync(join(root, "new.txt"), "n\n");
    const out = await resolve("review @git-changes");
    expect(out).toContain("<git_working_state>");
    expect(out).toContain(" M a.txt");
    expect(out).toContain("?? new.txt");
    expect(out).toContain("+second");
  });

  it("@git-changes says when there is nothing to show", async () => {
    initRepo();
    expect(await resolve("@git-changes")).toContain("No uncommitted changes.");
  });

  it("@<sha> shows a commit's message and diff; an unknown sha is named", async () => {
    const sha = initRepo();
    const out = await resolve(`what did @${sha.slice(0, 8)} do?`);
    expect(out).toContain(`<git_commit hash="${sha.slice(0, 8)}">`);
    expect(out).toContain("Add a.txt");
    expect(out).toContain("+first");
    expect(await resolve("@deadbeef1")).toContain("there is no commit deadbeef1 in this repository.");
  });

  it("says clearly when the workspace is not a git repository", async () => {
    expect(await resolve("@git-changes")).toContain("Error: the workspace is not a git repository.");
  });
});
