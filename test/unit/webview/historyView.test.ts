// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/shared/historyEntry";
import type { HistoryViewState } from "../../../src/shared/protocol/history";
import { el } from "./dom";
import { posted } from "./host";
import { App, ChatStore, HistoryStore, McpStore } from "./ui";

function entry(id: string, title: string, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    title,
    workspace: "/work/app",
    mode: "code",
    model: "m",
    protocol: "xml",
    tokensIn: 100,
    tokensOut: 20,
    cacheRead: 0,
    cacheWrite: 0,
    createdAt: 1,
    updatedAt: 1,
    favorite: false,
    status: "completed",
    ...fields,
  };
}

const STATE: HistoryViewState = {
  entries: [
    entry("a", "Fix the login bug", { updatedAt: 30 }),
    entry("b", "Add dark mode", { updatedAt: 20, favorite: true }),
    entry("c", "Write release notes", { workspace: "/work/docs", updatedAt: 50, status: "running" }),
  ],
  problems: [],
  currentWorkspace: "/work/app",
  currentTaskId: "a",
};

type Sent = { type: string; [key: string]: unknown };
const sent = (type: string) => posted.filter((m): m is Sent => (m as Sent).type === type);
const titles = () => screen.queryAllByTestId("history-entry").map((e) => el(e).querySelector(".history-title")?.textContent);

function openHistory() {
  const mcp = new McpStore();
  const history = new HistoryStore();
  history.onShow = () => mcp.show("history");
  render(h(App, { store: new ChatStore((fn) => fn()), mcp, history }));
  act(() => history.apply({ type: "history/show" }));
  act(() => history.apply({ type: "history/state", state: STATE }));
  return { mcp, history };
}

describe("the sidebar's history view", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("lists saved tasks by workspace, the open folder first, and says which are interrupted and open", () => {
    openHistory();
    expect(sent("history/open")).toHaveLength(1);
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(true);
    const groups = screen.getAllByRole("region");
    expect(groups.map((g) => el(within(g).getByRole("heading")).textContent)).toEqual(["app", "docs"]);
    expect(titles()).toEqual(["Fix the login bugopen", "Add dark mode", "Write release notes"]);
    expect(el(screen.getAllByTestId("history-entry")[2]).textContent).toContain("interrupted");
  });

  it("finds tasks by every word typed and filters favourites", () => {
    openHistory();
    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "BUG login" } });
    expect(titles()).toEqual(["Fix the login bugopen"]);
    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "nothing like it" } });
    expect(el(screen.getByTestId("history-empty")).textContent).toBe("No task matches.");
    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "" } });
    fireEvent.click(screen.getByLabelText("Favourites"));
    expect(titles()).toEqual(["Add dark mode"]);
  });

  it("opens a task in the chat, stars it, and deletes only after a second click", () => {
    openHistory();
    const second = within(screen.getAllByTestId("history-entry")[1]!);
    fireEvent.click(second.getByTestId("history-favorite"));
    expect(sent("history/favorite")).toEqual([{ type: "history/favorite", id: "b", favorite: false }]);
    fireEvent.click(second.getByTestId("history-delete"));
    expect(sent("history/delete")).toHaveLength(0);
    fireEvent.click(second.getByTestId("history-confirm-delete"));
    expect(sent("history/delete")).toEqual([{ type: "history/delete", id: "b" }]);
    fireEvent.click(second.getByText("Add dark mode"));
    expect(sent("history/resume")).toEqual([{ type: "history/resume", id: "b" }]);
    expect(screen.queryByTestId("history-view")).toBeNull();
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(false);
  });
});
