// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Pickers } from "../../../src/shared/protocol/messages";
import { applyPickers } from "../../../webview-ui/src/settings/pickerStore";
import { el } from "./dom";
import { posted, requests, respond } from "./host";
import { App, ChatStore } from "./ui";

const ROWS = [
  { id: "anthropic/claude-sonnet-4.5", name: "Anthropic: Claude Sonnet 4.5", contextWindow: 1_000_000, inputPrice: 3, outputPrice: 15, tools: true, vision: true },
  { id: "qwen/qwen3-coder:free", name: "Qwen: Qwen3 Coder (free)", contextWindow: 262_144, inputPrice: 0, outputPrice: 0, tools: true, vision: false },
  { id: "qwen/qwen3-max", name: "Qwen: Qwen3 Max", contextWindow: 262_144, inputPrice: 1.2, outputPrice: 6, tools: true, vision: false },
  { id: "mystery/model", tools: false, vision: false },
];

const PICKERS: Pickers = {
  modes: [{ slug: "code", name: "Code" }],
  mode: "code",
  profiles: [
    { name: "default", kind: "openrouter", model: "qwen/qwen3-max" },
    { name: "Local", kind: "openai-compatible", model: "qwen" },
  ],
  profile: "default",
  provider: { kind: "openrouter", model: "qwen/qwen3-max" },
};

/** The chat as the sidebar shows it, with the host's pickers. */
function chat(pickers: Pickers = PICKERS) {
  const store = new ChatStore((fn) => fn());
  render(h(App, { store }));
  act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "openrouter", model: "qwen/qwen3-max" } }));
  act(() => applyPickers({ type: "chat/pickers", pickers }));
  posted.length = 0;
}

const button = () => screen.getByTestId("chat-model-picker");
const popover = () => screen.getByTestId("chat-model-popover");
const search = () => screen.getByTestId("model-search");
const shownIds = () => screen.queryAllByTestId("model-option").map((o) => el(o).dataset.model);

/** Opens the picker and answers its question with `rows`. */
async function open(rows = ROWS) {
  fireEvent.click(button());
  await act(() => respond(requests("chat/listModels").at(-1)!, { result: { models: rows, source: "live" } }));
}

describe("the chat's model picker", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("shows the model of the chat's next request by its name, its whole id in the label and title; none without a usable profile", () => {
    chat();
    expect(el(button()).textContent).toBe("qwen3-max");
    expect(el(button()).getAttribute("aria-label")).toBe("Model: qwen/qwen3-max");
    expect(el(button()).getAttribute("title")).toBe("Model: qwen/qwen3-max (openrouter)");
    act(() => applyPickers({ type: "chat/pickers", pickers: { ...PICKERS, profile: "Local", provider: { kind: "openai-compatible", model: "qwen" } } }));
    expect(el(button()).textContent).toBe("qwen");
    // Without a usable profile the summary holds the reason, not a model.
    act(() => applyPickers({ type: "chat/pickers", pickers: { ...PICKERS, profile: undefined, provider: { kind: "invalid", model: "no usable provider profile" } } }));
    expect(screen.queryByTestId("chat-model-picker")).toBeNull();
  });

  it("shows with a single profile and no modes (no folder open), where the other pickers are hidden", () => {
    chat({ modes: [], profiles: [PICKERS.profiles[0]!], profile: "default", provider: PICKERS.provider! });
    expect(el(button()).textContent).toBe("qwen3-max");
    expect(screen.queryByTestId("profile-picker")).toBeNull();
    expect(screen.queryByTestId("mode-picker")).toBeNull();
  });

  it("opening asks the host for the list, focuses the search, and shows each model's facts, the one in use selected", async () => {
    chat();
    fireEvent.click(button());
    expect(requests("chat/listModels").map((r) => r.params)).toEqual([{}]);
    expect(el(popover()).textContent).toContain("Asking the provider for its models…");
    expect(el(search()).ownerDocument.activeElement).toBe(search());
    await act(() => respond(requests("chat/listModels")[0]!, { result: { models: ROWS, source: "live" } }));
    expect(shownIds()).toEqual(ROWS.map((r) => r.id));
    const [claude, coder, , mystery] = screen.getAllByTestId("model-option");
    expect(el(claude).textContent).toContain("Anthropic: Claude Sonnet 4.5");
    expect(el(claude).textContent).toContain("anthropic/claude-sonnet-4.5");
    expect(el(claude).textContent).toContain("1M");
    expect(el(claude).textContent).toContain("$3.00 / $15.00");
    expect(texts(claude, ".ks-badge")).toEqual(["tools", "vision"]);
    expect(el(coder).textContent).toContain("free / free");
    expect(el(mystery).textContent).toContain("? / ?");
    const selected = within(popover() as never)
      .getAllByRole("option")
      .filter((o) => el(o).getAttribute("aria-selected") === "true");
    expect(selected.map((o) => el(o).dataset.model)).toEqual(["qwen/qwen3-max"]);
  });

  it("typing narrows the list; Enter picks the first match, and the host's yes closes the list", async () => {
    chat();
    await open();
    fireEvent.change(search(), { target: { value: "qwen coder" } });
    expect(shownIds()).toEqual(["qwen/qwen3-coder:free"]);
    expect(el(screen.getByTestId("models-count")).textContent).toBe("1 of 4 models match");
    fireEvent.keyDown(search(), { key: "Enter" });
    const [asked] = requests("chat/setModel");
    expect(asked!.params).toEqual({ model: "qwen/qwen3-coder:free" });
    await act(() => respond(asked!, { result: { message: "default uses qwen/qwen3-coder:free." } }));
    expect(screen.queryByTestId("chat-model-popover")).toBeNull();
    expect(el(button()).ownerDocument.activeElement).toBe(button());
  });

  it("arrows move the marked row and Enter picks it; a click picks too", async () => {
    chat();
    await open();
    const marked = () => el(popover()).querySelector(".ks-model-list li.active")?.getAttribute("data-model");
    expect(marked()).toBe("anthropic/claude-sonnet-4.5");
    for (let i = 0; i < 4; i++) fireEvent.keyDown(search(), { key: "ArrowDown" });
    // The last row: the arrows stop there.
    expect(marked()).toBe("mystery/model");
    fireEvent.keyDown(search(), { key: "ArrowUp" });
    fireEvent.keyDown(search(), { key: "ArrowUp" });
    expect(marked()).toBe("qwen/qwen3-coder:free");
    expect(el(search()).getAttribute("aria-activedescendant")).toBe(el(popover()).querySelector(".ks-model-list li.active")?.getAttribute("id"));
    fireEvent.keyDown(search(), { key: "Enter" });
    expect(requests("chat/setModel").map((r) => r.params)).toEqual([{ model: "qwen/qwen3-coder:free" }]);
    await act(() => respond(requests("chat/setModel")[0]!, { result: { message: "" } }));

    await open();
    fireEvent.click(screen.getAllByTestId("model-option")[0]!);
    expect(requests("chat/setModel").map((r) => r.params)).toEqual([{ model: "qwen/qwen3-coder:free" }, { model: "anthropic/claude-sonnet-4.5" }]);
  });

  it("picking the model already in use, Escape, or a click outside closes the list without a change", async () => {
    chat();
    await open();
    fireEvent.click(screen.getAllByTestId("model-option").find((o) => el(o).dataset.model === "qwen/qwen3-max")!);
    expect(screen.queryByTestId("chat-model-popover")).toBeNull();
    await open();
    fireEvent.keyDown(search(), { key: "Escape" });
    expect(screen.queryByTestId("chat-model-popover")).toBeNull();
    await open();
    fireEvent.mouseDown(screen.getByTestId("chat-input"));
    expect(screen.queryByTestId("chat-model-popover")).toBeNull();
    expect(requests("chat/setModel")).toEqual([]);
  });

  it("Refresh asks the provider afresh", async () => {
    chat();
    await open();
    fireEvent.click(screen.getByTestId("refresh-models"));
    expect(requests("chat/listModels").map((r) => r.params)).toEqual([{}, { refresh: true }]);
    await act(() => respond(requests("chat/listModels")[1]!, { result: { models: ROWS.slice(0, 1), source: "live" } }));
    expect(shownIds()).toEqual(["anthropic/claude-sonnet-4.5"]);
  });

  it("shows the host's reason when the list cannot be had, not an empty list", async () => {
    chat();
    fireEvent.click(button());
    await act(() => respond(requests("chat/listModels")[0]!, { error: { message: "No API key is set for OpenRouter.", field: "model" } }));
    const error = screen.getByTestId("models-error");
    expect(el(error).getAttribute("role")).toBe("alert");
    expect(el(error).textContent).toBe("No API key is set for OpenRouter.");
    expect(shownIds()).toEqual([]);
  });

  it("a refused pick says why and keeps the list open to pick another", async () => {
    chat();
    await open();
    fireEvent.click(screen.getAllByTestId("model-option")[0]!);
    await act(() => respond(requests("chat/setModel")[0]!, { error: { message: "this workspace's settings set kiln.provider.model" } }));
    expect(el(screen.getByTestId("model-pick-error")).textContent).toBe("this workspace's settings set kiln.provider.model");
    expect(el(screen.getByTestId("model-pick-error")).getAttribute("role")).toBe("alert");
    expect(shownIds()).toEqual(ROWS.map((r) => r.id));
  });
});

function texts(root: unknown, selector: string): (string | null)[] {
  return [...el(root).querySelectorAll(selector)].map((e) => e.textContent);
}
