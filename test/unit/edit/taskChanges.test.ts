import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskChanges } from "../../../src/core/edit/taskChanges";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "kiln-changes-"));
  writeFileSync(join(cwd, "a.txt"), "\uFEFFalpha\r\nbeta\r\n");
  const changes = new TaskChanges();
  const deps: PipelineDeps = {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read", "edit"]), outsideWorkspace: false, categories: new Set(["delete"]) },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal, changes },
  };
  const run = (name: string, params: Record<string, string>) => runToolCall({ type: "tool_use", name, params, partial: false }, deps);
  return { cwd, changes, run };
}

describe("the task's changed files", () => {
  it("keeps each file as it was before the task's first edit, across later edits", async () => {
    const { cwd, changes, run } = setup();
    await run("insert_content", { path: "a.txt", line: "0", content: "gamma" });
    await run("search_and_replace", { path: "a.txt", search: "beta", replace: "BETA" });
    await run("write_to_file", { path: "new.txt", content: "fresh", line_count: "1" });
    expect(changes.list().map((c) => [c.display, c.kind, c.before])).toEqual([
      ["a.txt", "modified", "\uFEFFalpha\r\nbeta\r\n"],
      ["new.txt", "created", undefined],
    ]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toContain("BETA");
  });

  it("reverts a file byte for byte, and removes a file the task created", async () => {
    const { cwd, changes, run } = setup();
    await run("write_to_file", { path: "a.txt", content: "replaced", line_count: "1" });
    await run("write_to_file", { path: "new.txt", content: "fresh", line_count: "1" });
    const fs = new NodeFileSystem();
    await changes.revert(join(cwd, "a.txt"), fs);
    await changes.revert(join(cwd, "new.txt"), fs);
    expect(readFileSync(join(cwd, "a.txt"))).toEqual(Buffer.from("\uFEFFalpha\r\nbeta\r\n", "utf8"));
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    expect(changes.list()).toEqual([]);
  });

  it("a deleted file is listed as deleted and comes back on revert; one created and deleted is not listed", async () => {
    const { cwd, changes, run } = setup();
    await run("delete_file", { path: "a.txt" });
    await run("write_to_file", { path: "tmp.txt", content: "x", line_count: "1" });
    await run("delete_file", { path: "tmp.txt" });
    expect(changes.list().map((c) => [c.display, c.kind])).toEqual([["a.txt", "deleted"]]);
    await changes.revert(join(cwd, "a.txt"), new NodeFileSystem());
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("\uFEFFalpha\r\nbeta\r\n");
  });

  it("a rejected edit is not a change", async () => {
    const { changes, run, cwd } = setup();
    const deps = {
      registry: createDefaultRegistry(),
      mode: findMode("code")!,
      approvals: { request: async () => ({ approved: false }) },
      autoApprove: { groups: new Set<never>(), outsideWorkspace: false },
      context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal, changes },
    };
    await runToolCall({ type: "tool_use", name: "write_to_file", params: { path: "a.txt", content: "no", line_count: "1" }, partial: false }, deps);
    expect(changes.list()).toEqual([]);
    void run;
  });
});
