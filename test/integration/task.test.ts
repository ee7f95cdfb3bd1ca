import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY, type RetryPolicy } from "../../src/core/agent/retry";
import { Task, type TaskEvent } from "../../src/core/agent/Task";
import { createProvider } from "../../src/core/llm/createProvider";
import type { ProviderKind } from "../../src/core/llm/types";
import { silentLogger } from "../fixtures/silentLogger";
import type { ChatItem } from "../../src/shared/protocol/chat";
import { FakeModelServer } from "../fixtures/fakeModelServer";

let server: FakeModelServer;
beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function makeTask(kind: ProviderKind = "openai", apiKey: string | null = "k", retry: RetryPolicy = { ...DEFAULT_RETRY, maxRetries: 0 }) {
  const events: TaskEvent[] = [];
  const task = new Task({
    getProvider: async () => createProvider({ kind, baseUrl: kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl, model: "fake", apiKey: apiKey ?? undefined }),
    logger: silentLogger,
    retry,
  });
  task.onDidChange((e) => events.push(e));
  return { task, events };
}

/** Replays the events onto a list, as the webview does, to prove the deltas rebuild the state. */
function replay(events: TaskEvent[]): ChatItem[] {
  const items: ChatItem[] = [];
  for (const e of events) {
    if (e.type === "appended") items.push({ ...e.item });
    if (e.type === "textDelta") {
      const item = items.find((i) => i.id === e.id);
      if (item?.role === "assistant") item[e.field] = (item[e.field] ?? "") + e.delta;
    }
    if (e.type === "itemChanged")
      items.splice(
        items.findIndex((i) => i.id === e.item.id),
        1,
        { ...e.item },
      );
    if (e.type === "itemRemoved")
      items.splice(
        items.findIndex((i) => i.id === e.id),
        1,
      );
  }
  return items;
}

describe("Task: a chat turn streamed from the model", () => {
  it.each(["openai", "anthropic"] as const)("streams the reply token by token (%s)", async (kind) => {
    const { task, events } = makeTask(kind);
    server.enqueue({ text: "Hello there, how can I help?" });
    await task.send("hi");
    const deltas = events.filter((e) => e.type === "textDelta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(task.snapshot()).toEqual([
      { id: "m1", role: "user", text: "hi" },
      { id: "m2", role: "assistant", text: "Hello there, how can I help?", partial: false },
    ]);
    expect(replay(events)).toEqual(task.snapshot());
    const busyOn = events.findIndex((e) => e.type === "busy" && e.busy);
    expect(busyOn).toBeGreaterThanOrEqual(0);
    expect(busyOn).toBeLessThan(events.findIndex((e) => e.type === "textDelta"));
    expect(events.at(-1)).toEqual({ type: "busy", busy: false });
  });

  it("sends the whole conversation on the next turn", async () => {
    const { task } = makeTask();
    server.enqueue({ text: "first answer" }, { text: "second answer" });
    await task.send("first question");
    await task.send("second question");
    const messages = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second question" },
    ]);
  });

  it("shows a failed request as an error item, and Retry replaces it with the reply", async () => {
    const { task, events } = makeTask();
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "2" } }, { text: "made it" });
    await task.send("please");
    const error = task.snapshot().at(-1);
    expect(error).toMatchObject({ role: "error", error: { kind: "rate_limit", retryable: true } });
    await task.retry();
    expect(task.snapshot().map((i) => i.role)).toEqual(["user", "assistant"]);
    expect(task.snapshot()[1]).toMatchObject({ text: "made it" });
    expect(replay(events)).toEqual(task.snapshot());
  });

  it("drops the partial reply of a cut stream when retrying", async () => {
    const { task } = makeTask("anthropic");
    server.enqueue({ text: "one two three four five", fault: { type: "cut", afterChunks: 4 } }, { text: "complete answer" });
    await task.send("go");
    expect(task.snapshot().map((i) => i.role)).toEqual(["user", "assistant", "error"]);
    await task.retry();
    expect(task.snapshot()).toMatchObject([{ role: "user" }, { role: "assistant", text: "complete answer" }]);
    const messages = server.requests.at(-1)!.body.messages as unknown[];
    // The one user turn, marked for Anthropic's prompt cache.
    expect(messages).toEqual([{ role: "user", content: [{ type: "text", text: "go", cache_control: { type: "ephemeral" } }] }]);
  });

  it("says when no key is set, without calling the server", async () => {
    const { task } = makeTask("openai", null);
    const before = server.requests.length;
    await task.send("hi");
    expect(task.snapshot().at(-1)).toMatchObject({ role: "error", error: { kind: "no_key" } });
    expect(server.requests.length).toBe(before);
  });

  it("a new message after a failure joins the unanswered one, so turns still alternate", async () => {
    const { task } = makeTask();
    server.enqueue({ fault: { type: "http", status: 500 } }, { text: "ok" });
    await task.send("one");
    await task.send("two");
    const messages = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(messages.slice(1)).toEqual([{ role: "user", content: "one\n\ntwo" }]);
  });

  it("retries a 429 by itself after the Retry-After the server asked for", async () => {
    const { task, events } = makeTask("anthropic", "k", { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 1000 });
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "0.2" } }, { text: "after waiting" });
    const started = Date.now();
    await task.send("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(events.filter((e) => e.type === "retrying")).toEqual([{ type: "retrying", attempt: 1, of: 3, delayMs: 200, reason: expect.stringMatching(/HTTP 429/) }]);
    expect(task.snapshot().map((i) => i.role)).toEqual(["user", "assistant"]);
  });

  it("retries a cut stream, taking back what the failed attempt showed", async () => {
    const { task, events } = makeTask("openai", "k", { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 1000 });
    server.enqueue({ text: "one two three four five", fault: { type: "cut", afterChunks: 3 } }, { text: "whole answer" });
    await task.send("go");
    expect(task.snapshot()).toMatchObject([{ role: "user" }, { role: "assistant", text: "whole answer" }]);
    expect(replay(events)).toEqual(task.snapshot());
  });

  it("gives up after the last retry and shows the error", async () => {
    const { task, events } = makeTask("openai", "k", { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000 });
    server.enqueue(...[1, 2, 3].map(() => ({ fault: { type: "http" as const, status: 503, message: "overloaded" } })));
    await task.send("go");
    expect(events.filter((e) => e.type === "retrying").map((e) => (e as { delayMs: number }).delayMs)).toEqual([5, 10]);
    expect(task.snapshot().at(-1)).toMatchObject({ role: "error", error: { kind: "overloaded" } });
  });

  it("does not retry a rejected key", async () => {
    const guarded = await new FakeModelServer({ apiKey: "right" }).start();
    const task = new Task({
      getProvider: async () => createProvider({ kind: "openai", baseUrl: guarded.openaiBaseUrl, model: "m", apiKey: "wrong" }),
      logger: silentLogger,
    });
    await task.send("hi");
    expect(guarded.requests).toHaveLength(1);
    expect(task.snapshot().at(-1)).toMatchObject({ role: "error", error: { kind: "auth" } });
    await guarded.close();
  });

  it("cancel stops the stream and keeps what arrived", async () => {
    const { task } = makeTask();
    server.enqueue({ text: "a b c d e f g h i j k l", chunkDelayMs: 40 });
    const done = task.send("long");
    await new Promise((r) => setTimeout(r, 150));
    task.cancel();
    await done;
    const items = task.snapshot();
    expect(items[1]).toMatchObject({ role: "assistant", partial: false });
    expect((items[1] as { text: string }).text.length).toBeGreaterThan(0);
    expect(items[2]).toMatchObject({ role: "error", error: { message: expect.stringMatching(/Cancelled/) } });
    expect(task.busy).toBe(false);
  });
});
