// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { el } from "./dom";
import { posted } from "./host";
import { App, ChatStore } from "./ui";

function chat() {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  const host = (message: Parameters<ChatStore["apply"]>[0]) => act(() => store.apply(message));
  host({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "m" }, task: { mode: "code", tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0, todos: [] } });
  // The empty chat asked for the recent tasks; what the input sends comes after.
  expect(posted).toEqual([{ type: "history/open" }]);
  posted.length = 0;
  return host;
}

const input = () => screen.getByTestId("chat-input") as unknown as { value: string };
/** The input's focus is set after a frame, so the new text has rendered first. */
const frame = () => act(() => new Promise((resolve) => (globalThis as unknown as { requestAnimationFrame(fn: () => void): void }).requestAnimationFrame(() => resolve(undefined))));

describe("the chat input takes what the editor adds to context", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("puts the reference and code in the input without sending, and focuses it", async () => {
    const host = chat();
    host({ type: "chat/addToInput", text: "src/a.ts:2-3\n```\nconst a = 1;\n```" });
    expect(input().value).toBe("src/a.ts:2-3\n```\nconst a = 1;\n```");
    await frame();
    expect(el(screen.getByTestId("chat-input")).ownerDocument.activeElement).toBe(screen.getByTestId("chat-input"));
    expect(posted).toEqual([]);
  });

  it("keeps what the user typed and adds after it; a second add appends again", () => {
    const host = chat();
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "Why is this slow?\n" } });
    host({ type: "chat/addToInput", text: "a.ts:1-1" });
    host({ type: "chat/addToInput", text: "b.ts:4-9" });
    expect(input().value).toBe("Why is this slow?\n\na.ts:1-1\n\nb.ts:4-9");
    // The user's words and the context go together on Enter.
    fireEvent.keyDown(screen.getByTestId("chat-input"), { key: "Enter" });
    expect(posted).toEqual([{ type: "chat/send", text: "Why is this slow?\n\na.ts:1-1\n\nb.ts:4-9" }]);
  });

  it("focuses the input on the focus request, leaving its text alone", async () => {
    const host = chat();
    fireEvent.change(screen.getByTestId("chat-input"), { target: { value: "draft" } });
    (screen.getByTestId("send") as unknown as { focus(): void }).focus();
    host({ type: "chat/focusInput" });
    await frame();
    expect(el(screen.getByTestId("chat-input")).ownerDocument.activeElement).toBe(screen.getByTestId("chat-input"));
    expect(input().value).toBe("draft");
  });
});
