import { join } from "node:path";
import * as vscode from "vscode";
import { keepLastGood, loadMcpConfigFile, mergeMcpConfigs, type McpFileResult } from "../../core/mcp/config";
import { McpHub } from "../../core/mcp/McpHub";
import type { McpConfigResult } from "../../core/mcp/types";
import type { Logger } from "../../core/ports";

export const PROJECT_MCP_FILE = join(".kilocode", "mcp.json");
export const GLOBAL_MCP_FILE = "mcp_settings.json";
const NO_SERVERS: McpConfigResult = { servers: [], errors: [] };

/**
 * The window's MCP servers: the project's .kilocode/mcp.json and the global mcp_settings.json,
 * watched, merged (the project wins) and handed to the hub, which reconnects only what changed.
 */
export class McpSetup implements vscode.Disposable {
  readonly hub: McpHub;
  private readonly disposables: vscode.Disposable[] = [];
  private lastGood: { project?: McpConfigResult; global?: McpConfigResult } = {};
  private reported = new Set<string>();
  private reloading: Promise<void> = Promise.resolve();
  /** The problems of the last reload, for the MCP view and the tests. */
  errors: string[] = [];

  constructor(
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
    version: string,
  ) {
    this.hub = new McpHub({ logger, roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), clientInfo: { name: "kiln", version } });
    const folder = vscode.workspace.workspaceFolders?.[0];
    const patterns = [new vscode.RelativePattern(storage, GLOBAL_MCP_FILE), ...(folder ? [new vscode.RelativePattern(folder, ".kilocode/mcp.json")] : [])];
    for (const pattern of patterns) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const reload = () => void this.reload();
      this.disposables.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    }
  }

  get globalFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, GLOBAL_MCP_FILE);
  }

  /** Reads both files again; one reload at a time, in order. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.load()).catch((err: unknown) => this.logger.error(`MCP config: ${err instanceof Error ? err.message : String(err)}`));
    return this.reloading;
  }

  /** Opens the global file, made with an empty server list when it does not exist yet. */
  async editGlobal(): Promise<void> {
    const file = this.globalFile;
    try {
      await vscode.workspace.fs.stat(file);
    } catch {
      // Not there yet: an empty list the user can fill in.
      await vscode.workspace.fs.createDirectory(this.storage);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('{\n  "mcpServers": {}\n}\n'));
    }
    await vscode.window.showTextDocument(file);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    // Ends every server process; VS Code does not wait for it, so failures are only logged.
    void Promise.resolve(this.hub.dispose()).catch((err: unknown) => this.logger.error(`MCP: closing the servers failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  private async load(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const vars = { workspaceFolder: folder, env: process.env };
    const global = this.keep("global", await loadMcpConfigFile(this.globalFile.fsPath, GLOBAL_MCP_FILE, "global", vars));
    const project = folder ? this.keep("project", await loadMcpConfigFile(join(folder, PROJECT_MCP_FILE), PROJECT_MCP_FILE, "project", vars)) : NO_SERVERS;
    const merged = mergeMcpConfigs(global, project);
    this.errors = merged.errors;
    for (const error of merged.errors) {
      this.logger.warn(`MCP config: ${error}`);
      if (!this.reported.has(error)) void vscode.window.showWarningMessage(`Kiln: ${error}`);
    }
    this.reported = new Set(merged.errors);
    await this.hub.update(merged.servers);
  }

  /** A file that is not valid JSON keeps the servers of its last good version running. */
  private keep(source: "project" | "global", result: McpFileResult): McpConfigResult {
    const kept = keepLastGood(result, this.lastGood[source]);
    if (!result.fileError) this.lastGood[source] = result;
    return kept;
  }
}
