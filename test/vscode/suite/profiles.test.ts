import * as assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { SettingsState } from "../../../src/shared/protocol/settings";
import type { HostToWebview, Pickers } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, setKiln, toSettings, waitFor, type RequestAnswer } from "./helpers";

/** Sends one message as the settings panel would; returns its answer and the state posted after it. */
async function panel(api: KilnTestApi, message: Record<string, unknown>): Promise<{ result?: RequestAnswer; state: SettingsState }> {
  const { answer, state } = await toSettings(api, message);
  assert.ok(state, `no state after ${JSON.stringify(message)}`);
  return { result: answer, state };
}

function form(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "settings/saveProfile", profile: { name, kind: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "m", protocol: "xml", ...fields } };
}

async function ok(api: KilnTestApi, message: Record<string, unknown>): Promise<SettingsState> {
  const { result, state } = await panel(api, message);
  assert.equal(result?.ok, true, `refused ${JSON.stringify(message)}: ${result?.message}`);
  return state;
}

/** `kiln.profiles` as written to the user settings. */
function savedProfiles(): { id: string; name: string; model?: string }[] {
  return (vscode.workspace.getConfiguration("kiln").inspect<{ id: string; name: string }[]>("profiles")?.globalValue ?? []) as never;
}

function settingsFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // Not created by this host: nothing to scan.
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return settingsFiles(path);
    return stat?.isFile() && name.endsWith(".json") ? [path] : [];
  });
}

/** Sends a chat message; resolves with what the chat posted once the turn ends. */
async function say(api: KilnTestApi, text: string): Promise<HostToWebview[]> {
  return exchange(api.sidebar, { type: "chat/send", text }, 30_000);
}

function lastPickers(posted: readonly HostToWebview[]): Pickers | undefined {
  const found = posted.filter((m) => m.type === "chat/pickers").at(-1);
  return found?.type === "chat/pickers" ? found.pickers : undefined;
}

describe("provider profiles from the settings panel", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    // configure() and the default-profile test change kiln.provider.*: those are put back too.
    restore = await setKiln({
      profiles: undefined,
      activeProfile: undefined,
      modeProfiles: undefined,
      "provider.kind": undefined,
      "provider.baseUrl": undefined,
      "provider.model": undefined,
      "provider.protocol": undefined,
      "provider.modelInfo": undefined,
    });
    await configure("openai-compatible", server.openaiBaseUrl, "default-model");
  });
  afterEach(async () => {
    const api = await kiln();
    // Back to the chat's usual mode, with no profile picked, for the suites that follow.
    api.sidebar.receive({ type: "chat/setMode", slug: "code" });
    await restore();
    api.sidebar.newTask();
  });

  it("keeps a profile's key in the secret storage only, through a rename, and deletes it with the profile", async () => {
    const api = await kiln();
    const key = `sk-profile-${Date.now().toString(36)}-secret`;
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    try {
      const created = await ok(api, form("Work Proxy", { kind: "openai", baseUrl: "https://proxy.example/v1", model: "gpt-x" }));
      assert.deepEqual(
        savedProfiles().map((p) => [p.name, p.model]),
        [["Work Proxy", "gpt-x"]],
      );
      assert.equal(created.profiles.find((p) => p.name === "Work Proxy")?.hasKey, false);

      const keyed = await ok(api, { type: "settings/setKey", name: "Work Proxy", key: ` ${key} ` });
      assert.equal(await api.readProfileKey("Work Proxy"), key, "stored trimmed in SecretStorage");
      assert.equal(keyed.profiles.find((p) => p.name === "Work Proxy")?.hasKey, true);
      assert.ok(!JSON.stringify(keyed).includes(key), "the panel's state says hasKey, never the key");
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration("kiln")).includes(key));
      const files = settingsFiles(process.env.KILN_TEST_USER_DATA!);
      assert.ok(
        files.some((f) => f.endsWith("settings.json")),
        "the scan covers the user settings file",
      );
      assert.deepEqual(
        files.filter((f) => readFileSync(f, "utf8").includes(key)),
        [],
      );

      const renamed = await ok(api, { ...form("Work Proxy 2", { kind: "openai", baseUrl: "https://proxy.example/v1", model: "gpt-x" }), original: "Work Proxy" });
      assert.deepEqual(
        renamed.profiles.map((p) => p.name),
        ["default", "Work Proxy 2"],
      );
      assert.equal(await api.readProfileKey("Work Proxy 2"), key, "the key follows the rename");
      const id = savedProfiles()[0]!.id;

      const deleted = await ok(api, { type: "settings/deleteProfile", name: "Work Proxy 2" });
      assert.deepEqual(
        deleted.profiles.map((p) => p.name),
        ["default"],
      );
      assert.deepEqual(savedProfiles(), []);
      // A profile written by hand under the deleted one's id finds no key: the secret went with it.
      await vscode.workspace.getConfiguration("kiln").update("profiles", [{ id, name: "Revived", kind: "openai" }], vscode.ConfigurationTarget.Global);
      assert.equal(await api.readProfileKey("Revived"), undefined);
    } finally {
      logs.dispose();
    }
    assert.ok(logged.some((l) => /API key of profile Work Proxy saved to secret storage/.test(l)));
    assert.deepEqual(
      logged.filter((l) => l.includes(key)),
      [],
    );
  });

  it("refuses bad input with a message naming the field, and writes nothing", async () => {
    const api = await kiln();
    await ok(api, form("Local"));
    const before = JSON.stringify(savedProfiles());
    const refusals: [Record<string, unknown>, string, RegExp][] = [
      [form("Bad URL", { baseUrl: "localhost:11434" }), "baseUrl", /http\(s\) URL/],
      [form("Bad Kind", { kind: "gpt-9" }), "kind", /must be one of .*openai-compatible/],
      [form("local"), "name", /a profile named "Local" already exists/],
      [form("Default"), "name", /kiln\.provider\.\* settings/],
      [form("No Model", { model: "" }), "model", /needs a model id/],
      [form("Odd Protocol", { protocol: "json" }), "protocol", /xml, native or auto/],
      [{ type: "settings/setKey", name: "Local", key: "two words" }, "key", /does not look like an API key/],
      [{ type: "settings/setKey", name: "Nobody", key: "sk-1" }, "key", /there is no profile "Nobody"/],
    ];
    for (const [message, field, text] of refusals) {
      const { result } = await panel(api, message);
      assert.equal(result?.ok, false, JSON.stringify(message));
      assert.equal(result?.field, field, JSON.stringify(result));
      assert.match(result!.message, text);
    }
    assert.equal(JSON.stringify(savedProfiles()), before);
    assert.equal(await api.readProfileKey("Local"), undefined);

    // A form that tries to carry a key into settings does not get past the protocol: refused, never acted on.
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    const keyed = await panel(api, form("Keyed", { apiKey: "sk-in-settings" }));
    logs.dispose();
    assert.equal(keyed.result?.ok, false);
    assert.ok(
      logged.some((l) => /settings: refused invalid settings\/saveProfile params.*profile/.test(l)),
      logged.join("\n"),
    );
    assert.equal(JSON.stringify(savedProfiles()), before);
    const pinned = await panel(api, { type: "settings/pinMode", mode: "ask", profile: "Nobody" });
    assert.equal(pinned.result?.ok, false);
    assert.match(pinned.result!.message, /there is no profile "Nobody"/);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("modeProfiles")?.globalValue, undefined);
  });

  it("requests use the active profile, a mode's pinned profile, and the profile picked in the chat", async () => {
    const api = await kiln();
    for (const [name, model] of [
      ["Fake A", "model-a"],
      ["Fake B", "model-b"],
    ]) {
      await ok(api, form(name!, { baseUrl: server.openaiBaseUrl, model }));
    }
    api.sidebar.newTask();
    const lastModel = () => server.requests.at(-1)!.body.model;
    server.enqueue({ text: COMPLETE }, { text: COMPLETE }, { text: COMPLETE }, { text: COMPLETE }, { text: COMPLETE });
    await say(api, "one");
    assert.equal(lastModel(), "default-model", "no active profile: the kiln.provider.* settings");

    await ok(api, { type: "settings/setActive", name: "fake a" });
    assert.equal(vscode.workspace.getConfiguration("kiln").get("activeProfile"), "Fake A");
    await say(api, "two");
    assert.equal(lastModel(), "model-a", "the running task follows the active profile");

    const pinned = await ok(api, { type: "settings/pinMode", mode: "architect", profile: "Fake B" });
    assert.equal(pinned.modes.find((m) => m.slug === "architect")?.pinnedProfile, "Fake B");
    assert.deepEqual(vscode.workspace.getConfiguration("kiln").get("modeProfiles"), { architect: "Fake B" });
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    api.sidebar.receive({ type: "chat/setMode", slug: "architect" });
    const pickers = await waitFor("the pickers in architect mode", () => (lastPickers(posted)?.mode === "architect" ? lastPickers(posted) : undefined));
    listener.dispose();
    assert.equal(pickers.profile, "Fake B");
    assert.deepEqual([pickers.provider?.kind, pickers.provider?.model], ["openai-compatible", "model-b"]);
    assert.deepEqual(
      pickers.profiles.map((p) => [p.name, p.model]),
      [
        ["default", "default-model"],
        ["Fake A", "model-a"],
        ["Fake B", "model-b"],
      ],
    );
    await say(api, "three");
    assert.equal(lastModel(), "model-b", "the mode's pinned profile");

    const picked = await exchangePick(api, "Fake A");
    assert.equal(picked?.profile, "Fake A");
    await say(api, "four");
    assert.equal(lastModel(), "model-a", "a profile picked in the chat wins over the pin");

    api.sidebar.receive({ type: "chat/setMode", slug: "code" });
    await ok(api, { type: "settings/setActive", name: "default" });
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("activeProfile")?.globalValue, undefined);
    await say(api, "five");
    assert.equal(lastModel(), "default-model", "leaving the mode drops the pick");
  });

  it("a profile picked in the chat stays picked through a rename", async () => {
    const api = await kiln();
    await ok(api, form("Fake A", { baseUrl: server.openaiBaseUrl, model: "model-a" }));
    await ok(api, form("Fake B", { baseUrl: server.openaiBaseUrl, model: "model-b" }));
    api.sidebar.newTask();
    assert.equal((await exchangePick(api, "Fake A"))?.profile, "Fake A");
    // Another profile made active in the panel: the chat keeps its own pick.
    await ok(api, { type: "settings/setActive", name: "Fake B" });
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    try {
      await ok(api, { ...form("Fake A2", { baseUrl: server.openaiBaseUrl, model: "model-a" }), original: "Fake A" });
      server.enqueue({ text: COMPLETE });
      const posted = await say(api, "after the rename");
      assert.equal(server.requests.at(-1)!.body.model, "model-a");
      assert.equal(lastPickers([...posted, ...(await pickersNow(api))])?.profile, "Fake A2");
    } finally {
      logs.dispose();
    }
    assert.deepEqual(
      logged.filter((l) => l.includes("does not exist")),
      [],
    );
  });

  it("a profile's own key authorises its requests", async () => {
    const api = await kiln();
    const key = `sk-guarded-${Date.now().toString(36)}`;
    const guarded = await new FakeModelServer({ apiKey: key }).start();
    try {
      await ok(api, form("Guarded", { kind: "openai", baseUrl: guarded.openaiBaseUrl, model: "gpt-guarded" }));
      await ok(api, { type: "settings/setActive", name: "Guarded" });
      api.sidebar.newTask();
      const refused = await say(api, "no key yet");
      const error = refused.find((m) => m.type === "chat/appended" && m.item.role === "error");
      assert.ok(error?.type === "chat/appended" && error.item.role === "error");
      assert.match(error.item.error.message, /No API key is set for profile "Guarded"/);
      assert.equal(guarded.requests.length, 0, "nothing is sent without the key");

      await ok(api, { type: "settings/setKey", name: "Guarded", key });
      guarded.enqueue({ text: COMPLETE });
      api.sidebar.newTask();
      await say(api, "with the key");
      assert.equal(guarded.requests.at(-1)?.headers.authorization, `Bearer ${key}`);
      assert.equal(guarded.requests.at(-1)?.body.model, "gpt-guarded");
      await ok(api, { type: "settings/deleteProfile", name: "Guarded" });
    } finally {
      await guarded.close();
    }
  });

  it("editing the default profile writes the kiln.provider.* settings, and requests follow", async () => {
    const api = await kiln();
    const state = await ok(api, { ...form("ignored", { baseUrl: server.openaiBaseUrl, model: "edited-default", protocol: "native" }), original: "default" });
    assert.deepEqual(
      state.profiles.map((p) => [p.name, p.source, p.model]),
      [["default", "legacy", "edited-default"]],
    );
    const provider = vscode.workspace.getConfiguration("kiln.provider");
    assert.deepEqual([provider.get("model"), provider.get("protocol"), provider.get("baseUrl")], ["edited-default", "native", server.openaiBaseUrl]);
    assert.deepEqual(savedProfiles(), [], "the default profile is not copied into kiln.profiles");
    api.sidebar.newTask();
    server.enqueue({ toolCalls: [{ name: "attempt_completion", arguments: { result: "ok" } }] });
    await say(api, "default, edited");
    assert.equal(server.requests.at(-1)!.body.model, "edited-default");
    assert.ok(server.requests.at(-1)!.body.tools, "the edited protocol (native) applies to the new task");
    const refused = await panel(api, { type: "settings/deleteProfile", name: "default" });
    assert.equal(refused.result?.ok, false);
    assert.match(refused.result!.message, /cannot be deleted/);
  });

  it("a hand edit of kiln.profiles shows in the open panel and the chat's picker; a bad entry is named, the rest work", async () => {
    const api = await kiln();
    const states: SettingsState[] = [];
    const pickers: Pickers[] = [];
    const stateListener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    const chatListener = api.sidebar.onDidPost((m) => m.type === "chat/pickers" && pickers.push(m.pickers));
    try {
      await vscode.commands.executeCommand("kiln.openSettings");
      await waitFor("the settings panel", () => api.settingsPanel.current);
      await vscode.workspace.getConfiguration("kiln").update(
        "profiles",
        [
          { name: "Hand Made", kind: "openai-compatible", baseUrl: server.openaiBaseUrl, model: "hand-model" },
          { name: "Broken", kind: "openai-compatible", baseUrl: "file:///etc", model: "x" },
        ],
        vscode.ConfigurationTarget.Global,
      );
      const shown = await waitFor("the panel's new state", () => states.find((s) => s.profiles.some((p) => p.name === "Hand Made")));
      assert.deepEqual(
        shown.profiles.map((p) => p.name),
        ["default", "Hand Made"],
      );
      assert.match(shown.errors.join("\n"), /kiln\.profiles: profile "Broken": baseUrl: must be an http\(s\) URL/);
      const offered = await waitFor("the chat's picker", () => pickers.find((p) => p.profiles.some((q) => q.name === "Hand Made")));
      assert.deepEqual(
        offered.profiles.map((p) => p.name),
        ["default", "Hand Made"],
      );
    } finally {
      stateListener.dispose();
      chatListener.dispose();
      api.settingsPanel.current?.dispose();
    }
    api.sidebar.newTask();
    assert.ok(await exchangePick(api, "Hand Made"));
    server.enqueue({ text: COMPLETE });
    await say(api, "hand made");
    assert.equal(server.requests.at(-1)!.body.model, "hand-model");
  });

  it("Kiln: Open Settings opens the panel, which loads and gets the profiles", async () => {
    const api = await kiln();
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => {
      if (m.type === "settings/state") states.push(m.state);
    });
    try {
      await vscode.commands.executeCommand("kiln.openSettings");
      const opened = await waitFor("the settings panel", () => api.settingsPanel.current);
      assert.equal(opened.title, "Kiln Settings");
      // The page says settings/ready once its script runs; the host answers with the state.
      const state = await waitFor("the state sent to the page", () => states.at(-1));
      assert.equal(state.profiles[0]?.name, "default");
      assert.ok(state.modes.some((m) => m.slug === "architect"));
      await vscode.commands.executeCommand("kiln.openSettings");
      assert.equal(api.settingsPanel.current, opened, "a second Open Settings shows the same tab");
    } finally {
      listener.dispose();
      api.settingsPanel.current?.dispose();
    }
  });
});

/** The chat's profile picker; resolves with the pickers posted once the pick is applied. */
async function exchangePick(api: KilnTestApi, name: string): Promise<Pickers | undefined> {
  const posted: HostToWebview[] = [];
  const listener = api.sidebar.onDidPost((m) => posted.push(m));
  api.sidebar.receive({ type: "chat/setProfile", name });
  try {
    return await waitFor(`the pickers showing ${name}`, () => posted.map((m) => (m.type === "chat/pickers" && m.pickers.profile === name ? m.pickers : undefined)).find(Boolean));
  } finally {
    listener.dispose();
  }
}

/** The pickers as a reconnecting view gets them. */
async function pickersNow(api: KilnTestApi): Promise<HostToWebview[]> {
  const posted: HostToWebview[] = [];
  const listener = api.sidebar.onDidPost((m) => posted.push(m));
  api.sidebar.receive({ type: "view/ready" });
  try {
    await waitFor("the pickers", () => posted.find((m) => m.type === "chat/pickers"));
  } finally {
    listener.dispose();
  }
  return posted;
}
