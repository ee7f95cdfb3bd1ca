import { describe, expect, it } from "vitest";
import { ChatStore } from "../../webview-ui/src/store";

function manualStore() {
  const pending: (() => void)[] = [];
  const store = new ChatStore((fn) => pending.push(fn));
  const flush = () => pending.splice(0).forEach((fn) => fn());
  return { store, flush, pending };
}

describe("webview chat store", () => {
  it("builds the conversation from a snapshot and deltas", () => {
    const { store } = manualStore();
    store.apply({ type: "chat/snapshot", items: [{ id: "m1", role: "user", text: "hi" }], busy: false, provider: { kind: "openai", model: "gpt" } });
    store.apply({ type: "chat/appended", item: { id: "m2", role: "assistant", text: "", partial: true } });
    store.apply({ type: "chat/textDelta", id: "m2", delta: "Hel", field: "text" });
    store.apply({ type: "chat/textDelta", id: "m2", delta: "lo", field: "text" });
    store.apply({ type: "chat/textDelta", id: "m2", delta: "hmm", field: "reasoning" });
    store.apply({ type: "chat/itemChanged", item: { id: "m2", role: "assistant", text: "Hello", reasoning: "hmm", partial: false } });
    expect(store.getState().items).toEqual([
      { id: "m1", role: "user", text: "hi" },
      { id: "m2", role: "assistant", text: "Hello", reasoning: "hmm", partial: false },
    ]);
    store.apply({ type: "chat/itemRemoved", id: "m2" });
    expect(store.getState().items.map((i) => i.id)).toEqual(["m1"]);
  });

  it("renders a burst of tokens once per frame", () => {
    const { store, flush, pending } = manualStore();
    let renders = 0;
    store.subscribe(() => renders++);
    store.apply({ type: "chat/appended", item: { id: "m1", role: "assistant", text: "", partial: true } });
    for (let i = 0; i < 100; i++) store.apply({ type: "chat/textDelta", id: "m1", delta: "x", field: "text" });
    expect(pending).toHaveLength(1);
    flush();
    expect(renders).toBe(1);
    const item = store.getState().items[0];
    expect(item?.role === "assistant" && item.text.length).toBe(100);
  });

  it("ignores a delta for an unknown message", () => {
    const { store } = manualStore();
    store.apply({ type: "chat/textDelta", id: "nope", delta: "x", field: "text" });
    expect(store.getState().items).toEqual([]);
  });

  it("shows a retry with the time it goes out, until the model answers; keeps the task's tokens and todos", () => {
    const store = new ChatStore(
      () => undefined,
      () => 1000,
    );
    store.apply({ type: "chat/retrying", attempt: 1, of: 3, delayMs: 4000, reason: "Rate limited." });
    expect(store.getState().retrying).toEqual({ attempt: 1, of: 3, reason: "Rate limited.", at: 5000 });
    const task = { mode: "code", tokensIn: 120, tokensOut: 30, cacheRead: 0, cacheWrite: 0, cost: 0.0012, todos: [{ text: "write it", status: "pending" as const }] };
    store.apply({ type: "chat/task", task });
    expect(store.getState().retrying).toBeDefined();
    store.apply({ type: "chat/appended", item: { id: "m3", role: "assistant", text: "ok", partial: true } });
    expect(store.getState().retrying).toBeUndefined();
    expect(store.getState().task).toEqual(task);
  });

  it("applies a token to a long task without copying the list or touching other rows", () => {
    const { store } = manualStore();
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: `m${i}`, role: "user" as const, text: `message ${i}` }));
    store.apply({ type: "chat/snapshot", items, busy: true, provider: { kind: "openai", model: "gpt" } });
    store.apply({ type: "chat/appended", item: { id: "live", role: "assistant", text: "", partial: true } });
    const before = store.getState();
    const neighbour = before.items[4999];
    store.apply({ type: "chat/textDelta", id: "live", delta: "tok", field: "text" });
    const after = store.getState();
    expect(after).not.toBe(before);
    expect(after.version).toBe(before.version + 1);
    expect(after.items).toBe(before.items);
    expect(after.items[4999]).toBe(neighbour);
    expect(after.items[5000]).toMatchObject({ id: "live", text: "tok" });
  });

  it("knows which card waits for approval, and forgets it once answered or removed", () => {
    const { store } = manualStore();
    const card = { id: "t1", role: "tool" as const, name: "write_to_file", params: { path: "a" }, status: "waiting" as const };
    store.apply({ type: "chat/appended", item: card });
    expect(store.getState().waitingCard).toBeUndefined();
    store.apply({ type: "chat/itemChanged", item: { ...card, approval: { summary: "Write a", outsideWorkspace: false } } });
    expect(store.getState().waitingCard).toBe("t1");
    store.apply({ type: "chat/itemChanged", item: { ...card, status: "running" } });
    expect(store.getState().waitingCard).toBeUndefined();
    store.apply({ type: "chat/itemChanged", item: { ...card, approval: { summary: "Write a", outsideWorkspace: false } } });
    store.apply({ type: "chat/itemRemoved", id: "t1" });
    expect(store.getState().waitingCard).toBeUndefined();
    expect(store.getState().items).toEqual([]);
  });
});
