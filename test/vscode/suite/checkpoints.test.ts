import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { CheckpointItem } from "../../../src/shared/protocol/checkpoints";
import { chatItems, COMPLETE, exchange, kiln, setKiln, startTurn, useFakeModel, waitFor, xmlCall } from "./helpers";

describe("checkpoints in the real host", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const path = (name: string) => join(workspace, name);
  const FILES = ["checkpoint-a.txt", "checkpoint-new.txt"];
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    restore = await useFakeModel(server);
    (await kiln()).sidebar.newTask();
  });
  afterEach(async () => {
    await restore();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const name of FILES) rmSync(path(name), { force: true });
  });

  /** A turn that writes checkpoint-a.txt and creates checkpoint-new.txt (both approved), then completes. */
  async function editTurn(posted: HostToWebview[]): Promise<CheckpointItem> {
    const api = await kiln();
    writeFileSync(path("checkpoint-a.txt"), "original\r\n");
    server.enqueue(
      xmlCall("write_to_file", { path: "checkpoint-a.txt", content: "changed by the model", line_count: 1 }),
      xmlCall("write_to_file", { path: "checkpoint-new.txt", content: "created", line_count: 1 }),
      { text: COMPLETE },
    );
    const turn = startTurn(api.sidebar, "Edit the file");
    turn.answer((await turn.card()).id, true);
    turn.answer((await turn.card("the second edit's card")).id, true);
    await turn.done;
    posted.push(...turn.posted);
    assert.equal(readFileSync(path("checkpoint-a.txt"), "utf8"), "changed by the model\r\n");
    const checkpoints = chatItems(posted).filter((i): i is CheckpointItem => i.role === "checkpoint");
    assert.deepEqual(
      checkpoints.map((c) => c.message),
      ["Before write_to_file checkpoint-a.txt", "Before write_to_file checkpoint-new.txt"],
    );
    assert.ok(
      checkpoints.every((c) => c.commit && c.apiIndex !== undefined),
      JSON.stringify(checkpoints),
    );
    // The checkpoint shows before the edit's result: the card is marked done only after it.
    const shownAt = turn.posted.findIndex((m) => m.type === "chat/appended" && m.item.id === checkpoints[0]!.id);
    const doneAt = turn.posted.findIndex((m) => m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.status === "done");
    assert.ok(shownAt !== -1 && shownAt < doneAt, `checkpoint at ${shownAt}, edit done at ${doneAt}`);
    return checkpoints[0]!;
  }

  it("a checkpoint before an approved edit; Restore files brings the file back byte for byte and removes the one created since", async () => {
    const api = await kiln();
    const checkpoint = await editTurn([]);
    api.sidebar.receive({ type: "chat/checkpoint", id: checkpoint.id, action: "restoreFiles" });
    await waitFor("the file to be restored", () => (existsSync(path("checkpoint-a.txt")) && readFileSync(path("checkpoint-a.txt"), "utf8") === "original\r\n" ? true : undefined));
    await waitFor("the created file to be removed", () => (existsSync(path("checkpoint-new.txt")) ? undefined : true));
  });

  it("Diff since opens VS Code's multi-file diff editor, or its diff editor for one file, the checkpoint on the left", async () => {
    const api = await kiln();
    const checkpoint = await editTurn([]);
    const short = checkpoint.commit!.slice(0, 8);
    const activeTab = () => vscode.window.tabGroups.activeTabGroup.activeTab;
    api.sidebar.receive({ type: "chat/checkpoint", id: checkpoint.id, action: "diff" });
    // Two files changed since: the changed one and the one created (VS Code adds "(2 files)" to the title).
    await waitFor("the multi-file diff editor", () => (activeTab()?.label.startsWith(`Changes since checkpoint ${short}`) ? true : undefined)).catch((err: unknown) => {
      throw new Error(`${String(err)}; the active tab: ${activeTab()?.label} (${activeTab()?.input?.constructor.name})`);
    });

    // With the created file gone, one file differs: the diff editor, the checkpoint's text on the left.
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(path("checkpoint-new.txt"));
    api.sidebar.receive({ type: "chat/checkpoint", id: checkpoint.id, action: "diff" });
    const input = await waitFor("the diff editor", () => {
      const tab = activeTab()?.input;
      return tab instanceof vscode.TabInputTextDiff ? tab : undefined;
    });
    assert.equal(activeTab()?.label, `checkpoint-a.txt (checkpoint ${short} ↔ now)`);
    assert.equal(input.original.scheme, "kiln-checkpoint");
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "original\r\n");
    assert.equal(input.modified.fsPath, path("checkpoint-a.txt"));
  });

  it("with kiln.checkpoints.enabled off, the first edit of a task says so once, and the edits go ahead", async () => {
    const api = await kiln();
    const undo = await setKiln({ "checkpoints.enabled": false, autoApprove: ["read", "edit"] });
    try {
      server.enqueue(xmlCall("write_to_file", { path: "checkpoint-a.txt", content: "one", line_count: 1 }), xmlCall("write_to_file", { path: "checkpoint-new.txt", content: "two", line_count: 1 }), {
        text: COMPLETE,
      });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Write two files" });
      assert.equal(readFileSync(path("checkpoint-new.txt"), "utf8"), "two\n");
      const notes = chatItems(posted).filter((i): i is CheckpointItem => i.role === "checkpoint");
      assert.equal(notes.length, 1, JSON.stringify(notes));
      assert.equal(notes[0]!.commit, undefined);
      assert.match(notes[0]!.note ?? "", /turned off \(the setting kiln\.checkpoints\.enabled\)/);
    } finally {
      await undo();
    }
  });

  it("Restore files and task also takes the chat and the conversation back to the checkpoint", async () => {
    const api = await kiln();
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      const checkpoint = await editTurn(posted);
      const requestsBefore = server.requests.length;
      api.sidebar.receive({ type: "chat/checkpoint", id: checkpoint.id, action: "restoreTask" });
      await waitFor("the chat to end at the checkpoint", () => (chatItems(posted).at(-1)?.id === checkpoint.id ? true : undefined));
      assert.equal(readFileSync(path("checkpoint-a.txt"), "utf8"), "original\r\n");
      assert.equal(existsSync(path("checkpoint-new.txt")), false);
      const items = chatItems(posted);
      assert.ok(!items.some((i) => i.role === "completion"), "the completion after the checkpoint is gone");
      assert.equal(items.filter((i) => i.role === "checkpoint").length, 1, "the later checkpoint is gone too");

      // The task takes a new message from there: the model hears the edit was undone, and nothing after it.
      server.enqueue({ text: COMPLETE });
      await exchange(api.sidebar, { type: "chat/send", text: "Leave the file alone after all" });
      assert.equal(server.requests.length, requestsBefore + 1);
      const messages = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
      const last = JSON.stringify(messages.at(-1));
      assert.match(last, /restored the files to the checkpoint/);
      assert.match(last, /Leave the file alone after all/);
      // The system prompt lists open tabs, which may hold the new file: the conversation is what counts.
      const conversation = JSON.stringify(messages.filter((m) => m.role !== "system"));
      assert.ok(!conversation.includes("checkpoint-new.txt"), "the second edit, made after the checkpoint, is not in the conversation");
      assert.equal(messages.filter((m) => m.role === "assistant").length, 1, "only the reply that made the first edit");
    } finally {
      listener.dispose();
    }
  });
});
