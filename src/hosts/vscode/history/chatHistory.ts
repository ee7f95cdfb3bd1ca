import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { Task } from "../../../core/agent/Task";
import type { HistoryStore } from "../../../core/history/HistoryStore";
import { taskToMarkdown } from "../../../core/history/markdown";
import { TaskRecorder } from "../../../core/history/recorder";
import type { SavedTask } from "../../../core/history/types";
import type { Logger } from "../../../core/ports";
import { Emitter } from "../../../shared/disposable";
import type { HistoryToHost, HostToHistoryView } from "../../../shared/protocol/history";

/** What a chat does with a task from history: shows it as its current task, ready to resume. */
export interface HistoryChat {
  openSaved(saved: SavedTask): void;
  currentTaskId(): string | undefined;
}

/**
 * Task history in VS Code: every chat's tasks are saved as they run (TaskRecorder), and the
 * history view lists, reopens, stars, exports and deletes them. One per window; the store's lock
 * keeps two windows from losing each other's tasks.
 */
export class ChatHistory implements vscode.Disposable {
  private readonly changed = new Emitter<void>();
  /** The recorders of the tasks in chats, and of those whose last save is still running. */
  private readonly recorders = new Set<TaskRecorder>();

  constructor(
    readonly store: HistoryStore,
    private readonly logger: Logger,
  ) {}

  /** Saves `task` as it runs; dispose (when the chat moves on) saves what is left. */
  record(task: Task): vscode.Disposable {
    const recorder = new TaskRecorder(task, this.store, this.logger);
    this.recorders.add(recorder);
    const saved = task.onDidChange((event) => {
      if (event.type === "status" && event.status !== "running") void recorder.flush().then(() => this.changed.fire());
    });
    return {
      dispose: () => {
        saved.dispose();
        recorder.dispose();
        // Its last save may still be running; closing the window waits for it too.
        void recorder.flush().finally(() => this.recorders.delete(recorder));
      },
    };
  }

  /**
   * Finishes every save in progress or pending. The window waits for this when it closes or
   * reloads: a task that ended a moment before would otherwise be saved without its last messages.
   */
  async flushAll(): Promise<void> {
    await Promise.all([...this.recorders].map((recorder) => recorder.flush()));
  }

  async state(current?: string): Promise<HostToHistoryView & { type: "history/state" }> {
    const list = await this.store.list();
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return { type: "history/state", state: { entries: list.entries, problems: list.problems, ...(workspace && { currentWorkspace: workspace }), ...(current && { currentTaskId: current }) } };
  }

  /** One page's link: the page's history messages, and states while it shows the view. */
  connect(chat: HistoryChat, post: (message: HostToHistoryView) => void): { receive(message: HistoryToHost): Promise<void>; dispose(): void } {
    let open = false;
    const refresh = async () => post(await this.state(chat.currentTaskId()));
    const listener = this.changed.event(() => open && void refresh().catch((err: unknown) => this.logger.warn(`history: ${String(err)}`)));
    return {
      dispose: () => listener.dispose(),
      receive: async (message) => {
        try {
          await this.act(message, chat);
          if (message.type === "history/open") open = true;
          if (message.type === "history/resume") open = false;
        } catch (err) {
          void vscode.window.showErrorMessage(l10n.t("Kiln: {0}", err instanceof Error ? err.message : String(err)));
        }
        if (open || message.type === "history/open") await refresh();
      },
    };
  }

  /** Writes a saved task as Markdown; asks where unless `target` is given (the tests give one). */
  async exportTask(id: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const saved = await this.store.load(id);
    const name =
      (saved.entry.title || "task")
        .replace(/[^\w -]+/g, "")
        .trim()
        .slice(0, 60) || "task";
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = target ?? (await vscode.window.showSaveDialog({ filters: { Markdown: ["md"] }, ...(folder && { defaultUri: vscode.Uri.joinPath(folder, `${name}.md`) }) }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(taskToMarkdown(saved)));
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async act(message: HistoryToHost, chat: HistoryChat): Promise<void> {
    switch (message.type) {
      case "history/open":
        return;
      case "history/resume":
        return chat.openSaved(await this.store.load(message.id));
      case "history/favorite":
        return this.store.setFavorite(message.id, message.favorite);
      case "history/delete":
        if (message.id === chat.currentTaskId()) throw new Error("This task is open in the chat; start a new task before deleting it.");
        return this.store.delete(message.id);
      case "history/export": {
        const uri = await this.exportTask(message.id);
        if (uri) void vscode.window.showInformationMessage(l10n.t("Kiln: exported the task to {0}.", vscode.workspace.asRelativePath(uri)));
        return;
      }
    }
  }
}
