// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { el, texts } from "./dom";
import { posted } from "./host";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { ModePicker } from "../../../webview-ui/src/settings/ModePicker";

const MODES = [
  { slug: "code", name: "Code", description: "Writing, changing or fixing code when the task is clear." },
  { slug: "architect", name: "Architect", description: "Planning and design before building." },
  { slug: "ask", name: "Ask", description: "Questions about the code, without changing files." },
  { slug: "docs", name: "Docs writer" },
];

function open(current = "code") {
  render(h(ModePicker, { modes: MODES, current }));
  const button = screen.getByTestId("mode-picker");
  fireEvent.click(button);
  return { button, list: screen.getByRole("listbox", { name: "Modes" }) };
}

describe("the mode picker", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows the current mode; opened, lists each mode with what it is for, the current one selected", () => {
    const { button, list } = open("architect");
    expect(el(button).getAttribute("aria-label")).toBe("Mode: Architect");
    expect(el(button).getAttribute("aria-expanded")).toBe("true");
    expect(texts(list, ".mode-option-name")).toEqual(["Code", "Architect", "Ask", "Docs writer"]);
    expect(texts(list, ".mode-option-description")).toEqual([
      "Writing, changing or fixing code when the task is clear.",
      "Planning and design before building.",
      "Questions about the code, without changing files.",
    ]);
    const selected = within(list as never)
      .getAllByRole("option")
      .filter((o) => el(o).getAttribute("aria-selected") === "true");
    expect(selected.map((o) => el(o).getAttribute("data-mode"))).toEqual(["architect"]);
    // A custom mode gets the generic icon; the built-ins their own.
    expect(el(list).querySelector('[data-mode="docs"] .codicon')?.className).toContain("codicon-symbol-misc");
    expect(el(list).querySelector('[data-mode="ask"] .codicon')?.className).toContain("codicon-question");
  });

  it("a click picks a mode and closes the list", () => {
    const { list } = open();
    fireEvent.click(el(list).querySelector('[data-mode="ask"]') as never);
    expect(posted).toEqual([{ type: "chat/setMode", slug: "ask" }]);
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("keyboard: arrows move from the current mode, Enter picks, Escape closes without a change", () => {
    let { list } = open("code");
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    expect(el(list).querySelector(".mode-option.active")?.getAttribute("data-mode")).toBe("ask");
    fireEvent.keyDown(list, { key: "Enter" });
    expect(posted).toEqual([{ type: "chat/setMode", slug: "ask" }]);
    posted.length = 0;
    fireEvent.click(screen.getByTestId("mode-picker"));
    list = screen.getByRole("listbox");
    fireEvent.keyDown(list, { key: "End" });
    fireEvent.keyDown(list, { key: "Escape" });
    expect(posted).toEqual([]);
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("picking the mode already in force sends nothing", () => {
    const { list } = open("code");
    fireEvent.click(el(list).querySelector('[data-mode="code"]') as never);
    expect(posted).toEqual([]);
  });

  it("Edit modes… opens Kiln's settings at the modes", () => {
    open();
    fireEvent.click(screen.getByTestId("edit-modes"));
    expect(posted).toEqual([{ type: "chat/openSettings", section: "modes" }]);
    expect(screen.queryByRole("listbox")).toBeNull();
  });
});
