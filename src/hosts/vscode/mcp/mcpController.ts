import * as l10n from "@vscode/l10n";
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import { addServer, locateServer, removeServer, setServerDisabled, setToolListed, type EditResult } from "../../../core/mcp/configEdits";
import { parseMcpConfig, type McpSource } from "../../../core/mcp/config";
import type { Logger } from "../../../core/ports";
import { Emitter } from "../../../shared/disposable";
import type { HostToMcpView, McpMethod, McpRequests, McpServerForm, McpToHost, McpViewState } from "../../../shared/protocol/mcp";
import { MCP_REQUESTS } from "../../../shared/protocol/mcp";
import type { ChatRequests } from "../../../shared/protocol/messages";
import { checkServerForm } from "../../../shared/protocol/mcpForm";
import { RequestError, type CheckedParamsOf, type Done } from "../../../shared/protocol/requests";
import type { RequestRouter } from "../requestRouter";
import { readIfAny, serially, writeAtomically } from "../settings/configFiles";
import { GLOBAL_MCP_FILE, PROJECT_MCP_FILE, type McpSetup } from "./mcpSetup";

type Outcome = { ok: boolean; message: string; field?: string };
/** A request as one value, so one switch acts on every method. */
type McpAction = { [K in McpMethod]: { type: K } & CheckedParamsOf<McpRequests, K> }[McpMethod];

/** A server's log can grow many lines a second; the view gets at most one state per this many ms. */
const STATE_DELAY_MS = 150;

/** One page's connection to the MCP view: states while the page shows the view (its requests go through the page's RequestRouter). */
export interface McpViewLink extends vscode.Disposable {
  receive(message: McpToHost): Promise<void>;
  /** The page went away: no more states until it opens the view again. */
  close(): void;
}

/**
 * The MCP view's host side: acts on the page's requests by editing the config file a server came
 * from (configEdits.ts, written whole), then reloads once; the watcher event of that write finds
 * the text already loaded and does nothing (McpSetup.reload).
 */
export class McpController implements vscode.Disposable {
  private readonly changed = new Emitter<void>();
  private readonly hubListener: vscode.Disposable;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly setup: McpSetup,
    private readonly logger: Logger,
  ) {
    this.hubListener = setup.hub.onDidChange(() => {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.changed.fire();
      }, STATE_DELAY_MS);
    });
  }

  state(): McpViewState {
    const file = (source: McpSource) => {
      const path = this.setup.pathOf(source);
      return path === undefined ? undefined : { path, exists: existsSync(path) };
    };
    const project = file("project");
    return { servers: this.setup.hub.servers(), errors: [...this.setup.errors], files: { ...(project && { project }), global: file("global")! } };
  }

  connect(post: (message: HostToMcpView) => void, requests: RequestRouter<ChatRequests>): McpViewLink {
    let listener: vscode.Disposable | undefined;
    const close = () => {
      listener?.dispose();
      listener = undefined;
    };
    const postState = () => post({ type: "mcp/state", state: this.state() });
    const answer = async (action: McpAction): Promise<Done> => {
      try {
        const outcome = await this.handle(action);
        if (!outcome.ok) throw new RequestError(outcome.message, outcome.field);
        return { message: outcome.message };
      } finally {
        // The state first: when the page sees the answer, the state it shows already includes the change.
        postState();
      }
    };
    const handlers = (Object.keys(MCP_REQUESTS) as McpMethod[]).map((method) => requests.onRequest(method, (params) => answer({ type: method, ...params } as McpAction)));
    return {
      receive: async (message) => {
        if (message.type === "mcp/close") return close();
        listener ??= this.changed.event(postState);
        postState();
      },
      close,
      dispose: () => {
        close();
        for (const handler of handlers) handler.dispose();
      },
    };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.hubListener.dispose();
    this.changed.dispose();
  }

  private async handle(message: McpAction): Promise<Outcome> {
    switch (message.type) {
      case "mcp/restart":
        await this.setup.hub.restart(message.server);
        return { ok: true, message: l10n.t("Restarted {0}.", message.server) };
      case "mcp/setDisabled":
        return this.editServer(
          message.server,
          (text, file) => setServerDisabled(text, file, message.server, message.disabled),
          message.disabled ? l10n.t("Disabled {0}.", message.server) : l10n.t("Enabled {0}.", message.server),
        );
      case "mcp/setTool": {
        const { server, tool, flag, value } = message;
        // "enabled" is the absence from disabledTools.
        const [list, listed] = flag === "enabled" ? (["disabledTools", !value] as const) : (["alwaysAllow", value] as const);
        // Only names the server offers: the page is not trusted to say which names go into the file.
        if (!this.setup.hub.servers().some((s) => s.name === server && s.tools.some((t) => t.name === tool))) return { ok: false, message: l10n.t('{0} has no tool "{1}"', server, tool) };
        const done =
          flag === "enabled" ? (value ? l10n.t("{0} enabled.", tool) : l10n.t("{0} disabled.", tool)) : value ? l10n.t("{0} runs without asking.", tool) : l10n.t("{0} asks before it runs.", tool);
        return this.editServer(server, (text, file) => setToolListed(text, file, server, list, tool, listed), done);
      }
      case "mcp/delete": {
        const source = this.sourceOf(message.server);
        const outcome = await this.editServer(message.server, (text, file) => removeServer(text, file, message.server), l10n.t("Deleted {0}.", message.server));
        if (outcome.ok && source === "project") await this.setup.forgetApproval(message.server);
        return outcome;
      }
      case "mcp/edit": {
        const source = this.sourceOf(message.server);
        await this.setup.open(source, (document) => {
          const at = locateServer(document.getText(), message.server);
          const start = at && document.positionAt(at.offset);
          return start && new vscode.Range(start, start);
        });
        return { ok: true, message: l10n.t("Opened {0} at {1}.", labelOf(source), message.server) };
      }
      case "mcp/add":
        return this.add(message.form);
      case "mcp/openFile":
        await this.setup.open(message.scope);
        return { ok: true, message: l10n.t("Opened {0}.", labelOf(message.scope)) };
      case "mcp/approve":
        return { ok: true, message: await this.setup.approve(message.server, message.fingerprint) };
      case "mcp/manageTrust":
        await vscode.commands.executeCommand("workbench.trust.manage");
        return { ok: true, message: l10n.t("Opened Workspace Trust.") };
    }
  }

  private add(form: McpServerForm): Promise<Outcome> {
    const checked = checkServerForm(form);
    if (!checked.ok) return Promise.resolve(checked);
    if (!this.setup.pathOf(form.scope)) return Promise.resolve({ ok: false, field: "scope", message: l10n.t("Open a folder first: {0} belongs to a project.", PROJECT_MCP_FILE) });
    const other = this.setup.hub.servers().find((s) => s.name === checked.server.name && s.source !== form.scope);
    // The project's entry would hide a global one of the same name (or the new one would be hidden).
    if (other) return Promise.resolve({ ok: false, field: "name", message: l10n.t('{0} already has a server "{1}"', labelOf(other.source), other.name) });
    const vars = { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, env: process.env };
    // The person typed this entry into Kiln's own form: it is allowed as written.
    const allow = async (text: string) => {
      const written = parseMcpConfig(text, labelOf(form.scope), form.scope, vars).servers.find((s) => s.name === checked.server.name);
      if (written) await this.setup.approveOwnEntry(written);
    };
    return this.editFile(form.scope, (text, file) => addServer(text, file, form.scope, vars, checked.server), l10n.t("Added {0} to {1}.", checked.server.name, labelOf(form.scope)), allow);
  }

  /** The file a running server's entry is in (the project's wins, as in the hub). */
  private sourceOf(name: string): McpSource {
    const server = this.setup.hub.servers().find((s) => s.name === name);
    if (!server) throw new Error(`there is no MCP server "${name}"`);
    return server.source;
  }

  private editServer(name: string, edit: (text: string, file: string) => EditResult, done: string): Promise<Outcome> {
    return this.editFile(this.sourceOf(name), edit, done);
  }

  /** Reads, edits and writes one file, then reloads once; a refused edit writes nothing. */
  private editFile(source: McpSource, edit: (text: string, file: string) => EditResult, done: string, beforeWrite?: (text: string) => Promise<void>): Promise<Outcome> {
    return serially(async () => {
      const path = this.setup.pathOf(source);
      if (!path) return { ok: false, message: l10n.t("Open a folder first: {0} belongs to a project.", PROJECT_MCP_FILE) };
      const before = (await readIfAny(path)) ?? "";
      const result = edit(before, labelOf(source));
      if (!result.ok) return result;
      if (result.text !== before) {
        // Before the write: the watcher's reload of it must already find the entry allowed.
        await beforeWrite?.(result.text);
        await writeAtomically(path, result.text);
        await this.setup.reload();
      }
      return { ok: true, message: done };
    });
  }
}

function labelOf(source: McpSource): string {
  return source === "global" ? GLOBAL_MCP_FILE : PROJECT_MCP_FILE;
}
