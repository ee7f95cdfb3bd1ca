import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { ChatSession } from "../../../src/hosts/vscode/chat/ChatSession";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, exchange, kiln, replyText, requestOn, setKiln } from "./helpers";

type Snapshot = Extract<HostToWebview, { type: "chat/snapshot" }>;

/** The snapshot a new task posts: what the page shows first. */
function freshSnapshot(session: ChatSession): Snapshot {
  let snapshot: Snapshot | undefined;
  const listener = session.onDidPost((m) => {
    if (m.type === "chat/snapshot") snapshot = m;
  });
  session.newTask();
  listener.dispose();
  assert.ok(snapshot, "a new task posts a snapshot");
  return snapshot;
}

const KEY = "sk-welcome-host";

describe("first-run welcome", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  before(async () => {
    server = await new FakeModelServer({ apiKey: KEY, models: ["fake-large", "fake-small"], fallback: () => ({ text: "OK" }) }).start();
  });
  beforeEach(async () => {
    // A fresh install: no provider settings, no key, the welcome never dismissed.
    restore = await setKiln({ "provider.kind": undefined, "provider.baseUrl": undefined, "provider.model": undefined, "provider.retries": 0, activeProfile: undefined });
    const api = await kiln();
    await api.setSecretForTest("openai", undefined);
    await api.forgetWelcomeForTest();
  });
  afterEach(async () => {
    const api = await kiln();
    await api.setSecretForTest("openai", undefined);
    await restore();
  });
  after(() => server.close());

  it("a fresh install opens on the welcome; lists models, tests, saves, and the chat then answers", async () => {
    const api = await kiln();
    const welcome = freshSnapshot(api.sidebar).welcome;
    assert.ok(welcome, "the welcome shows");
    assert.deepEqual(
      welcome.providers.filter((p) => p.featured).map((p) => p.kind),
      ["anthropic", "openai", "openrouter", "gemini", "ollama"],
    );
    const kinds = welcome.providers.map((p) => p.kind);
    for (const kind of ["openai-compatible", "lmstudio", "deepseek", "mistral", "xai", "groq", "zai"]) assert.ok(kinds.includes(kind as never), `offers ${kind}`);
    // Those need their cloud's own settings: the settings view sets them up.
    for (const kind of ["bedrock", "vertex", "azure"]) assert.ok(!kinds.includes(kind as never), `leaves ${kind} to the settings`);
    assert.equal(welcome.current.kind, "anthropic");

    const form = { kind: "openai", baseUrl: server.openaiBaseUrl, model: "fake-large", key: KEY };
    const models = await requestOn(api.sidebar, "welcome/models", form);
    assert.deepEqual(models.result, { ok: true, models: ["fake-large", "fake-small"] });

    const wrong = await requestOn(api.sidebar, "welcome/test", { ...form, key: "sk-typo" });
    assert.equal((wrong.result as { problem?: string }).problem, "key");
    const right = await requestOn(api.sidebar, "welcome/test", form);
    assert.equal((right.result as { ok: boolean }).ok, true, JSON.stringify(right.result));
    // Testing saves nothing: the key is still only in the form.
    assert.equal(await api.readSecret("openai"), undefined);

    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    const finished = await requestOn(api.sidebar, "welcome/finish", form);
    listener.dispose();
    assert.equal(finished.ok, true, finished.message);
    assert.equal(finished.message, "Kiln uses OpenAI, fake-large.");
    const after = posted.find((m): m is Snapshot => m.type === "chat/snapshot");
    assert.ok(after && after.welcome === undefined, "the chat replaces the welcome");
    assert.deepEqual(after.provider.model, "fake-large");
    assert.equal(await api.readSecret("openai"), KEY, "the key went to SecretStorage");
    const provider = vscode.workspace.getConfiguration("kiln.provider");
    assert.equal(provider.get("kind"), "openai");
    assert.equal(provider.get("model"), "fake-large");

    server.enqueue({ text: `Hello from the model you set up.\n${COMPLETE}` });
    const turn = await exchange(api.sidebar, { type: "chat/send", text: "first message" });
    assert.equal(replyText(turn).trim(), "Hello from the model you set up.");
    const sent = server.requests.at(-1)!;
    assert.equal(sent.body.model, "fake-large");
    assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
    assert.equal(freshSnapshot(api.sidebar).welcome, undefined, "and it does not come back");
  });

  it("refuses to finish with a field at fault, saving nothing", async () => {
    const api = await kiln();
    const noUrl = await requestOn(api.sidebar, "welcome/finish", { kind: "openai-compatible", baseUrl: "", model: "qwen", key: "" });
    assert.deepEqual({ ok: noUrl.ok, field: noUrl.field }, { ok: false, field: "baseUrl" });
    const noKey = await requestOn(api.sidebar, "welcome/finish", { kind: "openai", baseUrl: "", model: "", key: "" });
    assert.deepEqual({ ok: noKey.ok, field: noKey.field }, { ok: false, field: "key" });
    assert.match(noKey.message, /OPENAI_API_KEY/);
    const presetNoKey = await requestOn(api.sidebar, "welcome/finish", { kind: "deepseek", baseUrl: "", model: "", key: "" });
    assert.deepEqual({ ok: presetNoKey.ok, field: presetNoKey.field }, { ok: false, field: "key" });
    assert.match(presetNoKey.message, /DEEPSEEK_API_KEY/);
    const localNoModel = await requestOn(api.sidebar, "welcome/finish", { kind: "ollama", baseUrl: "", model: "", key: "" });
    assert.deepEqual({ ok: localNoModel.ok, field: localNoModel.field }, { ok: false, field: "model" });
    const settingsOnly = await requestOn(api.sidebar, "welcome/finish", { kind: "bedrock", baseUrl: "", model: "", key: "" });
    assert.equal(settingsOnly.ok, false);
    assert.equal(vscode.workspace.getConfiguration("kiln.provider").inspect("kind")?.globalValue, undefined);
    assert.ok(freshSnapshot(api.sidebar).welcome, "the welcome stays");
  });

  it("Skip ends it for good; Kiln: Set Up a Provider brings it back over a configured provider", async () => {
    const api = await kiln();
    const skipped = await requestOn(api.sidebar, "welcome/skip", {});
    assert.match(skipped.message, /Kiln: Set Up a Provider/);
    assert.equal(freshSnapshot(api.sidebar).welcome, undefined);

    await api.forgetWelcomeForTest();
    await setKiln({ "provider.kind": "openai-compatible", "provider.baseUrl": server.openaiBaseUrl, "provider.model": "fake-small" });
    assert.equal(freshSnapshot(api.sidebar).welcome, undefined, "settings made by hand or a script count as set up");

    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    await vscode.commands.executeCommand("kiln.setUpProvider");
    listener.dispose();
    const shown = posted.find((m): m is Snapshot => m.type === "chat/snapshot")?.welcome;
    assert.ok(shown, "the command shows the welcome");
    assert.deepEqual(shown.current, { kind: "openai-compatible", baseUrl: server.openaiBaseUrl, model: "fake-small" });
    await requestOn(api.sidebar, "welcome/skip", {});
  });
});
