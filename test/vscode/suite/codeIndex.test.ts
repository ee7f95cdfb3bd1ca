import * as assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { DATABASE_FILE, indexDirFor } from "../../../src/core/codeIndex/indexDatabase";
import { FakeEmbeddingServer } from "../../fixtures/fakeEmbeddingServer";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import type { SettingsState } from "../../../src/shared/protocol/settings";
import { configure, exchange, kiln, toSettings, waitFor, xmlCall } from "./helpers";

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
    await vscode.workspace.getConfiguration("kiln").update("index.enabled", undefined, vscode.ConfigurationTarget.Workspace);
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

  it("is saved in global storage: turned off and on again, it reads back what it saved and no file", async () => {
    const api = await kiln();
    const saved = join(indexDirFor(join(api.globalStorageUri.fsPath, "codeIndex"), workspace), DATABASE_FILE);
    assert.ok(existsSync(saved), `no saved index at ${saved}`);
    const config = vscode.workspace.getConfiguration("kiln");
    await config.update("index.enabled", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index to stop", () => (api.codeIndexState().state === "off" ? true : undefined));
    await config.update("index.enabled", undefined, vscode.ConfigurationTarget.Global);
    const again = await waitFor("the index to be back", () => {
      const state = api.codeIndexState();
      return state.state === "ready" ? state : undefined;
    });
    // farewell.ts came after the first build: the watcher's change was written at once.
    assert.deepEqual({ restored: again.restored, changed: again.changed }, { restored: true, changed: 0 });
  });

  it("the settings page shows the index; its Rebuild reads every file again, the command palette's too", async () => {
    const api = await kiln();
    const { state } = await toSettings(api, { type: "settings/ready" });
    assert.equal(state?.codeIndex.state, "ready");
    assert.ok(state.codeIndex.saved && state.codeIndex.saved.bytes > 0, JSON.stringify(state.codeIndex));
    const rebuilt = await toSettings(api, { type: "settings/rebuildIndex" });
    assert.deepEqual(rebuilt.answer, { ok: true, message: "Indexing the workspace again, from nothing.", result: { message: "Indexing the workspace again, from nothing." } });
    const fresh = await waitFor("the rebuild to finish", () => {
      const now = api.codeIndexState();
      return now.state === "ready" ? now : undefined;
    });
    assert.ok(!fresh.restored && fresh.files >= 3, JSON.stringify(fresh));
    await vscode.commands.executeCommand("kiln.index.rebuild");
    await waitFor("the command's rebuild to finish", () => (api.codeIndexState().state === "ready" ? true : undefined));
  });

  it("Delete removes the saved index and turns indexing off for the workspace; the switch turns it on again", async () => {
    const api = await kiln();
    const saved = join(indexDirFor(join(api.globalStorageUri.fsPath, "codeIndex"), workspace), DATABASE_FILE);
    assert.ok(existsSync(saved));
    const deleted = await toSettings(api, { type: "settings/deleteIndex" });
    assert.equal(deleted.answer?.message, "Deleted the saved index; the codebase index is off for this workspace.");
    assert.equal(api.codeIndexState().state, "off");
    assert.equal(existsSync(saved), false);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("index.enabled")?.workspaceValue, false);
    assert.deepEqual({ enabled: deleted.state?.codeIndex.enabled, state: deleted.state?.codeIndex.state }, { enabled: false, state: "off" });
    const on = await toSettings(api, { type: "settings/setIndexEnabled", enabled: true });
    assert.equal(on.answer?.message, "Indexing this workspace.");
    const built = await waitFor("the index to be built again", () => {
      const now = api.codeIndexState();
      return now.state === "ready" ? now : undefined;
    });
    // Nothing was saved to start from (the watcher's refresh after it may report 0 changed: the count is the last refresh's).
    assert.ok(!built.restored && built.files >= 3, JSON.stringify(built));
    await waitFor("the index to be saved again", () => (existsSync(saved) ? true : undefined));
  });

  it("the settings page's embedder form writes the settings and keeps the key in secret storage; a bad one is refused whole", async () => {
    const api = await kiln();
    // Read afresh each time: a configuration object is a snapshot.
    const config = () => vscode.workspace.getConfiguration("kiln");
    try {
      const refused = await toSettings(api, { type: "settings/setEmbedder", kind: "openai-compatible", model: "m", baseUrl: "", region: "", key: "sk-form" });
      assert.deepEqual(refused.answer, { ok: false, message: "The openai-compatible embedder needs a base URL (the one that ends in /v1).", field: "baseUrl" });
      assert.equal(config().get("index.embedder"), "none");
      const saved = await toSettings(api, { type: "settings/setEmbedder", kind: "mistral", model: "", baseUrl: "", region: "", key: "sk-form" });
      assert.equal(saved.answer?.message, "Saved: the index gives the chunks vectors from mistral (codestral-embed).");
      assert.deepEqual([config().get("index.embedder"), config().get("index.embedderModel")], ["mistral", "codestral-embed"]);
      const view = (await toSettings(api, { type: "settings/ready" })).state?.codeIndex.embedderSettings;
      assert.deepEqual(view, { kind: "mistral", model: "codestral-embed", baseUrl: "", region: "", hasKey: true });
      // The key is in secret storage, not in any setting.
      assert.ok(!JSON.stringify(config()).includes("sk-form"));
      const off = await toSettings(api, { type: "settings/setEmbedder", kind: "none", model: "", baseUrl: "", region: "", key: "" });
      assert.equal(off.answer?.message, "The codebase index ranks by words alone.");
      assert.equal((await toSettings(api, { type: "settings/ready" })).state?.codeIndex.embedderSettings?.hasKey, false);
    } finally {
      for (const key of ["index.embedder", "index.embedderModel", "index.embedderBaseUrl", "index.embedderRegion"]) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("with an embedder in the settings, the chunks get vectors, the settings page says so, and a task finds code by meaning", async () => {
    const api = await kiln();
    const embeddings = await new FakeEmbeddingServer().start();
    const removal = join(workspace, "src", "removal.ts");
    const config = vscode.workspace.getConfiguration("kiln");
    try {
      writeFileSync(removal, "export function deleteUser(id: string): void {\n  db.users.destroy(id);\n}\n");
      await config.update("index.embedderModel", "text-embedding-3-small", vscode.ConfigurationTarget.Global);
      await config.update("index.embedderBaseUrl", embeddings.openaiBaseUrl, vscode.ConfigurationTarget.Global);
      await config.update("index.embedder", "openai-compatible", vscode.ConfigurationTarget.Global);
      let view: SettingsState["codeIndex"] | undefined;
      for (const started = Date.now(); Date.now() - started < 30_000; await new Promise((r) => setTimeout(r, 200))) {
        view = (await toSettings(api, { type: "settings/ready" })).state?.codeIndex;
        if (view?.embedder && view.vectors && view.chunks && view.vectors >= view.chunks - 1 && embeddings.requests.some((r) => r.inputs.some((t) => t.includes("deleteUser")))) break;
      }
      assert.match(view?.embedder ?? "", /^openai-compatible:text-embedding-3-small@http:\/\/127\.0\.0\.1:\d+\/v1$/, JSON.stringify(view));
      assert.ok((view?.vectors ?? 0) > 0, JSON.stringify(view));
      await configure("openai-compatible", server.openaiBaseUrl);
      api.sidebar.newTask();
      server.enqueue(xmlCall("codebase_search", { query: "erase a customer account" }), xmlCall("attempt_completion", { result: "Found it." }));
      await exchange(api.sidebar, { type: "chat/send", text: "Where do we erase accounts?" }, 30_000);
      assert.match(JSON.stringify(server.requests.at(-1)!.body.messages), /## src\/removal\.ts:1-3 score 1\.00 \(deleteUser\)/);
    } finally {
      for (const key of ["index.embedder", "index.embedderModel", "index.embedderBaseUrl"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      rmSync(removal, { force: true });
      await embeddings.close();
    }
  });
});
