import * as assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { HistoryStore } from "../../../src/core/history/HistoryStore";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { chatItems, COMPLETE, exchange, kiln, promptOf, useFakeModel, waitFor, xmlCall } from "./helpers";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

type HistoryState = Extract<HostToWebview, { type: "history/state" }>["state"];

/** Sends a history message as the page would and waits for the state the host answers with. */
async function historyState(raw: unknown): Promise<HistoryState> {
  const api = await kiln();
  return new Promise((resolve) => {
    const listener = api.sidebar.onDidPost((m) => {
      if (m.type !== "history/state") return;
      listener.dispose();
      resolve(m.state);
    });
    api.sidebar.receive(raw);
  });
}

/** Asks again until `find` has an answer: the task is saved shortly after it ends. */
async function eventually<T>(what: string, find: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("Task history in the real host", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    restore = await useFakeModel(server);
  });
  afterEach(async () => {
    (await kiln()).sidebar.newTask();
    await restore();
  });

  it("saves a finished task, lists it, and reopens it from the history view to go on with it", async () => {
    const api = await kiln();
    api.sidebar.newTask();
    server.enqueue(xmlCall("read_file", { path: "README.md" }), { text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "Summarise the readme for history" });

    const entry = await eventually("the task in the history list", async () => {
      const state = await historyState({ type: "history/open" });
      return state.entries.find((e) => e.title === "Summarise the readme for history" && e.status === "completed");
    });
    assert.equal(entry.workspace, workspace);
    assert.equal(entry.mode, "code");
    assert.ok(entry.tokensIn > 0, "the task's tokens are saved");

    // A new task, as after a reload; then the saved one is opened from the list.
    api.sidebar.newTask();
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    api.sidebar.receive({ type: "history/resume", id: entry.id });
    const snapshot = await waitFor("the reopened task's snapshot", () => posted.find((m): m is Extract<HostToWebview, { type: "chat/snapshot" }> => m.type === "chat/snapshot"));
    listener.dispose();
    assert.equal(snapshot.items[0]?.role === "user" && snapshot.items[0].text, "Summarise the readme for history");
    assert.ok(snapshot.items.some((i) => i.role === "tool" && i.name === "read_file" && i.status === "done"));
    assert.ok(snapshot.items.some((i) => i.role === "completion"));

    // The model sees the whole earlier conversation when the user goes on.
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "And now the license" });
    const sent = promptOf(server.requests.at(-1)!).all;
    assert.match(sent, /Summarise the readme for history[\s\S]*read_file[\s\S]*And now the license/);
    const again = await eventually("the same entry, updated", async () => (await historyState({ type: "history/open" })).entries.find((e) => e.id === entry.id && e.updatedAt > entry.updatedAt));
    assert.equal(again.title, "Summarise the readme for history");
  });

  it("a task saved mid-call (a crash) comes back stopped, its call marked interrupted and not run again; Resume goes on", async () => {
    const api = await kiln();
    const target = join(workspace, "history-crash.txt");
    rmSync(target, { force: true });
    const id = "crashed-task-1";
    await api.history.store.save({
      entry: {
        id,
        title: "Write the crash file",
        workspace,
        mode: "code",
        model: "fake-model",
        protocol: "xml",
        tokensIn: 10,
        tokensOut: 5,
        cacheRead: 0,
        cacheWrite: 0,
        createdAt: 1,
        updatedAt: 2,
        favorite: false,
        status: "running",
      },
      api: [
        { role: "user", content: "Write the crash file" },
        { role: "assistant", content: "<write_to_file>\n<path>history-crash.txt</path>\n<content>x</content>\n</write_to_file>" },
      ],
      ui: [
        { id: "m1", role: "user", text: "Write the crash file" },
        {
          id: "m2",
          role: "tool",
          name: "write_to_file",
          params: { path: "history-crash.txt", content: "x" },
          status: "waiting",
          approval: { summary: "Write history-crash.txt", outsideWorkspace: false },
        },
      ],
    });
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    api.sidebar.receive({ type: "history/resume", id });
    const snapshot = await waitFor("the reopened task", () => posted.find((m): m is Extract<HostToWebview, { type: "chat/snapshot" }> => m.type === "chat/snapshot"));
    listener.dispose();
    const card = snapshot.items.find((i) => i.role === "tool");
    assert.equal(card?.role === "tool" && card.status, "error");
    assert.match(card?.role === "tool" ? (card.result ?? "") : "", /Interrupted/);
    assert.equal(card?.role === "tool" && card.approval, undefined, "no Approve button is left on the card");
    assert.equal(snapshot.task?.status, "stopped");

    server.enqueue({ text: COMPLETE });
    const resumed = await exchange(api.sidebar, { type: "chat/resume" });
    assert.match(promptOf(server.requests.at(-1)!).all, /resumed the task after it stopped/);
    assert.ok(chatItems(resumed).some((i) => i.role === "completion"));
    assert.throws(() => readFileSync(target), "the interrupted write did not run");
  });

  it("another window saving tasks into the same history at the same time loses none of them, nor this window's task", async () => {
    const api = await kiln();
    // A second store on the same folder stands for a second VS Code window: separate queues, one lock file.
    const other = new HistoryStore(api.history.store.root, new NodeFileSystem());
    api.sidebar.newTask();
    server.enqueue({ text: COMPLETE, chunkDelayMs: 5 });
    const ours = exchange(api.sidebar, { type: "chat/send", text: "This window's task while the other saves" });
    const base = {
      workspace: "/elsewhere",
      mode: "code",
      model: "m",
      protocol: "xml" as const,
      tokensIn: 1,
      tokensOut: 1,
      cacheRead: 0,
      cacheWrite: 0,
      createdAt: 1,
      favorite: false,
      status: "completed",
    };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        other.save({ entry: { ...base, id: `other-window-${i}`, title: `Other window ${i}`, updatedAt: i }, api: [{ role: "user", content: "x" }], ui: [{ id: "m1", role: "user", text: "x" }] }),
      ),
    );
    await ours;
    const state = await eventually("both windows' tasks", async () => {
      const listed = await historyState({ type: "history/open" });
      return listed.entries.some((e) => e.title === "This window's task while the other saves") ? listed : undefined;
    });
    assert.equal(state.entries.filter((e) => e.id.startsWith("other-window-")).length, 20);
    for (let i = 0; i < 20; i++) await other.delete(`other-window-${i}`);
  });

  it("stars, exports as Markdown and deletes saved tasks; the open task cannot be deleted", async () => {
    const api = await kiln();
    api.sidebar.newTask();
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "A task to export" });
    const saved = await eventually("the saved task", async () => (await historyState({ type: "history/open" })).entries.find((e) => e.title === "A task to export"));

    const starred = await historyState({ type: "history/favorite", id: saved.id, favorite: true });
    assert.equal(starred.entries.find((e) => e.id === saved.id)?.favorite, true);

    const file = vscode.Uri.file(join(workspace, "exported-task.md"));
    await api.history.exportTask(saved.id, file);
    const markdown = readFileSync(file.fsPath, "utf8");
    rmSync(file.fsPath, { force: true });
    assert.match(markdown, /^# A task to export\n/);
    assert.match(markdown, /## User\n\nA task to export/);

    const kept = await historyState({ type: "history/delete", id: saved.id });
    assert.ok(
      kept.entries.some((e) => e.id === saved.id),
      "the task open in the chat is not deleted",
    );
    api.sidebar.newTask();
    const gone = await historyState({ type: "history/delete", id: saved.id });
    assert.ok(!gone.entries.some((e) => e.id === saved.id));
  });
});
