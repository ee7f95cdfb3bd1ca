import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { HostToWebview, Pickers } from "../../../src/shared/protocol/messages";
import type { ModelListAnswer } from "../../../src/shared/protocol/settings";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, requestOn, setKiln, toSettings, waitFor, type RequestAnswer } from "./helpers";

const SECOND_KEY = "sk-second-profile";

/** A request from the chat page, and the pickers the chat posted while answering it. */
async function fromChat(api: KilnTestApi, method: string, params: unknown): Promise<{ answer: RequestAnswer; pickers?: Pickers }> {
  const posted: HostToWebview[] = [];
  const listener = api.sidebar.onDidPost((m) => posted.push(m));
  try {
    const answer = await requestOn(api.sidebar, method, params);
    const last = posted.filter((m) => m.type === "chat/pickers").at(-1);
    return { answer, ...(last?.type === "chat/pickers" && { pickers: last.pickers }) };
  } finally {
    listener.dispose();
  }
}

/** The chat's profile picker, as the page sends it; resolves once the chat shows the profile. */
async function pickProfile(api: KilnTestApi, name: string): Promise<void> {
  const posted: HostToWebview[] = [];
  const listener = api.sidebar.onDidPost((m) => posted.push(m));
  try {
    api.sidebar.receive({ type: "chat/setProfile", name });
    await waitFor(`the pickers showing ${name}`, () => posted.some((m) => m.type === "chat/pickers" && m.pickers.profile === name));
  } finally {
    listener.dispose();
  }
}

async function listed(api: KilnTestApi, params: { refresh?: boolean } = {}): Promise<ModelListAnswer> {
  const { answer } = await fromChat(api, "chat/listModels", params);
  assert.equal(answer.ok, true, answer.message);
  return answer.result as ModelListAnswer;
}

function user<T>(key: string): T | undefined {
  return vscode.workspace.getConfiguration("kiln").inspect<T>(key)?.globalValue;
}

describe("the chat's model picker", () => {
  let api: KilnTestApi;
  let first: FakeModelServer;
  let second: FakeModelServer;
  let restore: () => Promise<void>;
  /** The first server's list, as it publishes it at each request. */
  const firstModels = { data: [{ id: "first-small" }, { id: "first-large" }] };

  before(async () => {
    first = await new FakeModelServer({ routes: { "/v1/models": firstModels } }).start();
    second = await new FakeModelServer({ apiKey: SECOND_KEY, routes: { "/v1/models": { data: [{ id: "second-coder" }, { id: "second-chat" }] } } }).start();
  });
  after(async () => {
    await first.close();
    await second.close();
  });
  beforeEach(async () => {
    api = await kiln();
    restore = await setKiln({
      profiles: undefined,
      activeProfile: undefined,
      modeProfiles: undefined,
      "provider.kind": undefined,
      "provider.baseUrl": undefined,
      "provider.model": undefined,
      "provider.protocol": undefined,
      "provider.retries": undefined,
    });
    await configure("openai-compatible", first.openaiBaseUrl, "first-small");
    api.sidebar.newTask();
  });
  afterEach(async () => {
    api.sidebar.newTask();
    await restore();
  });

  it("lists the models of the profile the chat uses, from its server with its key; kept a while, asked afresh on Refresh", async () => {
    const ids = (answer: ModelListAnswer) => answer.models.map((m) => m.id);
    const live = await listed(api);
    assert.deepEqual(ids(live), ["first-large", "first-small"]);
    assert.equal(live.source, "live");
    // The provider publishes a new model: the list kept shows it only once Refresh asks again.
    firstModels.data.push({ id: "first-new" });
    const kept = await listed(api);
    assert.equal(kept.source, "cache");
    assert.deepEqual(ids(kept), ["first-large", "first-small"]);
    const refreshed = await listed(api, { refresh: true });
    assert.equal(refreshed.source, "live");
    assert.deepEqual(ids(refreshed), ["first-large", "first-new", "first-small"]);

    // A named profile made active in the chat: its own server, and without its key the server's refusal in words.
    const undoProfiles = await setKiln({ profiles: [{ id: "second", name: "Second", kind: "openai-compatible", baseUrl: second.openaiBaseUrl, model: "second-chat" }] });
    try {
      await pickProfile(api, "Second");
      const refused = await fromChat(api, "chat/listModels", {});
      assert.equal(refused.answer.ok, false);
      assert.match(refused.answer.message, /key/i);
      const saved = await toSettings(api, { type: "settings/setKey", name: "Second", key: SECOND_KEY });
      assert.equal(saved.answer?.ok, true, saved.answer?.message);
      // The server answers only with its key: the profile's, from the secret storage.
      assert.deepEqual(ids(await listed(api)), ["second-chat", "second-coder"]);
    } finally {
      await toSettings(api, { type: "settings/setKey", name: "Second", key: "" });
      await undoProfiles();
    }
  });

  it("a pick on the default profile sets kiln.provider.model, and the task's next request uses it", async () => {
    first.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "First question" }, 30_000);
    assert.equal(first.requests.at(-1)!.body.model, "first-small");

    const { answer, pickers } = await fromChat(api, "chat/setModel", { model: "  first-large " });
    assert.equal(answer.ok, true, answer.message);
    assert.equal(user("provider.model"), "first-large");
    assert.equal(pickers?.provider?.model, "first-large", "the button shows the new model");

    // The same task goes on with the picked model.
    first.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "Second question" }, 30_000);
    assert.equal(first.requests.at(-1)!.body.model, "first-large");

    const empty = await fromChat(api, "chat/setModel", { model: "   " });
    assert.equal(empty.answer.ok, false, "an empty id is refused");
    assert.equal(user("provider.model"), "first-large");
  });

  it("a pick on a named active profile changes only its model in kiln.profiles", async () => {
    const entries = [
      { id: "work", name: "Work", kind: "openai-compatible", baseUrl: first.openaiBaseUrl, model: "first-small", protocol: "xml", autoCondensePercent: 70 },
      { id: "other", name: "Other", kind: "openai-compatible", baseUrl: second.openaiBaseUrl, model: "second-chat", protocol: "native" },
    ];
    const undo = await setKiln({ profiles: entries, activeProfile: "Work" });
    try {
      const { answer, pickers } = await fromChat(api, "chat/setModel", { model: "first-large" });
      assert.equal(answer.ok, true, answer.message);
      assert.deepEqual(user("profiles"), [{ ...entries[0], model: "first-large" }, entries[1]]);
      assert.equal(user("provider.model"), "first-small", "the default profile is left alone");
      assert.equal(pickers?.profile, "Work");
      assert.equal(pickers?.provider?.model, "first-large");

      first.enqueue({ text: COMPLETE });
      await exchange(api.sidebar, { type: "chat/send", text: "Go" }, 30_000);
      assert.equal(first.requests.at(-1)!.body.model, "first-large");
    } finally {
      await undo();
    }
  });
});
