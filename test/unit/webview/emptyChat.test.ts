// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/shared/historyEntry";
import { el, texts } from "./dom";
import { posted } from "./host";
import { ago, App, ChatStore, HistoryStore } from "./ui";

const NOW = Date.now();
function entry(id: string, title: string, minutesAgo: number, workspace = "/work/app"): HistoryEntry {
  const at = NOW - minutesAgo * 60_000;
  return {
    id,
    title,
    workspace,
    mode: "code",
    model: "m",
    protocol: "xml",
    tokensIn: 1,
    tokensOut: 1,
    cacheRead: 0,
    cacheWrite: 0,
    createdAt: at,
    updatedAt: at,
    favorite: false,
    status: "completed",
  };
}

function emptyChat() {
  const store = new ChatStore((fn) => fn());
  const history = new HistoryStore();
  render(h(App, { store, history }));
  act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "anthropic", model: "claude-sonnet-4-5-20250929-with-a-long-name" } }));
  return { store, history };
}

describe("the empty chat", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("names the model and provider in full, asks for the history, and has tips", () => {
    emptyChat();
    expect(el(screen.getByTestId("empty-model")).textContent).toBe("Answers come from claude-sonnet-4-5-20250929-with-a-long-name through anthropic.");
    expect(posted).toContainEqual({ type: "history/open" });
    expect(el(screen.getByTestId("tips")).querySelectorAll("li")).toHaveLength(3);
    expect(screen.queryByTestId("recent-task")).toBeNull();
  });

  it("shows no task header until there is a task: the mode is in the picker under the input", () => {
    const store = new ChatStore((fn) => fn());
    const { container } = render(h(App, { store, history: new HistoryStore() }));
    const task = { mode: "code", tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0, todos: [] };
    act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "gpt-4.1" }, task }));
    expect(el(container).querySelector(".task-summary")).toBeNull();
    act(() => store.apply({ type: "chat/appended", item: { id: "u1", role: "user", text: "Fix the build" } }));
    expect(el(container).querySelector(".task-title")?.textContent).toBe("Fix the build");
  });

  it("lists this folder's three newest tasks, not the open one; a click reopens the task", () => {
    const { history } = emptyChat();
    act(() =>
      history.apply({
        type: "history/state",
        state: {
          entries: [
            entry("a", "Oldest", 600),
            entry("b", "Fix the parser", 5),
            entry("c", "Elsewhere", 1, "/work/other"),
            entry("d", "Add tests", 120),
            entry("e", "Open now", 0),
            entry("f", "Rename greet", 60 * 26),
          ],
          problems: [],
          currentWorkspace: "/work/app",
          currentTaskId: "e",
        },
      }),
    );
    expect(texts(screen.getByTestId("empty-chat"), '[data-testid="recent-task"]')).toEqual(["Fix the parser5 min ago", "Add tests2 h ago", "Oldest10 h ago"]);
    fireEvent.click(screen.getAllByTestId("recent-task")[1]!);
    expect(posted.at(-1)).toEqual({ type: "history/resume", id: "d" });
  });

  it("goes once the task has a message", () => {
    const { store } = emptyChat();
    act(() => store.apply({ type: "chat/appended", item: { id: "u1", role: "user", text: "Hello" } }));
    expect(screen.queryByTestId("empty-chat")).toBeNull();
  });

  it("says roughly when", () => {
    expect([ago(NOW - 10_000, NOW), ago(NOW - 45 * 60_000, NOW), ago(NOW - 25 * 3_600_000, NOW), ago(NOW - 5 * 86_400_000, NOW)]).toEqual(["just now", "45 min ago", "yesterday", "5 days ago"]);
  });
});
