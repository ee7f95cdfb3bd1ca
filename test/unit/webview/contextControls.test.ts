// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import { parseWebviewMessage, type TaskInfo } from "../../../src/shared/protocol/messages";
import { el } from "./dom";
import { posted } from "./host";
import { App, ChatStore, Message } from "./ui";

const TASK: TaskInfo = { mode: "code", tokensIn: 90_000, tokensOut: 3_000, cacheRead: 0, cacheWrite: 0, todos: [], context: { used: 93_000, window: 128_000, reserved: 8_000 } };

function chat(items: ChatItem[], task: Partial<TaskInfo>, busy = false) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() =>
    store.apply({ type: "chat/snapshot", items: [{ id: "m1", role: "user", text: "Refactor the parser" }, ...items], busy, provider: { kind: "openai", model: "gpt-4o" }, task: { ...TASK, ...task } }),
  );
}

const BUDGET_STOP: ChatItem = {
  id: "m2",
  role: "error",
  error: { kind: "budget", limit: "maxCost", retryable: false, message: "The task has cost $0.95; the next request could cost up to $0.08, over its budget of $1.00. Raise the budget to go on." },
};

describe("budgets and condensing in the chat", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("a budget stop says why and offers Raise budget (the limit's setting); Resume is in the header", () => {
    render(h(Message, { item: BUDGET_STOP, busy: false, last: true }));
    const stop = el(screen.getByTestId("message-error"));
    expect(stop.getAttribute("data-kind")).toBe("budget");
    expect(stop.textContent).toContain("over its budget of $1.00");
    expect(screen.queryByTestId("retry")).toBeNull();
    fireEvent.click(screen.getByTestId("raise-budget"));
    cleanup();
    chat([BUDGET_STOP], { status: "stopped" });
    fireEvent.click(screen.getByTestId("resume-task"));
    expect(posted).toEqual([{ type: "chat/raiseBudget", limit: "maxCost" }, { type: "chat/resume" }]);
  });

  it("an error of another kind has no Raise budget", () => {
    render(h(Message, { item: { id: "m2", role: "error", error: { kind: "unknown", message: "The task and its last exchange do not fit.", retryable: false } }, busy: false, last: true }));
    expect(screen.getByTestId("message-error")).toBeTruthy();
    expect(screen.queryByTestId("raise-budget")).toBeNull();
  });

  it("Condense in the header asks the host to summarise now, and is gone while the task runs", () => {
    chat([], {});
    fireEvent.click(screen.getByTestId("condense-task"));
    expect(posted).toEqual([{ type: "chat/condense" }]);
    cleanup();
    chat([], {}, true);
    expect(screen.queryByTestId("condense-task")).toBeNull();
  });

  it("the host accepts only the three budgets as a limit to raise", () => {
    expect(parseWebviewMessage({ type: "chat/raiseBudget", limit: "maxTokens" }).ok).toBe(true);
    expect(parseWebviewMessage({ type: "chat/raiseBudget", limit: "kiln.anything" }).ok).toBe(false);
    expect(parseWebviewMessage({ type: "chat/condense", now: true }).ok).toBe(false);
  });
});
