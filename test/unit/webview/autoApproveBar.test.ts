// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { el } from "./dom";
import { posted } from "./host";
import { App, ChatStore } from "./ui";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { approveSummary } from "../../../webview-ui/src/AutoApproveBar";

function chat(state: { enabled: boolean; words: string[] }) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() => {
    store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openai", model: "gpt-4.1" } });
    store.apply({ type: "chat/autoApprove", state: state as never });
  });
  // The empty chat asks for the history when it shows; only the bar's messages count here.
  posted.length = 0;
  return store;
}

const checkbox = (word: string) => el(screen.getByTestId("approve-words")).querySelector(`input[data-word="${word}"]`) as unknown as { checked: boolean };

describe("the auto-approve bar", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("says in one line what runs unasked, or that every call asks", () => {
    expect(approveSummary({ enabled: true, words: ["edit", "read"] })).toBe("read files, edit files");
    expect(approveSummary({ enabled: true, words: ["read", "edit", "command", "mcp", "todo"] })).toBe("read files, edit files, run commands and 2 more");
    expect(approveSummary({ enabled: false, words: ["read"] })).toBe("Off: every call asks");
    expect(approveSummary({ enabled: true, words: [] })).toBe("On, but no category: every call asks");
  });

  it("shows the switch and the summary above the input; opened, each category is a toggle", () => {
    chat({ enabled: true, words: ["read", "todo"] });
    expect((screen.getByTestId("approve-switch") as unknown as { checked: boolean }).checked).toBe(true);
    expect(el(screen.getByTestId("approve-summary")).textContent).toBe("read files, update todos");
    expect(screen.queryByTestId("approve-words")).toBeNull();
    fireEvent.click(screen.getByTestId("approve-summary"));
    expect(el(screen.getByTestId("approve-summary")).getAttribute("aria-expanded")).toBe("true");
    expect(checkbox("read").checked).toBe(true);
    expect(checkbox("edit").checked).toBe(false);
    fireEvent.click(checkbox("edit") as never);
    expect(posted).toEqual([{ type: "chat/setAutoApprove", words: ["read", "todo", "edit"] }]);
    posted.length = 0;
    fireEvent.click(checkbox("read") as never);
    expect(posted).toEqual([{ type: "chat/setAutoApprove", words: ["todo"] }]);
  });

  it("the switch turns it all off without losing the categories, and the host's answer shows", () => {
    const store = chat({ enabled: true, words: ["read"] });
    fireEvent.click(screen.getByTestId("approve-switch"));
    expect(posted).toEqual([{ type: "chat/setAutoApprove", enabled: false }]);
    // The bar shows what the settings say, once the host has written them.
    act(() => store.apply({ type: "chat/autoApprove", state: { enabled: false, words: ["read"] } }));
    expect(el(screen.getByTestId("approve-summary")).textContent).toBe("Off: every call asks");
    fireEvent.click(screen.getByTestId("approve-summary"));
    expect(el(screen.getByTestId("approve-words")).hasAttribute("disabled")).toBe(true);
  });

  it("links to the settings for the allowed commands and the limits", () => {
    chat({ enabled: true, words: ["command"] });
    fireEvent.click(screen.getByTestId("approve-summary"));
    fireEvent.click(screen.getByTestId("approve-settings"));
    expect(posted).toEqual([{ type: "chat/openSettings", section: "autoApprove" }]);
  });
});
