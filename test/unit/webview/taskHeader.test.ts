// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TaskInfo } from "../../../src/shared/protocol/messages";
import { el } from "./dom";
import { posted } from "./host";
import { App, ChatStore } from "./ui";

const TASK: TaskInfo = { mode: "code", tokensIn: 12_400, tokensOut: 800, cacheRead: 10_000, cacheWrite: 2_000, cost: 0.0421, todos: [] };

function chat(task: Partial<TaskInfo>, busy: boolean) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() =>
    store.apply({
      type: "chat/snapshot",
      items: [
        { id: "m1", role: "user", text: "Add a farewell function\nand a test for it" },
        { id: "m2", role: "assistant", text: "On it.", partial: false },
      ],
      busy,
      provider: { kind: "anthropic", model: "claude" },
      task: { ...TASK, ...task },
    }),
  );
  return store;
}

describe("the task header", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows the task's first line as its title, tokens, cache and cost, and Cancel while it runs", () => {
    chat({}, true);
    expect(el(screen.getByTestId("task-title")).textContent).toBe("Add a farewell function");
    expect(el(screen.getByTestId("usage")).textContent).toBe("↑12.4k ↓800 · cache 10.0k/2000 · $0.04");
    expect(screen.queryByTestId("resume-task")).toBeNull();
    fireEvent.click(screen.getByTestId("cancel-task"));
    expect(posted).toEqual([{ type: "chat/cancel" }]);
  });

  it("a context bar: used of the window, with the reply's reserve beside it", () => {
    chat({ context: { used: 50_000, window: 200_000, reserved: 20_000 } }, false);
    const bar = el(screen.getByTestId("context"));
    expect(bar.textContent).toBe("50.0k / 200k");
    expect(bar.getAttribute("aria-label")).toBe("Context: 50.0k of 200k tokens used, 20.0k kept for the reply");
    const widths = [...bar.querySelectorAll(".context-bar > span")].map((s) => (s as unknown as { style: { width: string } }).style.width);
    expect(widths).toEqual(["25%", "10%"]);
  });

  it("Resume appears once the task stopped, and asks the host to go on", () => {
    chat({ status: "stopped" }, false);
    expect(screen.queryByTestId("cancel-task")).toBeNull();
    fireEvent.click(screen.getByTestId("resume-task"));
    expect(posted).toEqual([{ type: "chat/resume" }]);
  });

  it("no Resume for a task that completed", () => {
    chat({ status: "completed" }, false);
    expect(screen.queryByTestId("resume-task")).toBeNull();
  });

  it("says how many files the task changed; the button opens their review", () => {
    chat({ status: "completed", changedFiles: 2 }, false);
    fireEvent.click(screen.getByTestId("review-changes"));
    expect(el(screen.getByTestId("review-changes")).textContent).toBe("2 files changed");
    expect(posted).toEqual([{ type: "chat/reviewChanges" }]);
  });
});
