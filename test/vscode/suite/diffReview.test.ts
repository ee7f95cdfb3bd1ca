import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, kiln, promptOf, setKiln, startTurn, waitFor, xmlCall } from "./helpers";

/** The diff editor Kiln opened for a review, if one is open. */
function reviewTab(): vscode.TabInputTextDiff | undefined {
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === "kiln-proposed") return tab.input;
  }
  return undefined;
}

async function textOf(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

describe("edits reviewed in VS Code's diff editor", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const path = (name: string) => join(workspace, name);
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    restore = await setKiln({ autoApprove: ["read"] });
    await configure("openai-compatible", server.openaiBaseUrl);
    (await kiln()).sidebar.newTask();
    server.clearQueue();
  });
  afterEach(async () => {
    await restore();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const name of ["review.txt", "crlf.txt", "never.txt", "edited.txt", "dirty.txt", "conf.json"]) rmSync(path(name), { force: true });
  });

  it("shows the original on the left and the proposal on the right; Approve writes it and closes the tabs", async () => {
    const api = await kiln();
    writeFileSync(path("review.txt"), "alpha\nbeta\n");
    // XML values lose the newline at their edges, so the proposal ends without one.
    server.enqueue(xmlCall("write_to_file", { path: "review.txt", content: "alpha\nBETA", line_count: 2 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Capitalise beta");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    assert.equal(tab.original.scheme, "kiln-original");
    assert.equal(await textOf(tab.original), "alpha\nbeta\n");
    assert.equal(await textOf(tab.modified), "alpha\nBETA");
    assert.equal(readFileSync(path("review.txt"), "utf8"), "alpha\nbeta\n", "nothing is written while the review is open");
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("review.txt"), "utf8"), "alpha\nBETA");
    assert.equal(reviewTab(), undefined, "the review's tabs are closed");
  });

  it("Reject leaves the file byte for byte (CRLF and BOM), creates no new file, and closes the tabs", async () => {
    const api = await kiln();
    const bytes = Buffer.from("\uFEFFone\r\ntwo\r\n", "utf8");
    writeFileSync(path("crlf.txt"), bytes);
    server.enqueue(
      xmlCall("write_to_file", { path: "crlf.txt", content: "one\nTWO\n", line_count: 2 }),
      xmlCall("write_to_file", { path: "never.txt", content: "should not exist\n", line_count: 1 }),
      { text: COMPLETE },
    );
    const turn = startTurn(api.sidebar, "Change both");
    const first = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    assert.equal(await textOf(tab.modified), "one\r\nTWO", "the proposal keeps the file's line endings");
    turn.answer(first.id, false);
    const second = await turn.card("the new file's card");
    await waitFor("the new file's diff", () => (reviewTab()?.modified.path.endsWith("never.txt") ? true : undefined));
    turn.answer(second.id, false);
    await turn.done;
    assert.deepEqual(readFileSync(path("crlf.txt")), bytes);
    assert.equal(existsSync(path("never.txt")), false);
    assert.equal(reviewTab(), undefined);
  });

  it("the user's change to the right side is what is saved, and the model gets it as a patch", async () => {
    const api = await kiln();
    writeFileSync(path("edited.txt"), "first\n");
    server.enqueue(xmlCall("write_to_file", { path: "edited.txt", content: "first\nsecond", line_count: 2 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Add a line");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    const right = await vscode.workspace.openTextDocument(tab.modified);
    const typed = new vscode.WorkspaceEdit();
    typed.insert(right.uri, new vscode.Position(1, 0), "typed by the user\n");
    assert.ok(await vscode.workspace.applyEdit(typed));
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("edited.txt"), "utf8"), "first\ntyped by the user\nsecond");
    const told = promptOf(server.requests.at(-1)!).all;
    assert.match(told, /The user edited your proposal before saving/);
    assert.match(told, /\+typed by the user/);
    assert.equal(reviewTab(), undefined, "closing the edited proposal asked nothing");
  });

  it("unsaved changes in an open editor are kept: the edit starts from them and saves them with it", async () => {
    const api = await kiln();
    writeFileSync(path("dirty.txt"), "one\ntwo\n");
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path("dirty.txt")));
    await vscode.window.showTextDocument(doc);
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(doc.uri, new vscode.Position(0, 0), "zero (unsaved)\n");
    assert.ok(await vscode.workspace.applyEdit(unsaved));
    assert.ok(doc.isDirty);
    server.enqueue(xmlCall("insert_content", { path: "dirty.txt", line: 0, content: "three" }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Append three");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    assert.equal(await textOf(tab.original), "zero (unsaved)\none\ntwo\n", "the review starts from what the user sees");
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("dirty.txt"), "utf8"), "zero (unsaved)\none\ntwo\nthree\n");
    assert.equal(doc.isDirty, false);
    assert.equal(doc.getText(), "zero (unsaved)\none\ntwo\nthree\n", "the editor shows the saved file");
  });

  it("after the save, the model hears of the errors the edit added, not of those already there", async () => {
    const api = await kiln();
    // One error before the edit (a property missing after ",,"); the edit keeps it and adds another (a missing colon).
    writeFileSync(path("conf.json"), '{\n  "a": 1,,\n  "b": 2\n}\n');
    server.enqueue(xmlCall("write_to_file", { path: "conf.json", content: '{\n  "a": 1,,\n  "b": 3,\n  "c" 4\n}', line_count: 5 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Set b to 3 and add c");
    const card = await turn.card();
    turn.answer(card.id, true);
    await turn.done;
    const told = promptOf(server.requests.at(-1)!).all;
    assert.match(told, /New problems in conf.json after this edit/);
    assert.match(told, /4:7 Colon expected/);
    assert.doesNotMatch(told, /Property expected/, "the error that was there before is not reported as new");
  });
});
