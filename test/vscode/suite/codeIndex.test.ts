import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, exchange, kiln, waitFor, xmlCall } from "./helpers";

/** The codebase index in the real extension host: a worker thread, a file watcher, the status bar. */
describe("the codebase index in VS Code", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const added = join(workspace, "src", "farewell.ts");
  let server: FakeModelServer;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(async () => {
    rmSync(added, { force: true });
    await vscode.workspace.getConfiguration("kiln").update("index.enabled", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("is built when the folder opens; a file saved later is indexed by the watcher and found by a task", async () => {
    const api = await kiln();
    const ready = await waitFor("the index to be built", () => {
      const state = api.codeIndexState();
      return state.state === "ready" ? state : undefined;
    });
    assert.ok(ready.files >= 2, `files ${ready.files}`);
    writeFileSync(added, "/** Says goodbye, politely. */\nexport function sayFarewell(name: string): string {\n  return `Goodbye, ${name}.`;\n}\n");
    // The watcher, not a task, brings it in: the count grows before anyone searches.
    await waitFor("the new file to be indexed", () => {
      const state = api.codeIndexState();
      return state.state === "ready" && state.files === ready.files + 1 ? state : undefined;
    });
    await configure("openai-compatible", server.openaiBaseUrl);
    api.sidebar.newTask();
    server.enqueue(xmlCall("codebase_search", { query: "say goodbye" }), xmlCall("attempt_completion", { result: "Found it." }));
    await exchange(api.sidebar, { type: "chat/send", text: "Where do we say goodbye?" }, 30_000);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(sent, /## src\/farewell\.ts:1-4 score 1\.00 \(sayFarewell\)/);
  });

  it("kiln.index.enabled off ends the index and hides it; on builds it again", async () => {
    const api = await kiln();
    const config = vscode.workspace.getConfiguration("kiln");
    await config.update("index.enabled", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index to stop", () => (api.codeIndexState().state === "off" ? true : undefined));
    await config.update("index.enabled", undefined, vscode.ConfigurationTarget.Global);
    await waitFor("the index to be built again", () => (api.codeIndexState().state === "ready" ? true : undefined));
  });
});
