// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpServerView } from "../../../src/shared/mcpView";
import type { McpViewState } from "../../../src/shared/protocol/mcp";
import { el } from "./dom";
import { answer as respond, posted, sentAs as sent } from "./host";
import { App, ChatStore, McpStore } from "./ui";

const EVERYTHING: McpServerView = {
  name: "everything",
  source: "project",
  transport: "stdio",
  state: "connected",
  tools: [
    { name: "echo", description: "Echoes back the input", inputSchema: {}, alwaysAllow: false, enabled: true },
    { name: "add", description: "Adds two numbers", inputSchema: {}, alwaysAllow: true, enabled: true },
  ],
  resources: [{ uri: "test://static/resource/1", name: "Resource 1" }],
  templates: [],
  prompts: [{ name: "simple_prompt", description: "A prompt without arguments" }],
  log: ["[kiln] connected (stdio)"],
};
const BROKEN: McpServerView = { ...EVERYTHING, name: "broken", source: "global", state: "error", error: "spawn nope ENOENT", tools: [], resources: [], prompts: [] };

function state(servers: McpServerView[] = [EVERYTHING, BROKEN], errors: string[] = []): McpViewState {
  return { servers, errors, files: { project: { path: "/ws/.kilocode/mcp.json", exists: true }, global: { path: "/g/mcp_settings.json", exists: false } } };
}

/** The host's refusal or acceptance of one request (mcpController.ts answers { message }). */
const answer = (request: { requestId?: number }, outcome: { ok: boolean; message: string; field?: string }) => act(() => respond(request, outcome));
const checked = (node: unknown) => (node as { checked: boolean }).checked;

/** The chat page with its MCP view opened (the view title's MCP Servers), and the host's first state applied. */
function openMcp(initial = state()) {
  const mcp = new McpStore();
  render(h(App, { store: new ChatStore((fn) => fn()), mcp }));
  act(() => mcp.apply({ type: "mcp/show" }));
  act(() => mcp.apply({ type: "mcp/state", state: initial }));
  return { mcp, host: (message: Parameters<McpStore["apply"]>[0]) => act(() => mcp.apply(message)) };
}

describe("the sidebar's MCP view", () => {
  beforeEach(() => {
    posted.length = 0;
  });
  afterEach(cleanup);

  it("MCP Servers swaps the chat for the server list, and the Chat button brings it back, telling the host when it opens and closes", () => {
    openMcp();
    expect(sent("mcp/open")).toHaveLength(1);
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(true);
    const server = within(screen.getAllByTestId("mcp-server")[0]!);
    expect(el(server.getByTestId("mcp-state")).textContent).toBe("connected");
    expect(server.getByText("stdio (local command) · .kilocode/mcp.json")).toBeTruthy();
    expect(el(screen.getByTestId("back-to-chat")).textContent).toBe(" Chat");
    expect(screen.getByRole("heading", { name: "MCP servers" })).toBeTruthy();
    fireEvent.click(screen.getByTestId("back-to-chat"));
    expect(sent("mcp/close")).toHaveLength(1);
    expect(screen.queryByTestId("mcp-view")).toBeNull();
    expect(el(screen.getByTestId("chat-view")).hasAttribute("hidden")).toBe(false);
  });

  it("shows each server's state, error, tools with both switches, resources and prompts, and the files' problems", () => {
    openMcp(state(undefined, ['.kilocode/mcp.json: server "x": command must be a non-empty string']));
    const [everything, broken] = screen.getAllByTestId("mcp-server");
    expect(el(broken).dataset.state).toBe("error");
    expect(el(within(broken!).getByTestId("mcp-server-error")).textContent).toBe("spawn nope ENOENT");
    expect(within(broken!).getByText(/global mcp_settings\.json/)).toBeTruthy();
    const e = within(everything!);
    expect(checked(e.getByLabelText("Use echo"))).toBe(true);
    expect(checked(e.getByLabelText("Always allow echo"))).toBe(false);
    expect(checked(e.getByLabelText("Always allow add"))).toBe(true);
    expect(e.getByText("Echoes back the input")).toBeTruthy();
    expect(el(e.getByTestId("mcp-resources")).textContent).toContain("Resource 1");
    expect(el(e.getByTestId("mcp-prompts")).textContent).toContain("simple_prompt");
    expect(el(screen.getByTestId("mcp-config-errors")).textContent).toContain('server "x": command must be a non-empty string');
  });

  it("a switch asks the host to change that tool, shows the click at once, and the host's value once answered", async () => {
    openMcp();
    const everything = within(screen.getAllByTestId("mcp-server")[0]!);
    fireEvent.click(everything.getByLabelText("Always allow echo"));
    const [request] = sent("mcp/setTool");
    expect(request).toMatchObject({ server: "everything", tool: "echo", flag: "alwaysAllow", value: true });
    expect(checked(everything.getByLabelText("Always allow echo"))).toBe(true);
    // The host refused (say the file is broken) and its state still says false.
    await answer(request!, { ok: false, message: "not valid JSON" });
    expect(checked(everything.getByLabelText("Always allow echo"))).toBe(false);
    expect(el(everything.getByRole("alert")).textContent).toBe("not valid JSON");
    fireEvent.click(everything.getByLabelText("Use add"));
    expect(sent("mcp/setTool")[1]).toMatchObject({ tool: "add", flag: "enabled", value: false });
  });

  it("Delete asks in the page first; Disable, Restart and Edit go straight to the host", () => {
    openMcp();
    const everything = within(screen.getAllByTestId("mcp-server")[0]!);
    fireEvent.click(everything.getByTestId("mcp-delete"));
    expect(sent("mcp/delete")).toEqual([]);
    fireEvent.click(everything.getByText("Keep it"));
    expect(everything.queryByTestId("confirm-delete")).toBeNull();
    fireEvent.click(everything.getByTestId("mcp-delete"));
    fireEvent.click(within(everything.getByTestId("confirm-delete")).getByText("Delete"));
    expect(sent("mcp/delete")).toMatchObject([{ server: "everything" }]);
    fireEvent.click(everything.getByText("Disable"));
    fireEvent.click(everything.getByText("Restart"));
    fireEvent.click(everything.getByText("Edit"));
    expect(sent("mcp/setDisabled")).toMatchObject([{ server: "everything", disabled: true }]);
    expect(sent("mcp/restart")).toMatchObject([{ server: "everything" }]);
    expect(sent("mcp/edit")).toMatchObject([{ server: "everything" }]);
  });

  it("Add server refuses in the page what the host would, naming the field, and sends a good one", async () => {
    openMcp();
    fireEvent.click(screen.getByTestId("mcp-add-open"));
    fireEvent.change(screen.getByTestId("mcp-add-name"), { target: { value: "git" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    expect(el(screen.getByTestId("mcp-add-error")).dataset.field).toBe("command");
    expect(el(screen.getByTestId("mcp-add-command")).getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(screen.getByTestId("mcp-add-command"), { target: { value: "uvx" } });
    fireEvent.change(screen.getByTestId("mcp-add-args"), { target: { value: "mcp-server-git\n--repository\n." } });
    fireEvent.change(screen.getByTestId("mcp-add-env"), { target: { value: "1BAD=x" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    expect(el(screen.getByTestId("mcp-add-error")).textContent).toMatch(/^env: "1BAD" is not a variable name/);
    expect(sent("mcp/add")).toEqual([]);

    fireEvent.change(screen.getByTestId("mcp-add-env"), { target: { value: "GIT_TOKEN=abc=def" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    const [add] = sent("mcp/add");
    expect(add!.form).toEqual({
      name: "git",
      scope: "project",
      transport: "stdio",
      command: "uvx",
      args: ["mcp-server-git", "--repository", "."],
      url: "",
      env: [{ name: "GIT_TOKEN", value: "abc=def" }],
    });
    // The host's refusal keeps the form and what was typed; its acceptance closes it.
    await answer(add!, { ok: false, field: "name", message: '.kilocode/mcp.json already has a server "git"' });
    expect(el(screen.getByTestId("mcp-add-error")).textContent).toBe('name: .kilocode/mcp.json already has a server "git"');
    expect(el(screen.getByTestId("mcp-add-name")).getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(screen.getByTestId("mcp-add-name"), { target: { value: "git2" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    await answer(sent("mcp/add")[1]!, { ok: true, message: "Added git2." });
    expect(screen.queryByTestId("mcp-add-form")).toBeNull();
    expect(el(screen.getByTestId("mcp-status")).textContent).toBe("Added git2.");
  });

  it("a project server that needs approval shows what it would run, masked values as hidden, and Allow sends its fingerprint", () => {
    const fingerprint = "a".repeat(64);
    const blocked: McpServerView = {
      ...EVERYTHING,
      name: "repo-tools",
      state: "needs-approval",
      error: "a server from the project's .kilocode/mcp.json starts only once you allow its command",
      tools: [],
      resources: [],
      prompts: [],
      log: [],
      blocked: {
        reason: "not-approved",
        fingerprint,
        launch: {
          transport: "stdio",
          command: "npx",
          args: ["-y", "repo-mcp", "--root", "/ws app"],
          cwd: "/ws",
          env: [
            { name: "GITHUB_TOKEN", value: "${env:GITHUB_TOKEN}", length: 19 },
            { name: "API_KEY", length: 28 },
          ],
          headers: [],
        },
      },
    };
    openMcp(state([blocked]));
    const card = within(screen.getByTestId("mcp-server"));
    expect(el(card.getByTestId("mcp-state")).textContent).toBe("needs approval");
    expect(el(card.getByTestId("mcp-approval")).textContent).toContain("Kiln runs it only once you allow it");
    expect(el(card.getByTestId("mcp-launch-command")).textContent).toBe("Commandnpx -y repo-mcp --root '/ws app'");
    expect(el(card.getByTestId("mcp-launch-cwd")).textContent).toBe("In folder/ws");
    expect(el(card.getByTestId("mcp-launch-env")).textContent).toBe("EnvironmentGITHUB_TOKEN=${env:GITHUB_TOKEN}API_KEY hidden (28 characters)");
    // Nothing runs, so there is nothing to restart; the rest of the entry's buttons stay.
    expect(card.queryByText("Restart")).toBeNull();
    expect(card.getByText("Edit")).toBeTruthy();
    fireEvent.click(card.getByTestId("mcp-allow"));
    expect(sent("mcp/approve")).toMatchObject([{ server: "repo-tools", fingerprint }]);

    cleanup();
    posted.length = 0;
    openMcp(state([{ ...blocked, blocked: { ...blocked.blocked!, reason: "untrusted-workspace" } }]));
    const untrusted = within(screen.getByTestId("mcp-server"));
    expect(el(untrusted.getByTestId("mcp-state")).textContent).toBe("not trusted");
    expect(untrusted.queryByTestId("mcp-allow")).toBeNull();
    fireEvent.click(untrusted.getByTestId("mcp-manage-trust"));
    expect(sent("mcp/manageTrust")).toHaveLength(1);
  });

  it("a URL server takes a URL instead of a command, and the host can switch the page to the view", () => {
    const mcp = new McpStore();
    render(h(App, { store: new ChatStore((fn) => fn()), mcp }));
    act(() => mcp.apply({ type: "mcp/show" }));
    expect(sent("mcp/open")).toHaveLength(1);
    act(() => mcp.apply({ type: "mcp/state", state: state([]) }));
    expect(screen.getByTestId("mcp-empty")).toBeTruthy();
    fireEvent.click(screen.getByTestId("mcp-add-open"));
    fireEvent.change(screen.getByTestId("mcp-add-name"), { target: { value: "remote" } });
    fireEvent.change(screen.getByTestId("mcp-add-transport"), { target: { value: "streamable-http" } });
    expect(screen.queryByTestId("mcp-add-command")).toBeNull();
    fireEvent.change(screen.getByTestId("mcp-add-url"), { target: { value: "ftp://example.com" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    expect(el(screen.getByTestId("mcp-add-error")).dataset.field).toBe("url");
    fireEvent.change(screen.getByTestId("mcp-add-url"), { target: { value: "https://example.com/mcp" } });
    fireEvent.change(screen.getByTestId("mcp-add-scope"), { target: { value: "global" } });
    fireEvent.click(screen.getByTestId("mcp-add-save"));
    expect(sent("mcp/add")[0]!.form).toMatchObject({ name: "remote", scope: "global", transport: "streamable-http", url: "https://example.com/mcp", env: [] });
  });
});
