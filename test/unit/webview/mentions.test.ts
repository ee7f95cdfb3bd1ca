// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applySuggestions } from "../../../webview-ui/src/suggestionStore";
import { el, texts } from "./dom";
import { posted, requests, respond } from "./host";
import { App, ChatStore } from "./ui";

function chat() {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() =>
    store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "m" }, task: { mode: "code", tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0, todos: [] } }),
  );
}

const input = () => screen.getByTestId("chat-input");
const value = () => (input() as unknown as { value: string }).value;
const typeText = (text: string) => fireEvent.change(input(), { target: { value: text, selectionStart: text.length } });
const key = (name: string) => fireEvent.keyDown(input(), { key: name });
const options = () => texts(screen.getByTestId("input-picker"), "[role=option] .input-picker-label");
/** The host's answer to the picker's last search, as the page receives it. */
async function answerSearch(items: { path: string; kind: "file" | "folder" }[]) {
  const search = requests("mentions/search").at(-1);
  expect(search).toBeDefined();
  await act(() => respond(search!, { result: { items } }));
  return search!.params as { query: string };
}

describe("the @ picker in the chat input", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("opens on @ as an accessible listbox, asks the host to search, and shows its files", async () => {
    chat();
    expect(screen.queryByTestId("input-picker")).toBeNull();
    typeText("fix @gre");
    const picker = screen.getByTestId("input-picker");
    expect(el(picker).getAttribute("role")).toBe("listbox");
    expect(el(input()).getAttribute("aria-expanded")).toBe("true");
    expect(
      (
        await answerSearch([
          { path: "src/greet.ts", kind: "file" },
          { path: "src/greetings", kind: "folder" },
        ])
      ).query,
    ).toBe("gre");
    expect(options()).toEqual(["src/greet.ts", "src/greetings/"]);
    expect(el(input()).getAttribute("aria-activedescendant")).toBe(el(screen.getAllByTestId("picker-option")[0]).getAttribute("id"));
  });

  it("picks with the keyboard: ArrowDown then Enter inserts the mention without sending", async () => {
    chat();
    typeText("explain @src");
    await answerSearch([
      { path: "src/a.ts", kind: "file" },
      { path: "src/my dir", kind: "folder" },
    ]);
    key("ArrowDown");
    expect(el(screen.getAllByTestId("picker-option")[1]).getAttribute("aria-selected")).toBe("true");
    key("Enter");
    expect(value()).toBe("explain @/src/my\\ dir/ ");
    expect(posted.some((m) => (m as { type?: string }).type === "chat/send")).toBe(false);
    expect(screen.queryByTestId("input-picker")).toBeNull();
  });

  it("offers problems, terminal and git-changes, a typed commit and URL; Tab picks, Escape closes", async () => {
    chat();
    typeText("@pro");
    await answerSearch([]);
    expect(options()).toEqual(["problems"]);
    key("Tab");
    expect(value()).toBe("@problems ");

    typeText("see @https://example.com/docs");
    expect(options()).toEqual(["https://example.com/docs"]);
    typeText("see @abc1234");
    await answerSearch([]);
    expect(options()[0]).toBe("abc1234");

    key("Escape");
    expect(screen.queryByTestId("input-picker")).toBeNull();
    // Enter now sends the text as typed.
    key("Enter");
    expect(posted.at(-1)).toEqual({ type: "chat/send", text: "see @abc1234" });
  });
});

describe("the / picker in the chat input", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows built-in and workflow commands for / at the start, and picking fills the command", () => {
    chat();
    typeText("/");
    expect(posted).toContainEqual({ type: "commands/list" });
    act(() =>
      applySuggestions({
        type: "commands/list",
        commands: [
          { name: "newtask", description: "Start a new task", source: "builtin" },
          { name: "condense", description: "Condense", source: "builtin" },
          { name: "review", description: "Review a change", argumentHint: "<files>", source: "project" },
        ],
      }),
    );
    expect(options()).toEqual(["/newtask", "/condense", "/review <files>"]);
    typeText("/rev");
    expect(options()).toEqual(["/review <files>"]);
    expect(texts(screen.getByTestId("input-picker"), ".input-picker-detail")).toEqual(["Review a change"]);
    key("Enter");
    expect(value()).toBe("/review ");
    typeText("not /review");
    expect(screen.queryByTestId("input-picker")).toBeNull();
  });
});
