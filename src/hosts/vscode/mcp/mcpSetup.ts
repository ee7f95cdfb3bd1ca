import * as l10n from "@vscode/l10n";
import { join } from "node:path";
import * as vscode from "vscode";
import { keepLastGood, mergeMcpConfigs, parseMcpConfig, type McpFileResult, type McpSource } from "../../../core/mcp/config";
import { errorText } from "../../../core/mcp/connection";
import { McpHub } from "../../../core/mcp/McpHub";
import { gateProjectServers, mcpServerFingerprint, type McpTrustStore } from "../../../core/mcp/trust";
import type { McpConfigResult, McpServerConfig } from "../../../core/mcp/types";
import type { Logger } from "../../../core/ports";
import { readIfAny, writeAtomically } from "../settings/configFiles";
import { blockedServersNotice } from "./blockedNotice";
import { McpWatchPaths } from "./mcpWatchPaths";

export const PROJECT_MCP_FILE = join(".kilocode", "mcp.json");
export const GLOBAL_MCP_FILE = "mcp_settings.json";
const EMPTY_FILE = '{\n  "mcpServers": {}\n}\n';

/**
 * The window's MCP servers: the project's .kilocode/mcp.json and the global mcp_settings.json,
 * watched, merged (the project wins) and handed to the hub, which reconnects only what changed.
 * A project server starts only in a trusted workspace and once the user allowed its entry
 * (core/mcp/trust.ts); until then the hub lists it as needing approval and runs nothing.
 */
export class McpSetup implements vscode.Disposable {
  readonly hub: McpHub;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watchPaths: McpWatchPaths;
  private lastGood: { project?: McpConfigResult; global?: McpConfigResult } = {};
  private reported = new Set<string>();
  private reloading: Promise<void> = Promise.resolve();
  /** Both files' texts as last loaded: a watcher event for text already loaded is Kiln's own write. */
  private loaded: string | undefined;
  /** The problems of the last reload, for the MCP view and the tests. */
  errors: string[] = [];
  /** The blocked entries last told about, so a reload that blocks no new one says nothing. */
  private notified = new Set<string>();

  constructor(
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
    version: string,
    private readonly trust: McpTrustStore,
  ) {
    this.hub = new McpHub({ logger, roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), clientInfo: { name: "kiln", version } });
    this.watchPaths = new McpWatchPaths((name) => this.hub.restart(name), logger);
    const folder = vscode.workspace.workspaceFolders?.[0];
    const patterns = [new vscode.RelativePattern(storage, GLOBAL_MCP_FILE), ...(folder ? [new vscode.RelativePattern(folder, ".kilocode/mcp.json")] : [])];
    for (const pattern of patterns) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const reload = () => void this.reload(true);
      this.disposables.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    }
    // Servers that use roots/list ask again for the folders.
    const rootsChanged = () => void this.hub.rootsChanged().catch((err: unknown) => this.logger.warn(`MCP: telling servers about the new folders failed: ${errorText(err)}`));
    this.disposables.push(this.watchPaths, vscode.workspace.onDidChangeWorkspaceFolders(rootsChanged));
    // Trusting the workspace lets its allowed servers start (and the others ask) without a reload of the window.
    this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()));
  }

  /** Approvals are per workspace folder: the same file in another clone asks again. */
  private get workspaceKey(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.toString();
  }

  /**
   * The user allowed a blocked server as the view showed it. Refused when the workspace is not
   * trusted or the entry changed since (the view then shows the new one to look at).
   */
  async approve(name: string, fingerprint: string): Promise<string> {
    const server = this.hub.servers().find((s) => s.name === name);
    if (!server) throw new Error(l10n.t('there is no MCP server "{0}"', name));
    const key = this.workspaceKey;
    if (!server.blocked || !key) return l10n.t("{0} needs no approval.", name);
    if (server.blocked.reason === "untrusted-workspace") throw new Error(l10n.t("this workspace is not trusted: trust it first (Manage Workspace Trust)"));
    if (server.blocked.fingerprint !== fingerprint) throw new Error(l10n.t("the entry of {0} changed since it was shown; look at it again", name));
    await this.trust.approve(key, name, fingerprint);
    this.logger.info(`MCP: allowed project server "${name}" (${fingerprint.slice(0, 12)})`);
    await this.reload();
    return l10n.t("Allowed {0}; starting it.", name);
  }

  /** An entry the user wrote in Kiln's own form is theirs: it starts without asking again. */
  async approveOwnEntry(server: McpServerConfig): Promise<void> {
    const key = this.workspaceKey;
    if (server.source === "project" && key) await this.trust.approve(key, server.name, mcpServerFingerprint(server));
  }

  /** A deleted server's approval goes with it; an entry of that name written later asks again. */
  async forgetApproval(name: string): Promise<void> {
    const key = this.workspaceKey;
    if (key) await this.trust.revoke(key, name);
  }

  get globalFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, GLOBAL_MCP_FILE);
  }

  /** The config file of a source as a path; undefined for the project's when no folder is open. */
  pathOf(source: McpSource): string | undefined {
    if (source === "global") return this.globalFile.fsPath;
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? join(folder.uri.fsPath, PROJECT_MCP_FILE) : undefined;
  }

  /**
   * Reads both files again; one reload at a time, in order. onlyIfChanged (the watchers): skipped
   * when both texts are those last loaded, so Kiln's own write, already loaded, is not loaded twice.
   */
  reload(onlyIfChanged = false): Promise<void> {
    this.reloading = this.reloading.then(() => this.load(onlyIfChanged)).catch((err: unknown) => this.logger.error(`MCP config: ${errorText(err)}`));
    return this.reloading;
  }

  /** Opens the global file, made with an empty server list when it does not exist yet. */
  editGlobal(): Promise<vscode.TextEditor> {
    return this.open("global");
  }

  /** Opens a config file, made with an empty server list when missing; `selection` puts the cursor there. */
  async open(source: McpSource, selection?: (document: vscode.TextDocument) => vscode.Range | undefined): Promise<vscode.TextEditor> {
    const path = this.pathOf(source);
    if (!path) throw new Error(l10n.t("Open a folder first: {0} belongs to a project.", PROJECT_MCP_FILE));
    if ((await readIfAny(path)) === undefined) await writeAtomically(path, EMPTY_FILE);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const range = selection?.(document);
    return vscode.window.showTextDocument(document, { preview: false, ...(range && { selection: range }) });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    // Ends every server process; VS Code does not wait for it, so failures are only logged.
    void Promise.resolve(this.hub.dispose()).catch((err: unknown) => this.logger.error(`MCP: closing the servers failed: ${errorText(err)}`));
  }

  private async load(onlyIfChanged: boolean): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const vars = { workspaceFolder: folder, env: process.env };
    const files = (["global", "project"] as const).map((source) => ({ source, path: this.pathOf(source), label: source === "global" ? GLOBAL_MCP_FILE : PROJECT_MCP_FILE }));
    const texts = await Promise.all(files.map((f) => (f.path ? readIfAny(f.path).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))) : undefined)));
    const loaded = texts.some((t) => t instanceof Error) ? undefined : JSON.stringify(texts);
    if (onlyIfChanged && loaded !== undefined && loaded === this.loaded) return;
    this.loaded = loaded;
    const [global, project] = files.map((f, i) => {
      const text = texts[i];
      const result: McpFileResult = text instanceof Error ? { servers: [], errors: [`${f.label}: ${text.message}`], fileError: true } : parseMcpConfig(text ?? "", f.label, f.source, vars);
      return this.keep(f.source, result);
    });
    const merged = mergeMcpConfigs(global!, project!);
    this.errors = merged.errors;
    for (const error of merged.errors) {
      this.logger.warn(`MCP config: ${error}`);
      if (!this.reported.has(error)) void vscode.window.showWarningMessage(l10n.t("Kiln: {0}", error));
    }
    this.reported = new Set(merged.errors);
    const key = this.workspaceKey;
    const servers = gateProjectServers(merged.servers, {
      workspaceTrusted: vscode.workspace.isTrusted,
      approved: (name) => (key ? this.trust.approvedFingerprint(key, name) : undefined),
    });
    this.watchPaths.update(
      servers.filter((s) => !s.blocked),
      folder,
    );
    await this.hub.update(servers);
    this.tellBlocked(
      servers.filter((s) => s.blocked),
      servers.filter((s) => s.source === "project" && !s.disabled).length,
    );
  }

  /** One notification for the servers a load left blocked; again only when an entry not told about is blocked. */
  private tellBlocked(blocked: McpServerConfig[], defined: number): void {
    const keys = blocked.map((s) => `${s.name}:${s.blocked!.reason}:${s.blocked!.fingerprint}`);
    const news = keys.filter((k) => !this.notified.has(k));
    // Allowing one of two leaves the other blocked: nothing new to say then.
    this.notified = new Set(keys);
    if (news.length === 0) return;
    for (const s of blocked) this.logger.info(`MCP: project server "${s.name}" not started: ${s.blocked!.reason}`);
    const untrusted = blocked.some((s) => s.blocked!.reason === "untrusted-workspace");
    const text = blockedServersNotice(
      blocked.map((s) => s.name),
      defined,
      untrusted,
    );
    const showServers = l10n.t("Show MCP Servers");
    void vscode.window.showInformationMessage(text, showServers).then(
      (choice) => choice === showServers && vscode.commands.executeCommand("kiln.openMcpServers"),
      (err: unknown) => this.logger.warn(`MCP: the notification failed: ${errorText(err)}`),
    );
  }

  /** A file that is not valid JSON keeps the servers of its last good version running. */
  private keep(source: McpSource, result: McpFileResult): McpConfigResult {
    const kept = keepLastGood(result, this.lastGood[source]);
    if (!result.fileError) this.lastGood[source] = result;
    return kept;
  }
}
