// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import { el, texts } from "./dom";
import { posted } from "./host";
import { App, ChatStore, Message, Thinking, awaitingReply } from "./ui";

function message(item: ChatItem, { busy = false, last = true } = {}) {
  return render(h(Message, { item, busy, last }));
}

describe("chat items", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("renders the assistant's reply as Markdown and its reasoning folded", () => {
    message({ id: "a1", role: "assistant", text: "Use **`greet()`**:\n\n```ts\ngreet();\n```", reasoning: "The user wants a call.", partial: false });
    const reply = screen.getByTestId("message-assistant");
    expect(el(reply).dataset.partial).toBe("false");
    expect(texts(reply, "strong code")).toEqual(["greet()"]);
    expect(within(reply).getByTestId("code-block")).toBeTruthy();
    const reasoning = within(reply).getByTestId("reasoning");
    expect(el(reasoning).hasAttribute("open")).toBe(false);
    expect(el(reasoning).textContent).toBe("Reasoning");
    fireEvent.click(within(reasoning).getByText("Reasoning"));
    expect(el(reasoning).textContent).toContain("The user wants a call.");
  });

  it("shows reasoning open while it streams with nothing else to show, folded once the reply starts", () => {
    const { rerender } = message({ id: "a1", role: "assistant", text: "", reasoning: "Thinking about", partial: true });
    const reasoning = () => el(screen.getByTestId("reasoning"));
    expect(reasoning().hasAttribute("open")).toBe(true);
    expect(reasoning().textContent).toContain("Thinking about");
    rerender(h(Message, { item: { id: "a1", role: "assistant", text: "Here", reasoning: "Thinking about it", partial: true }, busy: true, last: true }));
    expect(reasoning().hasAttribute("open")).toBe(false);
  });

  it("turns a question's suggestions into buttons that answer it; one with a mode switches to it first", () => {
    message({
      id: "q1",
      role: "question",
      question: "Which **file**?",
      suggestions: [{ text: "src/a.ts" }, { text: "Plan it first", mode: "architect" }],
    });
    const question = screen.getByTestId("message-question");
    expect(texts(question, "strong")).toEqual(["file"]);
    const buttons = within(question).getAllByTestId("suggestion");
    expect(buttons.map((b) => el(b).textContent)).toEqual(["src/a.ts", "Plan it first (switch to Architect)"]);
    fireEvent.click(buttons[0]!);
    fireEvent.click(buttons[1]!);
    // A suggestion with a mode switches the task to it first, so the answer is read in that mode.
    expect(posted).toEqual([
      { type: "chat/send", text: "src/a.ts" },
      { type: "chat/setMode", slug: "architect" },
      { type: "chat/send", text: "Plan it first" },
    ]);
  });

  it("disables the suggestions of a question that is no longer the newest item", () => {
    message({ id: "q1", role: "question", question: "Which?", suggestions: [{ text: "a" }] }, { last: false });
    fireEvent.click(screen.getByTestId("suggestion"));
    expect(el(screen.getByTestId("suggestion")).hasAttribute("disabled")).toBe(true);
    expect(posted).toEqual([]);
  });

  it("shows a completion as Markdown with Run for its command and Start new task", () => {
    message({ id: "c1", role: "completion", result: "Added `test/greet.test.ts`.", command: "npm test -- greet" });
    const completion = screen.getByTestId("message-completion");
    expect(texts(completion, "code")[0]).toBe("test/greet.test.ts");
    fireEvent.click(within(completion).getByTestId("run-command"));
    fireEvent.click(within(completion).getByTestId("new-task"));
    expect(posted).toEqual([{ type: "chat/runCommand", command: "npm test -- greet" }, { type: "chat/newTask" }]);
  });

  it("offers no Run when the completion proposes no command", () => {
    message({ id: "c1", role: "completion", result: "Done." });
    expect(screen.queryByTestId("run-command")).toBeNull();
    expect(screen.getByTestId("new-task")).toBeTruthy();
  });

  it("shows an error with Retry when it can be retried", () => {
    message({ id: "e1", role: "error", error: { kind: "server", message: "HTTP 500", retryable: true } });
    fireEvent.click(screen.getByTestId("retry"));
    expect(posted).toEqual([{ type: "chat/retry" }]);
  });

  it("shows the user's own text as typed, Markdown and all", () => {
    message({ id: "u1", role: "user", text: "**not bold** <b>x</b>" });
    expect(el(screen.getByTestId("message-user")).textContent).toBe("**not bold** <b>x</b>");
  });
});

describe("the waiting line", () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("counts the seconds since the wait began", () => {
    vi.useFakeTimers();
    render(h(Thinking));
    expect(el(screen.getByTestId("waiting")).textContent).toBe("Thinking…");
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(el(screen.getByTestId("waiting")).textContent).toBe("Thinking… 3 s");
  });

  it("shows while busy after the user's message or a finished tool call, not while a reply or a card is on screen", () => {
    const user: ChatItem = { id: "u", role: "user", text: "hi" };
    const tool = (status: "done" | "running" | "waiting" | "error"): ChatItem => ({ id: "t", role: "tool", name: "read_file", params: {}, status });
    expect(awaitingReply([user], true)).toBe(true);
    expect(awaitingReply([user], false)).toBe(false);
    expect(awaitingReply([user, tool("done")], true)).toBe(true);
    expect(awaitingReply([user, tool("error")], true)).toBe(true);
    expect(awaitingReply([user, tool("running")], true)).toBe(false);
    expect(awaitingReply([user, tool("waiting")], true)).toBe(false);
    expect(awaitingReply([user, { id: "a", role: "assistant", text: "", partial: true }], true)).toBe(false);
    expect(awaitingReply([], true)).toBe(false);
  });

  it("appears in the chat while the task waits for the model and goes when the reply starts", () => {
    vi.useFakeTimers();
    const store = new ChatStore((fn: () => void) => fn());
    render(h(App, { store }));
    act(() => store.apply({ type: "chat/snapshot", items: [{ id: "u1", role: "user", text: "hi" }], busy: true, provider: { kind: "openai", model: "gpt" } }));
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(el(screen.getByTestId("waiting")).textContent).toBe("Thinking… 2 s");
    act(() => store.apply({ type: "chat/appended", item: { id: "a1", role: "assistant", text: "Hel", partial: true } }));
    expect(screen.queryByTestId("waiting")).toBeNull();
  });
});
