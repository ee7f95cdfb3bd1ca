import * as assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, exchange, kiln, replyText } from "./helpers";

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // A folder the host never created holds no secret.
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() && stat.size < 50_000_000 ? [path] : [];
  });
}

describe("API key", () => {
  const key = `sk-kiln-${Date.now().toString(36)}-secret`;

  it("Set API Key puts the key in SecretStorage, and requests use it", async () => {
    const api = await kiln();
    const server = await new FakeModelServer({ apiKey: key }).start();
    try {
      await configure("openai", server.openaiBaseUrl);
      const saved = await vscode.commands.executeCommand<boolean>("kiln.setApiKey", key);
      assert.equal(saved, true);
      assert.equal(await api.readSecret("openai"), key);
      server.enqueue({ text: "authorised reply" });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "use my key" });
      assert.equal(replyText(posted), "authorised reply");
      assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${key}`);
    } finally {
      await server.close();
    }
  });

  it("the key is nowhere else: settings, workspace, storage, logs", async () => {
    const api = await kiln();
    const userData = process.env.KILN_TEST_USER_DATA;
    const workspace = process.env.KILN_TEST_WORKSPACE;
    assert.ok(userData && workspace, "the runner passes the profile and workspace folders");
    const settings = vscode.workspace.getConfiguration("kiln");
    assert.ok(!JSON.stringify(settings).includes(key));
    const files = [...filesUnder(userData), ...filesUnder(workspace), ...filesUnder(api.globalStorageUri.fsPath), ...filesUnder(api.logUri.fsPath)];
    assert.ok(
      files.some((f) => f.endsWith("settings.json")),
      "the scan covers the user settings file",
    );
    const leaks = files.filter((file) => readFileSync(file).includes(key));
    assert.deepEqual(leaks, []);
  });

  it("an empty key removes it", async () => {
    const api = await kiln();
    await vscode.commands.executeCommand("kiln.setApiKey", "");
    assert.equal(await api.readSecret("openai"), undefined);
  });

  it("a key with spaces is refused and the stored one is kept", async () => {
    const api = await kiln();
    await vscode.commands.executeCommand("kiln.setApiKey", "sk-one");
    const saved = await vscode.commands.executeCommand<boolean>("kiln.setApiKey", "not a key at all");
    assert.equal(saved, false);
    assert.equal(await api.readSecret("openai"), "sk-one");
    await vscode.commands.executeCommand("kiln.setApiKey", "");
  });
});
