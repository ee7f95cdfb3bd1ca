import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, kiln, promptOf, reviewTab, setKiln, startTurn, textOf, toolCards, waitFor, xmlCall } from "./helpers";

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
    for (const name of ["first.json", "second.json", "review.txt", "crlf.txt", "never.txt", "edited.txt", "dirty.txt", "conf.json", "quiet.txt", "hunks.txt", "stream.txt"])
      rmSync(path(name), { force: true });
  });

  it("shows the original on the left and the proposal on the right; Approve writes it and closes the tabs", async () => {
    const api = await kiln();
    writeFileSync(path("review.txt"), "alpha\nbeta\n");
    // XML values lose the newline at their edges; the proposal ends with one, as the file did.
    server.enqueue(xmlCall("write_to_file", { path: "review.txt", content: "alpha\nBETA", line_count: 2 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Capitalise beta");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    assert.equal(tab.original.scheme, "kiln-original");
    assert.equal(await textOf(tab.original), "alpha\nbeta\n");
    assert.equal(await textOf(tab.modified), "alpha\nBETA\n");
    assert.equal(readFileSync(path("review.txt"), "utf8"), "alpha\nbeta\n", "nothing is written while the review is open");
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("review.txt"), "utf8"), "alpha\nBETA\n");
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
    assert.equal(await textOf(tab.modified), "one\r\nTWO\r\n", "the proposal keeps the file's line endings and its final line break");
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
    assert.equal(readFileSync(path("edited.txt"), "utf8"), "first\ntyped by the user\nsecond\n");
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

  it("edits to several files leave no tab pinned: each file shows in the one preview tab, with its new text", async () => {
    const api = await kiln();
    writeFileSync(path("first.json"), '{ "a": 1 }\n');
    writeFileSync(path("second.json"), '{ "b": 1 }\n');
    server.enqueue(xmlCall("write_to_file", { path: "first.json", content: '{ "a": 2 }', line_count: 1 }), xmlCall("write_to_file", { path: "second.json", content: '{ "b": 2 }', line_count: 1 }), {
      text: COMPLETE,
    });
    const turn = startTurn(api.sidebar, "Bump both");
    turn.answer((await turn.card()).id, true);
    await waitFor("the second review", () => (reviewTab()?.modified.path.endsWith("second.json") ? true : undefined));
    turn.answer((await turn.card("the second card")).id, true);
    await turn.done;
    assert.equal(readFileSync(path("second.json"), "utf8"), '{ "b": 2 }\n');
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText);
    assert.deepEqual(
      tabs.map((t) => [t.label, t.isPreview]),
      [["second.json", true]],
      "the first file's tab gave way to the second's",
    );
    const shown = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path("second.json"));
    assert.equal(shown?.getText(), '{ "b": 2 }\n', "the editor shows the saved file");
    assert.equal(shown?.isDirty, false);
  });

  it("with kiln.edits.openDiffEditor off, the card alone reviews the edit and no editor opens", async () => {
    const api = await kiln();
    const undo = await setKiln({ "edits.openDiffEditor": false });
    try {
      writeFileSync(path("quiet.txt"), "before");
      server.enqueue(xmlCall("write_to_file", { path: "quiet.txt", content: "after", line_count: 1 }), { text: COMPLETE });
      const turn = startTurn(api.sidebar, "Change it quietly");
      const card = await turn.card();
      assert.equal(reviewTab(), undefined, "no diff editor");
      assert.match(card.approval?.diff ?? "", /\+after/, "the card shows the diff");
      assert.equal(card.approval?.inEditor, undefined, "and unfolded: no editor has it");
      turn.answer(card.id, true);
      await turn.done;
      assert.equal(readFileSync(path("quiet.txt"), "utf8"), "after");
      assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0, "no tab was opened");
    } finally {
      await undo();
    }
  });

  it("each change has its own Discard: a discarded one is not saved, the rest is, and the model is told which", async () => {
    const api = await kiln();
    writeFileSync(path("hunks.txt"), "one\ntwo\nthree\nfour\n");
    server.enqueue(xmlCall("write_to_file", { path: "hunks.txt", content: "one\nTWO\nthree\nFOUR\n", line_count: 4 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Capitalise two and four");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", tab.modified);
    const discards = lenses.filter((l) => l.command?.command === "kiln.discardHunk");
    assert.deepEqual(
      lenses.filter((l) => l.command?.command === "").map((l) => l.command?.title),
      ["Change 1 of 2", "Change 2 of 2"],
    );
    assert.equal(discards.length, 2);
    assert.equal(await vscode.commands.executeCommand(discards[1]!.command!.command, ...(discards[1]!.command!.arguments ?? [])), true);
    assert.equal(await textOf(tab.modified), "one\nTWO\nthree\nfour\n", "the discarded change is gone from the proposal");
    // The card said the diff editor has it, and now shows what is left of the proposal.
    assert.equal(card.approval?.inEditor, true);
    assert.match(card.approval?.diff ?? "", /\+FOUR/);
    const revised = await waitFor("the card's diff without the discarded change", () => {
      const diff = toolCards(turn.posted).find((c) => c.id === card.id)?.approval?.diff;
      return diff && !diff.includes("+FOUR") ? diff : undefined;
    });
    assert.match(revised, /\+TWO/);
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("hunks.txt"), "utf8"), "one\nTWO\nthree\nfour\n");
    assert.match(promptOf(server.requests.at(-1)!).all, /The user discarded this change of your proposal: line 4 of the proposal \(1 removed, 1 added\); the rest was saved/);
  });

  it("a write streams into the diff editor as it arrives, and its review takes that diff over", async () => {
    const api = await kiln();
    writeFileSync(path("stream.txt"), "old 1\nold 2\nold 3\nold 4\nold 5\nold 6\n");
    const lines = ["new 1", "new 2", "new 3", "new 4", "new 5", "new 6"];
    const call = `<write_to_file>\n<path>stream.txt</path>\n<content>\n${lines.join("\n")}\n</content>\n<line_count>6</line_count>\n</write_to_file>`;
    // One line per chunk, slowly: the diff must show the write before the call is complete.
    server.enqueue({ chunks: call.split(/(?<=\n)/), chunkDelayMs: 150 }, { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Rewrite stream.txt");
    const streaming = await waitFor("the diff while the call streams", () => {
      const tab = reviewTab();
      const cards = toolCards(turn.posted);
      return tab && cards.length > 0 && cards.every((c) => c.status === "streaming") ? tab : undefined;
    });
    const seen = await waitFor("a partly written right side", () => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === streaming.modified.toString());
      const text = doc?.getText() ?? "";
      return text.startsWith("new 1") && text.includes("old 6") ? text : undefined;
    });
    assert.match(seen, /^new 1\n/, "the written lines come first, the rest of the original after them");
    const card = await turn.card();
    const review = await waitFor("the review", reviewTab);
    assert.equal(review.modified.toString(), streaming.modified.toString(), "the review is the streamed diff, not a second one");
    assert.equal(await textOf(review.modified), `${lines.join("\n")}\n`);
    turn.answer(card.id, true);
    await turn.done;
    assert.equal(readFileSync(path("stream.txt"), "utf8"), `${lines.join("\n")}\n`);
    assert.equal(reviewTab(), undefined);
  });
});
