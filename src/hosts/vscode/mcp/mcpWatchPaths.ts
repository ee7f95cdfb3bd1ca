import { statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import * as vscode from "vscode";
import { errorText } from "../../../core/mcp/connection";
import type { McpServerConfig } from "../../../core/mcp/types";
import type { Logger } from "../../../core/ports";

/** A save often comes as several events (write, rename, a formatter's second write): one restart for them. */
const RESTART_DELAY_MS = 500;

interface Watched {
  /** The paths it watches, to tell whether a new config changed them. */
  key: string;
  disposables: vscode.Disposable[];
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * A server's `watchPaths`: when one of those files changes (say, the server's own build output),
 * the server is restarted so it runs the new code. Re-made whenever the config changes.
 */
export class McpWatchPaths implements vscode.Disposable {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly restart: (name: string) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  update(servers: readonly McpServerConfig[], workspaceFolder: string | undefined): void {
    const wanted = new Map<string, string[]>();
    for (const server of servers) {
      if (server.disabled || server.watchPaths.length === 0) continue;
      // Relative to where the server runs, as its own relative paths are.
      const base = server.cwd ?? workspaceFolder;
      const paths = server.watchPaths.filter((p) => p.trim() && (isAbsolute(p) || base)).map((p) => (isAbsolute(p) ? p : resolve(base!, p)));
      if (paths.length > 0) wanted.set(server.name, paths);
    }
    for (const [name, watched] of this.watched) {
      if (wanted.get(name) && JSON.stringify(wanted.get(name)) === watched.key) continue;
      this.stop(watched);
      this.watched.delete(name);
    }
    for (const [name, paths] of wanted) {
      if (!this.watched.has(name)) this.watched.set(name, this.watch(name, paths));
    }
  }

  dispose(): void {
    for (const watched of this.watched.values()) this.stop(watched);
    this.watched.clear();
  }

  private watch(name: string, paths: string[]): Watched {
    const watched: Watched = { key: JSON.stringify(paths), disposables: [] };
    for (const path of paths) {
      const watcher = vscode.workspace.createFileSystemWatcher(patternOf(path));
      const changed = (uri: vscode.Uri) => this.schedule(name, watched, uri.fsPath);
      watched.disposables.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
    }
    return watched;
  }

  private schedule(name: string, watched: Watched, path: string): void {
    clearTimeout(watched.timer);
    watched.timer = setTimeout(() => {
      this.logger.info(`MCP: ${path} changed; restarting ${name}`);
      this.restart(name).catch((err: unknown) => this.logger.warn(`MCP: restarting ${name} after ${path} changed failed: ${errorText(err)}`));
    }, RESTART_DELAY_MS);
  }

  private stop(watched: Watched): void {
    clearTimeout(watched.timer);
    for (const d of watched.disposables) d.dispose();
  }
}

/** A folder is watched with everything in it; a file (or a path not made yet) by its name in its folder. */
function patternOf(path: string): vscode.RelativePattern {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    // Not there yet: watched as a file, so creating it counts as a change.
  }
  return folder ? new vscode.RelativePattern(vscode.Uri.file(path), "**/*") : new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path));
}
