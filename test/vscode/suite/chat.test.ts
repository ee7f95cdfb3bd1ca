import * as assert from "node:assert/strict";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { appendedErrors, COMPLETE, configure, exchange, kiln, replyText, waitFor } from "./helpers";

describe("sidebar chat against the fake model server", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());

  it("streams a reply into the chat token by token", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    server.enqueue({ text: `Kiln streams this reply in several pieces.\n${COMPLETE}` });
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "hello from the host test" });
    const deltas = posted.filter((m) => m.type === "chat/textDelta");
    assert.ok(deltas.length > 3, `expected several deltas, got ${deltas.length}`);
    assert.equal(replyText(posted).trim(), "Kiln streams this reply in several pieces.");
    const final = posted.find((m) => m.type === "chat/itemChanged" && m.item.role === "assistant");
    assert.ok(final && final.type === "chat/itemChanged" && final.item.role === "assistant" && !final.item.partial);
    assert.equal(posted.filter((m) => m.type === "chat/snapshot").length, 0, "streaming sends deltas, not snapshots");
    const request = server.requests.at(-1)!;
    assert.equal(request.body.model, "fake-model");
    assert.deepEqual((request.body.messages as unknown[]).at(-1), { role: "user", content: "hello from the host test" });
  });

  it("shows 429 as a readable error, and Retry gets the reply", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "3", message: "Too many requests" } });
    const failed = await exchange(api.sidebar, { type: "chat/send", text: "try" });
    const [error] = appendedErrors(failed);
    assert.equal(error?.kind, "rate_limit");
    assert.match(error!.message, /rate-limiting.*wait 3 s/);
    assert.equal(error!.retryable, true);
    server.enqueue({ text: `second time lucky\n${COMPLETE}` });
    const retried = await exchange(api.sidebar, { type: "chat/retry" });
    assert.ok(
      retried.some((m) => m.type === "chat/itemRemoved"),
      "the error leaves the chat",
    );
    assert.equal(replyText(retried).trim(), "second time lucky");
  });

  it("shows a server that is down as a network error", async () => {
    const api = await kiln();
    const down = await new FakeModelServer().start();
    const url = down.openaiBaseUrl;
    await down.close();
    await configure("openai-compatible", url);
    const [error] = appendedErrors(await exchange(api.sidebar, { type: "chat/send", text: "anyone?" }));
    assert.equal(error?.kind, "network");
    assert.match(error!.message, /Could not reach/);
  });

  it("shows a missing key for openai, then a rejected key (401)", async () => {
    const api = await kiln();
    const guarded = await new FakeModelServer({ apiKey: "sk-right" }).start();
    try {
      await configure("openai", guarded.openaiBaseUrl);
      await api.setSecretForTest("openai", undefined);
      const [missing] = appendedErrors(await exchange(api.sidebar, { type: "chat/send", text: "hi" }));
      assert.equal(missing?.kind, "no_key");
      assert.match(missing!.message, /Kiln: Set API Key/);
      assert.equal(guarded.requests.length, 0, "nothing is sent without a key");

      await api.setSecretForTest("openai", "sk-wrong");
      const [rejected] = appendedErrors(await exchange(api.sidebar, { type: "chat/retry" }));
      assert.equal(rejected?.kind, "auth");
      assert.match(rejected!.message, /HTTP 401/);
    } finally {
      await api.setSecretForTest("openai", undefined);
      await guarded.close();
    }
  });

  it("drops an invalid webview message with a log line, and nothing reaches the task", async () => {
    const api = await kiln();
    const logged: string[] = [];
    const posted: unknown[] = [];
    const logListener = api.onDidLog((line) => logged.push(line));
    const postListener = api.sidebar.onDidPost((m) => posted.push(m));
    const before = server.requests.length;
    api.sidebar.receive({ type: "chat/send", text: 42 });
    api.sidebar.receive({ type: "chat/runShell", command: "rm -rf /" });
    await waitFor("two log lines", () => (logged.length >= 2 ? true : undefined));
    logListener.dispose();
    postListener.dispose();
    assert.match(logged[0]!, /warn: sidebar: dropped invalid webview message \(chat\/send\)/);
    assert.match(logged[1]!, /dropped invalid webview message \(chat\/runShell\)/);
    assert.deepEqual(posted, []);
    assert.equal(server.requests.length, before);
  });

  it("New Task clears the conversation", async () => {
    const api = await kiln();
    const posted: { type: string; items?: unknown[] }[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    api.sidebar.receive({ type: "chat/newTask" });
    await waitFor("a snapshot", () => posted.find((m) => m.type === "chat/snapshot"));
    listener.dispose();
    assert.deepEqual(posted.find((m) => m.type === "chat/snapshot")?.items, []);
  });
});
