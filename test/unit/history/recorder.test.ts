import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../../src/core/history/HistoryStore";
import { TaskRecorder } from "../../../src/core/history/recorder";
import type { SavedTask } from "../../../src/core/history/types";
import { silentLogger } from "../../fixtures/silentLogger";
import { Emitter } from "../../../src/shared/disposable";

/** A task whose every change is a new chat item, and a store whose saves finish when told to. */
function setup() {
  const changes = new Emitter<{ type: string; status?: string }>();
  let items = 0;
  const task = {
    onDidChange: changes.event,
    saved: () => ({ entry: { id: "t1" }, api: [], ui: Array.from({ length: items }, (_, i) => ({ id: `m${i}`, role: "user", text: "x" })) }) as unknown as SavedTask,
  };
  const saved: number[] = [];
  const finishers: (() => void)[] = [];
  const store = {
    save: (snapshot: SavedTask) =>
      new Promise<void>((resolve) =>
        finishers.push(() => {
          saved.push(snapshot.ui.length);
          resolve();
        }),
      ),
  } as unknown as HistoryStore;
  const recorder = new TaskRecorder(task, store, silentLogger);
  const change = () => {
    items++;
    changes.fire({ type: "appended" });
  };
  return { recorder, change, saved, finishers };
}

describe("saving a task as it runs", () => {
  it("folds the flushes that come during a slow save into one more save of the latest state", async () => {
    const { recorder, change, saved, finishers } = setup();
    change();
    const first = recorder.flush();
    for (let i = 0; i < 50; i++) {
      change();
      void recorder.flush();
    }
    // Each save finishes when told to; the flushes that came meanwhile make one more save, not fifty.
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    await tick();
    while (finishers.length > 0) {
      finishers.shift()!();
      await tick();
    }
    await first;
    expect(saved).toEqual([1, 51]);
  });

  it("keeps nothing until the user has said something: a note the chat shows first (a folder it cannot work in) is no task", async () => {
    const changes = new Emitter<{ type: string }>();
    let ui: { id: string; role: string }[] = [{ id: "workspace-problem", role: "error" }];
    const task = { onDidChange: changes.event, saved: () => ({ entry: { id: "t1" }, api: [], ui }) as unknown as SavedTask };
    const saved: number[] = [];
    const recorder = new TaskRecorder(task, { save: async (snapshot: SavedTask) => void saved.push(snapshot.ui.length) } as unknown as HistoryStore, silentLogger);
    changes.fire({ type: "mode" });
    await recorder.flush();
    expect(saved).toEqual([]);
    ui = [...ui, { id: "m1", role: "user" }];
    changes.fire({ type: "appended" });
    await recorder.flush();
    expect(saved).toEqual([2]);
  });
});
