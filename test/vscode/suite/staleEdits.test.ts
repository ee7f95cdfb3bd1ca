import * as assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, kiln, promptOf, reviewTab, startTurn, useFakeModel, waitFor, xmlCall } from "./helpers";

const diff = (search: string, replace: string) => `\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const SOURCE = "const a = 1;\nconst b = 2;\nconst c = 3;\n";

/** The user types in the file while Kiln's proposal for it waits in the diff editor. */
describe("an edit whose file the user changes while the proposal waits", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const path = (name: string) => join(workspace, name);
  const names = ["stale-diff.ts", "stale-write.ts"];
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
    await vscode.commands.executeCommand("workbench.action.files.revert");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const name of names) rmSync(path(name), { force: true });
  });

  /** Opens the file and types a first line into it, unsaved, as a user would. */
  async function typeInto(name: string, line: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path(name)));
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), `${line}\n`);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    return doc;
  }

  it("apply_diff is made again on what the user typed: both are saved, and the model is told", async () => {
    const api = await kiln();
    writeFileSync(path("stale-diff.ts"), SOURCE);
    server.enqueue(xmlCall("apply_diff", { path: "stale-diff.ts", diff: diff("const b = 2;", "const b = 20;") }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Raise b");
    const card = await turn.card();
    await waitFor("the diff editor", reviewTab);
    const doc = await typeInto("stale-diff.ts", "// typed by the user");
    turn.answer(card.id, true);
    await turn.done;
    const expected = `// typed by the user\n${SOURCE.replace("const b = 2;", "const b = 20;")}`;
    assert.equal(doc.getText(), expected);
    assert.equal(readFileSync(path("stale-diff.ts"), "utf8"), expected, "saved with both changes");
    assert.match(promptOf(server.requests.at(-1)!).all, /stale-diff\.ts had changed after you read it/);
  });

  it("write_to_file does not replace what the user typed meanwhile", async () => {
    const api = await kiln();
    writeFileSync(path("stale-write.ts"), SOURCE);
    server.enqueue(xmlCall("write_to_file", { path: "stale-write.ts", content: "export {};", line_count: 1 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Rewrite it");
    const card = await turn.card();
    await waitFor("the diff editor", reviewTab);
    const doc = await typeInto("stale-write.ts", "// typed by the user");
    turn.answer(card.id, true);
    await turn.done;
    assert.match(promptOf(server.requests.at(-1)!).all, /stale-write\.ts changed after your edit was made from it/);
    const typed = `// typed by the user\n${SOURCE}`;
    assert.equal(doc.getText(), typed, "the user's text stays in the editor");
    // code-server saves after a delay (files.autoSave), so the disk holds the typed text or the old.
    assert.ok([SOURCE, typed].includes(readFileSync(path("stale-write.ts"), "utf8")), "Kiln's content was not written");
  });
});
