// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../../src/shared/historyEntry";
import type { McpServerView } from "../../../src/shared/mcpView";
import type { CheckpointItem } from "../../../src/shared/protocol/checkpoints";
import type { McpViewState } from "../../../src/shared/protocol/mcp";
import type { McpRequestItem } from "../../../src/shared/protocol/mcpRequests";
import { el } from "./dom";

import { inPseudoLocale, untranslated } from "./pseudoLocale";
import { HistoryStore, McpStore } from "./ui";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { McpView } from "../../../webview-ui/src/mcp/McpView";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { HistoryView } from "../../../webview-ui/src/history/HistoryView";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { CheckpointRow } from "../../../webview-ui/src/cards/CheckpointRow";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { McpRequestCard } from "../../../webview-ui/src/cards/McpRequestCard";
// @ts-ignore TS6142 under the root tsconfig only (see ui.ts)
import { ToolBody } from "../../../webview-ui/src/cards/ToolBody";

/*
 * The MCP view, the task history and the chat's checkpoint, MCP-request and tool-body cards under a
 * pseudo-locale: every word these panels say themselves must come through l10n.t. What the host or
 * a server sent (server, tool and task names, paths, log lines, the model's text) is data.
 */

/**
 * A piece of text is data when nothing but punctuation and numbers is left once the known data is
 * taken out (as substrings: neighbouring elements' texts run together, with no space between).
 */
const data =
  (...known: string[]) =>
  (words: string) => {
    let rest = words;
    for (const k of [...known].sort((a, b) => b.length - a.length)) rest = rest.split(k).join(" ");
    return !/[A-Za-z]{2,}/.test(rest);
  };

inPseudoLocale();

const CONNECTED: McpServerView = {
  name: "everything",
  source: "project",
  transport: "stdio",
  state: "connected",
  tools: [
    { name: "echo", description: "Echoes back the input", inputSchema: {}, alwaysAllow: false, enabled: true },
    { name: "add", inputSchema: {}, alwaysAllow: true, enabled: false },
  ],
  resources: [{ uri: "test://static/resource/1", name: "Resource 1", description: "A static resource" }],
  templates: [{ uriTemplate: "test://dynamic/{id}" }],
  prompts: [{ name: "simple_prompt", description: "A prompt without arguments" }],
  instructions: "Call echo first.",
  log: ["[kiln] connected (stdio)"],
};
const FAILED: McpServerView = {
  ...CONNECTED,
  name: "broken",
  source: "global",
  transport: "sse",
  state: "error",
  error: "spawn nope ENOENT",
  tools: [],
  resources: [],
  templates: [],
  prompts: [],
  instructions: undefined,
  log: [],
};
const BLOCKED: McpServerView = {
  ...FAILED,
  name: "repo-tools",
  source: "project",
  transport: "stdio",
  state: "needs-approval",
  error: undefined,
  blocked: {
    reason: "not-approved",
    fingerprint: "a".repeat(64),
    launch: {
      transport: "stdio",
      command: "npx",
      args: ["-y", "repo-mcp"],
      cwd: "/ws",
      env: [
        { name: "GITHUB_TOKEN", value: "${env:GITHUB_TOKEN}", length: 19 },
        { name: "API_KEY", length: 28 },
        { name: "PIN", length: 1 },
      ],
      headers: [],
    },
  },
};
const REMOTE: McpServerView = {
  ...BLOCKED,
  name: "remote",
  transport: "streamable-http",
  state: "disabled",
  blocked: {
    reason: "untrusted-workspace",
    fingerprint: "b".repeat(64),
    launch: { transport: "streamable-http", url: "https://example.com/mcp", args: [], env: [], headers: [{ name: "Authorization", length: 40 }] },
  },
};

const MCP_DATA = data(
  ...[CONNECTED, FAILED, BLOCKED, REMOTE].map((s) => s.name),
  "echo",
  "add",
  "Echoes back the input",
  "test://static/resource/1",
  "Resource 1",
  "A static resource",
  "test://dynamic/{id}",
  "simple_prompt",
  "A prompt without arguments",
  "Call echo first.",
  "[kiln] connected (stdio)",
  "spawn nope ENOENT",
  "npx -y repo-mcp",
  "GITHUB_TOKEN=${env:GITHUB_TOKEN}",
  "API_KEY",
  "PIN",
  "Authorization",
  "https://example.com/mcp",
  "/ws/.kilocode/mcp.json",
  "/g/mcp_settings.json",
  ".kilocode/mcp.json",
  "/ws",
  '.kilocode/mcp.json: server "x": command must be a non-empty string',
  // The add form's placeholders are example values: a server's name, a command and its arguments.
  "github",
  "npx",
  "@modelcontextprotocol/server-github",
  // What the test types into the add form.
  "git",
  "uvx",
  "nonsense",
);

function mcpView(state: McpViewState) {
  const store = new McpStore();
  const view = render(h(McpView, { store }));
  act(() => store.apply({ type: "mcp/state", state }));
  return view.container;
}

describe("the MCP view in another language", () => {
  it("the server list, a tool's switches, a server's offers and log, a delete's confirmation, the file buttons: every word translated", () => {
    const root = mcpView({
      servers: [CONNECTED, FAILED],
      errors: ['.kilocode/mcp.json: server "x": command must be a non-empty string'],
      files: { project: { path: "/ws/.kilocode/mcp.json", exists: true }, global: { path: "/g/mcp_settings.json", exists: false } },
    });
    fireEvent.click(within(screen.getAllByTestId("mcp-server")[0]!).getByTestId("mcp-delete"));
    expect(untranslated(root, MCP_DATA)).toEqual([]);
    expect(el(screen.getAllByTestId("mcp-state")[0]).textContent).toBe("⟦connected⟧");
    expect(el(screen.getByTestId("confirm-delete")).textContent).toBe("⟦Delete everything from .kilocode/mcp.json?⟧⟦Delete⟧⟦Keep it⟧");
  });

  it("with no server, and no folder open: every word translated", () => {
    const root = mcpView({ servers: [], errors: [], files: { project: undefined, global: { path: "/g/mcp_settings.json", exists: true } } });
    expect(untranslated(root, MCP_DATA)).toEqual([]);
    expect(screen.getByTestId("mcp-empty")).toBeTruthy();
  });

  it("a server that needs approval, by command and by URL: every word translated", () => {
    const root = mcpView({ servers: [BLOCKED, REMOTE], errors: [], files: { project: { path: "/ws/.kilocode/mcp.json", exists: true }, global: { path: "/g/mcp_settings.json", exists: true } } });
    expect(screen.getAllByTestId("mcp-approval")).toHaveLength(2);
    expect(untranslated(root, MCP_DATA)).toEqual([]);
  });

  it("the add-server form, for a command and for a URL, with the page's own refusal: every word translated", () => {
    const root = mcpView({ servers: [], errors: [], files: { project: { path: "/ws/.kilocode/mcp.json", exists: true }, global: { path: "/g/mcp_settings.json", exists: true } } });
    fireEvent.click(screen.getByTestId("mcp-add-open"));
    fireEvent.change(screen.getByTestId("mcp-add-name"), { target: { value: "git" } });
    fireEvent.change(screen.getByTestId("mcp-add-command"), { target: { value: "uvx" } });
    fireEvent.change(screen.getByTestId("mcp-add-env"), { target: { value: "nonsense" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    // The field's name before the message is its id in the protocol, as the host's refusals name it.
    expect(el(screen.getByTestId("mcp-add-error")).textContent).toBe('env: ⟦"nonsense" is not NAME=value⟧');
    expect(untranslated(root, (words) => MCP_DATA(words.replace(/env:$/, "")))).toEqual([]);
    fireEvent.change(screen.getByTestId("mcp-add-transport"), { target: { value: "sse" } });
    expect(screen.getByTestId("mcp-add-url")).toBeTruthy();
    expect(untranslated(root, (words) => MCP_DATA(words.replace(/env:$/, "")))).toEqual([]);
  });
});

function entry(id: string, title: string, fields: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    title,
    workspace: "/work/app",
    mode: "code",
    model: "claude-sonnet-4-5",
    protocol: "xml",
    tokensIn: 1000,
    tokensOut: 200,
    cacheRead: 0,
    cacheWrite: 0,
    createdAt: 1,
    updatedAt: 1_700_000_000_000,
    favorite: false,
    status: "completed",
    ...fields,
  };
}

describe("the history view in another language", () => {
  it("entries open, starred, interrupted, untitled, without a folder, and one asking to delete: every word translated", () => {
    const entries = [
      entry("a", "Fix the login bug", { cost: 0.0123 }),
      entry("b", "Add dark mode", { favorite: true, tokensIn: 1, tokensOut: 0 }),
      entry("c", "", { workspace: "/work/docs", status: "running", cost: 2.5 }),
      entry("d", "Write release notes", { workspace: "" }),
    ];
    const store = new HistoryStore();
    const view = render(h(HistoryView, { store, onOpened: () => {} }));
    act(() => store.apply({ type: "history/state", state: { entries, problems: [], currentWorkspace: "/work/app", currentTaskId: "a" } }));
    fireEvent.click(within(screen.getAllByTestId("history-entry")[1]!).getByTestId("history-delete"));
    const date = new Date(1_700_000_000_000).toLocaleString();
    expect(untranslated(view.container, data("Fix the login bug", "Add dark mode", "Write release notes", "/work/app", "/work/docs", "app", "docs", "code", "claude-sonnet-4-5", date))).toEqual([]);
    expect(el(screen.getAllByTestId("history-entry")[1]).querySelector(".history-meta")?.textContent).toContain("⟦1 token⟧");

    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "nothing like it" } });
    expect(el(screen.getByTestId("history-empty")).textContent).toBe("⟦No task matches.⟧");
    expect(untranslated(view.container)).toEqual([]);
  });
});

describe("the chat's cards in another language", () => {
  const checkpoint: CheckpointItem = { id: "m4", role: "checkpoint", message: "Before write_to_file a.txt", commit: "0123456789abcdef0123456789abcdef01234567", apiIndex: 2 };
  const commitData = data("Before write_to_file a.txt", "0123456789abcdef0123456789abcdef01234567", "01234567");

  it("a checkpoint row, each restore's question, and a skipped one: every word translated", () => {
    const view = render(h(CheckpointRow, { item: checkpoint }));
    expect(untranslated(view.container, commitData)).toEqual([]);
    fireEvent.click(screen.getByTestId("checkpoint-restore-files"));
    expect(untranslated(view.container, commitData)).toEqual([]);
    fireEvent.click(screen.getByText("⟦Cancel⟧"));
    fireEvent.click(screen.getByTestId("checkpoint-restore-task"));
    expect(el(screen.getByTestId("checkpoint-confirm")).textContent).toContain("⟦Restore files and task⟧");
    expect(untranslated(view.container, commitData)).toEqual([]);
    cleanup();
    const skipped = render(h(CheckpointRow, { item: { id: "m5", role: "checkpoint", message: "Before write_to_file a.txt" } }));
    expect(untranslated(skipped.container)).toEqual([]);
  });

  it("an MCP server's sampling request and form, waiting and answered: every word translated", () => {
    const sampling: McpRequestItem = {
      id: "mcp-1",
      role: "mcpRequest",
      server: "everything",
      status: "waiting",
      request: {
        kind: "sampling",
        systemPrompt: "Be brief.",
        maxTokens: 100,
        messages: [
          { role: "user", text: "Say hi" },
          { role: "assistant", text: "Hi" },
        ],
      },
    } as McpRequestItem;
    const form: McpRequestItem = {
      id: "mcp-2",
      role: "mcpRequest",
      server: "signup",
      status: "waiting",
      request: {
        kind: "elicitation",
        message: "Tell us about you",
        fields: [
          { kind: "text", name: "name", title: "Name", required: true, description: "Your full name" },
          { kind: "select", name: "color", title: "Colour", required: true, options: [{ value: "r", label: "Red" }] },
          { kind: "select", name: "size", title: "Size", required: false, options: [{ value: "s", label: "Small" }] },
        ],
      },
    };
    const known = data("everything", "signup", "Be brief.", "Say hi", "Hi", "Tell us about you", "Name", "Your full name", "Colour", "Red", "Size", "Small", "Sure", "The server broke", "No, thanks");
    const view = render(h("div", null, h(McpRequestCard, { item: sampling }), h(McpRequestCard, { item: form })));
    expect(untranslated(view.container, known)).toEqual([]);
    cleanup();
    const answered = render(
      h(
        "div",
        null,
        h(McpRequestCard, { item: { ...sampling, status: "answered", result: "Sure" } }),
        h(McpRequestCard, { item: { ...form, status: "failed", result: "The server broke" } }),
        h(McpRequestCard, { item: { ...form, id: "mcp-3", status: "declined", result: "No, thanks" } }),
      ),
    );
    expect(untranslated(answered.container, known)).toEqual([]);
  });

  it("a tool's body: a written file, a folded diff and a checklist: every word translated", () => {
    const view = render(
      h(
        "div",
        null,
        h(ToolBody, { body: { kind: "file", path: "a.txt", content: "a\nb\n" }, status: "done" }),
        h(ToolBody, { body: { kind: "diff", hunks: [{ removed: ["x"], added: ["y", "z"] }] }, status: "done", folded: true }),
        h(ToolBody, {
          body: {
            kind: "checklist",
            items: [
              { text: "Plan", status: "completed" },
              { text: "Build", status: "in_progress" },
              { text: "Ship", status: "pending" },
            ],
          },
          status: "done",
        }),
      ),
    );
    expect(untranslated(view.container, data("Plan", "Build", "Ship"))).toEqual([]);
    expect(el(screen.getByTestId("write-preview")).querySelector("summary")?.textContent).toBe("⟦2 lines⟧");
    expect(el(screen.getByTestId("diff-preview")).querySelector("summary")?.textContent).toBe("⟦1 change: −1 +2⟧");
  });
});
