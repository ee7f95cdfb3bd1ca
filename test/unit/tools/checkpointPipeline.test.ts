import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ChatLog } from "../../../src/core/agent/ChatLog";
import type { CheckpointResult } from "../../../src/core/checkpoints/ShadowCheckpoints";
import { TaskCheckpoints, type CheckpointStore } from "../../../src/core/checkpoints/taskCheckpoints";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalDecision } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

let cwd: string;
let answer: ApprovalDecision;
/** What the store was asked to save, with a.txt as it was on disk at that moment. */
let saves: { taskId: string; message: string; fileThen: string }[];
let outcome: CheckpointResult;

const store: CheckpointStore = {
  save: async (taskId, message) => {
    saves.push({ taskId, message, fileThen: readFileSync(join(cwd, "a.txt"), "utf8") });
    return outcome;
  },
  restore: () => Promise.reject(new Error("not in these tests")),
  diffSince: () => Promise.reject(new Error("not in these tests")),
  changedSince: () => Promise.reject(new Error("not in these tests")),
  fileAt: () => Promise.reject(new Error("not in these tests")),
};

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-checkpoint-pipeline-"));
  writeFileSync(join(cwd, "a.txt"), "old\n");
  answer = { approved: true };
  saves = [];
  outcome = { kind: "saved", commit: "c0ffee1", skippedLarge: [] };
});

function setUp(checkpoints = TaskCheckpoints.create({ store })) {
  const log = new ChatLog();
  const deps: PipelineDeps = {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => answer },
    autoApprove: { groups: new Set(), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
    beforeEdit: checkpoints.beforeEdits(log, 7),
  };
  return { log, deps, checkpoints };
}

const call = (name: string, params: Record<string, string>): ToolUseBlock => ({ type: "tool_use", name, params, partial: false });

describe("a checkpoint before each edit", () => {
  it("is taken once the edit is approved and before it writes, and shows in the chat", async () => {
    const { log, deps, checkpoints } = setUp();
    const result = await runToolCall(call("write_to_file", { path: "a.txt", content: "new\n" }), deps);
    expect(result.status).toBe("done");
    expect(saves).toEqual([{ taskId: checkpoints.taskId, message: "Before write_to_file a.txt", fileThen: "old\n" }]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("new\n");
    expect(log.snapshot()).toEqual([{ id: "m1", role: "checkpoint", message: "Before write_to_file a.txt", commit: "c0ffee1", apiIndex: 7 }]);
  });

  it("is taken before each edit of a reply, in order, only the first able to rewind the task; never for reads or rejected edits", async () => {
    const { log, deps } = setUp();
    await runToolCall(call("read_file", { path: "a.txt" }), deps);
    answer = { approved: false };
    await runToolCall(call("write_to_file", { path: "a.txt", content: "rejected\n" }), deps);
    expect(saves).toEqual([]);
    answer = { approved: true };
    await runToolCall(call("write_to_file", { path: "a.txt", content: "one\n" }), deps);
    await runToolCall(call("write_to_file", { path: "a.txt", content: "two\n" }), deps);
    expect(saves.map((s) => [s.message, s.fileThen])).toEqual([
      ["Before write_to_file a.txt", "old\n"],
      ["Before write_to_file a.txt", "one\n"],
    ]);
    const rows = log.snapshot().filter((i) => i.role === "checkpoint");
    expect(rows.map((r) => r.role === "checkpoint" && r.apiIndex)).toEqual([7, undefined]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
  });

  it("a skipped checkpoint never holds the edit up, and its note shows once per task", async () => {
    outcome = { kind: "skipped", reason: "the checkpoint took longer than 15 s and was skipped" };
    const first = setUp();
    expect((await runToolCall(call("write_to_file", { path: "a.txt", content: "new\n" }), first.deps)).status).toBe("done");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("new\n");
    // The next reply of the same task: another try, no second note.
    const next = setUp(first.checkpoints);
    await runToolCall(call("write_to_file", { path: "a.txt", content: "newer\n" }), { ...next.deps, beforeEdit: first.checkpoints.beforeEdits(first.log, 9) });
    expect(saves).toHaveLength(2);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("newer\n");
    expect(first.log.snapshot()).toEqual([
      { id: "m1", role: "checkpoint", message: "Before write_to_file a.txt", note: "No checkpoint: the checkpoint took longer than 15 s and was skipped. Edits go ahead without one." },
    ]);
  });

  it("a store that throws counts as skipped; a subtask's checkpoint restores files only", async () => {
    const failing: CheckpointStore = { ...store, save: () => Promise.reject(new Error("git is not installed")) };
    const { log, deps } = setUp(TaskCheckpoints.create({ store: failing }));
    expect((await runToolCall(call("write_to_file", { path: "a.txt", content: "new\n" }), deps)).status).toBe("done");
    expect(log.snapshot()[0]).toMatchObject({ role: "checkpoint", note: expect.stringContaining("git is not installed") });
    const parent = TaskCheckpoints.create({ store });
    parent.useTaskId("task-from-history");
    const sub = setUp(parent.forSubtask());
    await runToolCall(call("write_to_file", { path: "a.txt", content: "sub\n" }), sub.deps);
    expect(saves.at(-1)!.taskId).toBe("task-from-history");
    expect(sub.log.snapshot()[0]).not.toHaveProperty("apiIndex");
  });
});
