import * as assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { LATIN1 } from "../../fixtures/files/encodings";
import { COMPLETE, kiln, promptOf, reviewTab, startTurn, textOf, useFakeModel, waitFor, xmlCall } from "./helpers";

const diff = (search: string, replace: string) => `\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const latin1 = (text: string) => Buffer.from(text, "latin1");

describe("edits in VS Code keep the file's bytes", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const path = (name: string) => join(workspace, name);
  const names = ["latin1.ts", "latin1-open.ts", "hinted.ts"];
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
    for (const name of names) rmSync(path(name), { force: true });
  });

  it("a Latin-1 file edited through the diff review: its text shown as it is, its untouched bytes and final line break kept", async () => {
    const api = await kiln();
    writeFileSync(path("latin1.ts"), LATIN1.bytes);
    server.enqueue(xmlCall("apply_diff", { path: "latin1.ts", diff: diff("const niveau = 3;", "const niveau = 4; // modifié") }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Raise the level");
    const card = await turn.card();
    const tab = await waitFor("the diff editor", reviewTab);
    assert.equal(await textOf(tab.original), LATIN1.text, "the left side is the file's text, accents and all");
    const proposed = LATIN1.text.replace("const niveau = 3;", "const niveau = 4; // modifié");
    assert.equal(await textOf(tab.modified), proposed);
    turn.answer(card.id, true);
    await turn.done;
    assert.deepEqual(readFileSync(path("latin1.ts")), latin1(proposed));
    assert.match(promptOf(server.requests.at(-1)!).all, /Applied 1 block to latin1.ts/);
  });

  it("a Latin-1 file that an editor shows as UTF-8 (replacement characters) is written in Latin-1 all the same", async () => {
    const api = await kiln();
    writeFileSync(path("latin1-open.ts"), LATIN1.bytes);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path("latin1-open.ts")));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.encoding, "utf8", "VS Code reads it as UTF-8 unless told otherwise");
    server.enqueue(xmlCall("write_to_file", { path: "latin1-open.ts", content: "// Réécrit par Kiln", line_count: 1 }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Rewrite it");
    const card = await turn.card();
    turn.answer(card.id, true);
    await turn.done;
    assert.deepEqual(readFileSync(path("latin1-open.ts")), latin1("// Réécrit par Kiln\n"));
  });

  it("files.encoding names the encoding where the bytes are too few to tell, for the review and the save", async () => {
    const api = await kiln();
    const files = vscode.workspace.getConfiguration("files");
    const previous = files.inspect("encoding")?.globalValue;
    await files.update("encoding", "windows1252", vscode.ConfigurationTarget.Global);
    try {
      writeFileSync(path("hinted.ts"), latin1("const s = 'é';\n"));
      server.enqueue(xmlCall("apply_diff", { path: "hinted.ts", diff: diff("const s = 'é';", "const s = 'è'; // 5 €") }), { text: COMPLETE });
      const turn = startTurn(api.sidebar, "Change the letter");
      const card = await turn.card();
      const tab = await waitFor("the diff editor", reviewTab);
      assert.equal(await textOf(tab.modified), "const s = 'è'; // 5 €\n", "the proposal is not read in the setting's encoding");
      turn.answer(card.id, true);
      await turn.done;
      assert.deepEqual(readFileSync(path("hinted.ts")), Buffer.from("const s = '\xe8'; // 5 \x80\n", "latin1"));
    } finally {
      await files.update("encoding", previous, vscode.ConfigurationTarget.Global);
    }
  });
});
