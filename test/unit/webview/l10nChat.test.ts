// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { withView } from "../../../src/core/agent/presenter";
import type { ChatItem, ToolItem } from "../../../src/shared/protocol/chat";
import { welcomeNeeds, type WelcomeInfo } from "../../../src/shared/protocol/welcome";
import { el } from "./dom";

import { inPseudoLocale, untranslated } from "./pseudoLocale";
import { App, ChatStore, Message } from "./ui";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { ModePicker } from "../../../webview-ui/src/settings/ModePicker";

/*
 * The chat under a pseudo-locale: every word the chat itself says must come through l10n.t, so a
 * translation reaches all of it. What the host sends (the user's and the model's text, a card's
 * title, mode names) is data here; the host translates its own words.
 */
const data = (...known: string[]) => known;

function chat() {
  const store = new ChatStore((fn) => fn());
  const view = render(h(App, { store }));
  return { store, root: view.container };
}

describe("the chat in another language", () => {
  inPseudoLocale();

  it("the empty chat, its tips, the auto-approve bar open and the input: every word translated", () => {
    const { store, root } = chat();
    act(() => {
      store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "anthropic", model: "claude-sonnet-4-5" } });
      store.apply({ type: "chat/autoApprove", state: { enabled: true, words: ["read", "edit", "command", "mcp", "todo"] } });
    });
    fireEvent.click(screen.getByTestId("approve-summary"));
    expect(untranslated(root, data("claude-sonnet-4-5", "anthropic"))).toEqual([]);
    // The summary is one translated sentence around translated categories, not English glued on.
    expect(el(screen.getByTestId("approve-summary")).textContent).toBe("⟦⟦read files⟧⟦, ⟧⟦edit files⟧⟦, ⟧⟦run commands⟧ and 2 more⟧");
  });

  it("a task: the header, an error with its fixes, queued messages while busy", () => {
    const { store, root } = chat();
    const items: ChatItem[] = [
      { id: "u1", role: "user", text: "Make greet polite" },
      { id: "e1", role: "error", error: { kind: "no_key", message: "No API key is set for Anthropic.", retryable: true } },
    ];
    act(() => {
      store.apply({ type: "chat/snapshot", items, busy: true, provider: { kind: "anthropic", model: "m" } });
      store.apply({
        type: "chat/task",
        task: {
          mode: "code",
          status: "running",
          tokensIn: 12_000,
          tokensOut: 300,
          cacheRead: 10,
          cacheWrite: 5,
          todos: [],
          changedFiles: 2,
          context: { used: 1000, window: 200_000, reserved: 8000 },
        } as never,
      });
      store.apply({ type: "chat/queue", messages: ["and a test"], paused: false });
    });
    expect(untranslated(root, data("Make greet polite", "and a test", "code", "No API key is set for Anthropic."))).toEqual([]);
  });

  it("cards and blocks: a waiting edit folded beside the diff editor, a running command, a completion, a question", () => {
    const edit: ToolItem = withView({
      id: "t1",
      role: "tool",
      name: "apply_diff",
      params: { path: "src/greet.ts" },
      status: "waiting",
      approval: { summary: "Edit src/greet.ts", diff: "@@ -1 +1 @@\n-a\n+b\n", inEditor: true, outsideWorkspace: true },
    } as ToolItem);
    const command: ToolItem = withView({ id: "t2", role: "tool", name: "execute_command", params: { command: "npm test" }, status: "running", output: "ok\n", controls: ["continue", "stop"] });
    const items: ChatItem[] = [
      edit,
      command,
      { id: "q1", role: "question", question: "Which file?", suggestions: [{ text: "greet.ts", mode: "architect" }] },
      { id: "c1", role: "completion", result: "Done.", command: "npm test" },
    ];
    const view = render(h("div", null, ...items.map((item, i) => h(Message, { key: item.id, item, busy: false, last: i === items.length - 1 }))));
    // The card titles ("Kiln wants to edit") are built by the host's tools, in its own layer.
    const titles = [...el(view.container).querySelectorAll(".tool-title")].map((e) => e.getAttribute("title") ?? "");
    expect(untranslated(view.container, data(...titles, "Edit src/greet.ts", "npm test", "ok", "Which file?", "greet.ts", "Architect", "Done."))).toEqual([]);
  });

  it("the mode picker and the welcome", () => {
    const modes = [{ slug: "code", name: "Code", description: "Writing code." }];
    const picker = render(h(ModePicker, { modes, current: "code" }));
    fireEvent.click(screen.getByTestId("mode-picker"));
    expect(untranslated(picker.container, data("Code", "Writing code."))).toEqual([]);
    cleanup();
    const info: WelcomeInfo = {
      providers: [
        { kind: "anthropic", label: "Anthropic", hint: "Claude models", envVar: "ANTHROPIC_API_KEY", envKey: true, storedKey: false, defaultModel: "claude-sonnet-5-5", ...welcomeNeeds("anthropic") },
        { kind: "deepseek", label: "DeepSeek", hint: "With a key", envVar: "DEEPSEEK_API_KEY", envKey: false, storedKey: false, defaultModel: "deepseek-chat", ...welcomeNeeds("deepseek") },
      ],
      current: { kind: "anthropic", baseUrl: "", model: "" },
    };
    const { store, root } = chat();
    act(() => store.apply({ type: "chat/snapshot", items: [], busy: false, provider: { kind: "anthropic", model: "m" }, welcome: info }));
    expect(untranslated(root, data("Anthropic", "Claude models", "ANTHROPIC_API_KEY", "claude-sonnet-5-5", "DeepSeek", "With a key"))).toEqual([]);
  });
});
