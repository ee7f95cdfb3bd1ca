// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { el, texts } from "./dom";
import { posted } from "./host";
import { App, ChatStore } from "./ui";

/** The chat as the user sees it, fed by host messages through the real store. */
function chat() {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  const host = (message: Parameters<ChatStore["apply"]>[0]) => act(() => store.apply(message));
  host({ type: "chat/snapshot", items: [], busy: true, provider: { kind: "openai", model: "m" }, task: { mode: "code", tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0, todos: [] } });
  return host;
}

function type(text: string) {
  const input = screen.getByTestId("chat-input");
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: "Enter" });
}

describe("the chat input while the task is busy", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("sends what the user types (the host queues it), keeps Stop, and says it will queue", () => {
    chat();
    expect(el(screen.getByTestId("chat-input")).getAttribute("placeholder")).toMatch(/queue/i);
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "also add docs" } });
    expect(el(screen.getByTestId("send")).textContent).toBe("Queue");
    expect(screen.getByTestId("stop")).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId("chat-input"), { key: "Enter" });
    expect(posted).toEqual([{ type: "chat/send", text: "also add docs" }]);
    expect((screen.getByTestId("chat-input") as unknown as { value: string }).value).toBe("");
  });

  it("lists queued messages with Remove; Send now appears once the task stopped", () => {
    const host = chat();
    type("first");
    host({ type: "chat/queue", messages: ["first", "second"], paused: false });
    const queue = screen.getByTestId("queue");
    expect(texts(queue, ".queued-text")).toEqual(["first", "second"]);
    expect(within(queue).queryAllByTestId("queued-send")).toHaveLength(0);
    posted.length = 0;
    fireEvent.click(within(queue).getAllByTestId("queued-remove")[1]!);
    expect(posted).toEqual([{ type: "chat/unqueue", index: 1, send: false }]);

    host({ type: "chat/busy", busy: false });
    host({ type: "chat/queue", messages: ["first"], paused: true });
    expect(el(screen.getByTestId("queue")).textContent).toMatch(/paused after Stop/);
    posted.length = 0;
    fireEvent.click(screen.getByTestId("queued-send"));
    expect(posted).toEqual([{ type: "chat/unqueue", index: 0, send: true }]);

    host({ type: "chat/queue", messages: [], paused: false });
    expect(screen.queryByTestId("queue")).toBeNull();
  });
});
