import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, setKiln, waitFor, xmlCall } from "./helpers";

describe("the end-of-task review of changed files", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const path = (name: string) => join(workspace, name);
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    // Auto-approved and in the background: this is about what the task changed, not the review of each edit.
    restore = await setKiln({ autoApprove: ["read", "edit"], "edits.openDiffEditor": false });
    await configure("openai-compatible", server.openaiBaseUrl);
    (await kiln()).sidebar.newTask();
    server.clearQueue();
  });
  afterEach(async () => {
    await restore();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const name of ["kept.txt", "made.txt"]) rmSync(path(name), { force: true });
  });

  it("lists each changed file once with its state before the task; a diff and a revert per file", async () => {
    const api = await kiln();
    writeFileSync(path("kept.txt"), "v1\r\n");
    server.enqueue(
      xmlCall("write_to_file", { path: "kept.txt", content: "v2", line_count: 1 }),
      xmlCall("write_to_file", { path: "kept.txt", content: "v3", line_count: 1 }),
      xmlCall("write_to_file", { path: "made.txt", content: "new", line_count: 1 }),
      { text: COMPLETE },
    );
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "Change things" }, 30_000);
    const info = posted.flatMap((m) => (m.type === "chat/task" ? [m.task] : [])).at(-1);
    assert.equal(info?.changedFiles, 2, "the header counts the files");
    const changes = api.sidebar.taskChanges!.list().map((c) => [c.display, c.kind, c.before]);
    assert.deepEqual(changes, [
      ["kept.txt", "modified", "v1\r\n"],
      ["made.txt", "created", undefined],
    ]);

    await vscode.commands.executeCommand("kiln.reviewTaskChanges");
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    const diff = await waitFor("the review's diff", () => {
      for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) if (tab.input instanceof vscode.TabInputTextDiff) return tab.input;
      return undefined;
    });
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), "v1\r\n");
    assert.equal(diff.modified.fsPath, path("kept.txt"));

    assert.equal(await vscode.commands.executeCommand("kiln.revertTaskChange", path("kept.txt")), true);
    assert.equal(await vscode.commands.executeCommand("kiln.revertTaskChange", path("made.txt")), true);
    assert.deepEqual(readFileSync(path("kept.txt")), Buffer.from("v1\r\n"));
    assert.equal(existsSync(path("made.txt")), false);
    assert.deepEqual(api.sidebar.taskChanges!.list(), []);
  });
});
