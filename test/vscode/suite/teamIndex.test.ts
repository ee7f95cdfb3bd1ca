import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { asAdmin, startDebianPostgres, type DebianPostgres } from "../../fixtures/debianPostgres";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, exchange, kiln, toSettings, waitFor, xmlCall } from "./helpers";

/**
 * kiln.index.postgresUrl in the real extension host: the index's worker on Debian's PostgreSQL
 * server, signed in with the password kept in SecretStorage.
 */
describe("a team codebase index in VS Code", () => {
  let postgres: DebianPostgres;
  let server: FakeModelServer;
  before(async function () {
    this.timeout(120_000);
    [postgres, server] = await Promise.all([startDebianPostgres(), new FakeModelServer().start()]);
    await asAdmin(postgres, "CREATE ROLE kiln_team LOGIN PASSWORD 'team-pass-9'", "CREATE DATABASE code OWNER kiln_team");
  });
  after(async () => {
    await vscode.workspace.getConfiguration("kiln").update("index.postgresUrl", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("kiln.index.setPostgresPassword", "");
    await server?.close();
    await postgres?.stop();
  });

  it("without the password it says what to do; with it in secret storage, the index is on the server and a task searches it", async () => {
    const api = await kiln();
    await vscode.workspace.getConfiguration("kiln").update("index.postgresUrl", postgres.urlFor("kiln_team", "code"), vscode.ConfigurationTarget.Global);
    const failed = await waitFor("the index to fail without a password", () => {
      const state = api.codeIndexState();
      return state.state === "failed" ? state : undefined;
    });
    assert.match(
      failed.message,
      /^The team index at postgres:\/\/kiln_team@127\.0\.0\.1:\d+\/code cannot be used: the server asks for a password and none is set; set it with the team index password command/,
    );

    await vscode.commands.executeCommand("kiln.index.setPostgresPassword", "team-pass-9");
    const ready = await waitFor(
      "the index to be built on the server",
      () => {
        const state = api.codeIndexState();
        return state.state === "ready" ? state : undefined;
      },
      60_000,
    );
    assert.ok(ready.files >= 2, JSON.stringify(ready));
    const view = (await toSettings(api, { type: "settings/ready" })).state?.codeIndex;
    assert.match(view?.team?.server ?? "", /^postgres:\/\/kiln_team@127\.0\.0\.1:\d+\/code$/, JSON.stringify(view));
    assert.equal(view?.saved, undefined);

    await configure("openai-compatible", server.openaiBaseUrl);
    api.sidebar.newTask();
    server.enqueue(xmlCall("codebase_search", { query: "greet" }), xmlCall("attempt_completion", { result: "Found it." }));
    await exchange(api.sidebar, { type: "chat/send", text: "Where do we greet?" }, 30_000);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(sent, /result[s]? for \\"greet\\"/);
    // The password reached the server through SecretStorage, never the model.
    assert.ok(!sent.includes("team-pass-9"));
  });
});
