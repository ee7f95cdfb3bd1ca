import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { restoreParts } from "../../../src/core/agent/taskRecord";
import { UsageMeter } from "../../../src/core/agent/usage";
import { HistoryStore } from "../../../src/core/history/HistoryStore";
import { TaskRecorder } from "../../../src/core/history/recorder";
import { INTERRUPTED_NOTE, mendInterrupted } from "../../../src/core/history/resume";
import type { SavedTask } from "../../../src/core/history/types";
import { Emitter } from "../../../src/shared/disposable";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

function saved(status: string, ui: SavedTask["ui"]): SavedTask {
  return {
    entry: {
      id: "t1",
      title: "Task",
      workspace: "/w",
      mode: "code",
      model: "m",
      protocol: "native",
      tokensIn: 100,
      tokensOut: 20,
      cacheRead: 5,
      cacheWrite: 0,
      cost: 0.5,
      createdAt: 1,
      updatedAt: 2,
      favorite: false,
      status,
    },
    api: [{ role: "user", content: "Task" }],
    ui,
    resume: { todos: [{ text: "step", status: "in_progress" }], requests: 4 },
  };
}

describe("reopening a saved task", () => {
  it("marks calls that were streaming, waiting or running as interrupted, with no approval left to click", () => {
    const { items, interrupted } = mendInterrupted([
      { id: "m1", role: "user", text: "go" },
      { id: "m2", role: "assistant", text: "Writing", partial: true },
      { id: "m3", role: "tool", name: "write_to_file", params: {}, status: "waiting", approval: { summary: "Write a", outsideWorkspace: false } },
      { id: "m4", role: "tool", name: "read_file", params: {}, status: "done", result: "ok" },
    ]);
    expect(interrupted).toBe(1);
    expect(items[1]).toMatchObject({ partial: false });
    expect(items[2]).toEqual({ id: "m3", role: "tool", name: "write_to_file", params: {}, status: "error", result: INTERRUPTED_NOTE });
    expect(items[3]).toMatchObject({ status: "done", result: "ok" });
  });

  it("a task saved while running comes back stopped (so Resume goes on); a finished one keeps its status, usage and todos", () => {
    const usage = new UsageMeter();
    const crashed = restoreParts(saved("running", [{ id: "m1", role: "user", text: "Task" }]), usage);
    expect(crashed.status).toBe("stopped");
    expect(crashed.requests).toBe(4);
    expect(crashed.todos).toEqual([{ text: "step", status: "in_progress" }]);
    expect(usage.total()).toEqual({ inputTokens: 100, outputTokens: 20, cacheReadTokens: 5, cacheWriteTokens: 0 });
    expect(usage.totalCost()).toBe(0.5);
    expect(restoreParts(saved("completed", []), new UsageMeter()).status).toBe("completed");
    expect(restoreParts(saved("answering", []), new UsageMeter()).status).toBe("answering");
  });
});

describe("saving a task as it runs", () => {
  it("saves at once when the task stops, and once after a burst of changes", async () => {
    const root = mkdtempSync(join(tmpdir(), "kiln-recorder-"));
    try {
      const changes = new Emitter<{ type: string; status?: string }>();
      let version = 0;
      const task = { onDidChange: changes.event, saved: () => saved("running", [{ id: "m1", role: "user", text: `version ${++version}` }]) };
      const store = new HistoryStore(root, new NodeFileSystem());
      const recorder = new TaskRecorder(task, store, { info: () => {}, warn: () => {}, error: (m) => expect.fail(m) });
      for (let i = 0; i < 50; i++) changes.fire({ type: "textDelta" });
      changes.fire({ type: "status", status: "completed" });
      await recorder.flush();
      expect(version).toBe(1);
      expect((await store.load("t1")).ui[0]).toMatchObject({ text: "version 1" });
      recorder.dispose();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
