import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { ChangedFile, TaskChanges } from "../../../core/edit/taskChanges";
import type { Logger } from "../../../core/ports";
import type { FileSystem } from "../../../core/ports/fileSystem";
import { ORIGINAL_SCHEME, type OriginalDocuments } from "./proposalDocuments";
import { changedFilesTitle, changeKindText, taskDiffTitle } from "./reviewWords";

let snapshots = 0;

/**
 * The end-of-task review: every file the chat's current task changed, each opening a diff of the
 * file before the task against now, with a revert per file.
 */
export class TaskReview {
  constructor(
    private readonly changes: () => TaskChanges | undefined,
    private readonly originals: OriginalDocuments,
    private readonly fs: FileSystem,
    private readonly logger: Logger,
  ) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.commands.registerCommand("kiln.reviewTaskChanges", () => this.pick()),
      // With a path (the tests, other commands), it reverts without asking: the caller decided.
      vscode.commands.registerCommand("kiln.revertTaskChange", (path?: unknown) => (typeof path === "string" ? this.revert(path) : this.pick())),
    );
  }

  /** Opens the diff of one changed file: before the task on the left, the file now on the right. */
  async open(change: ChangedFile): Promise<void> {
    const key = `task-${++snapshots}`;
    this.originals.set(key, change.before ?? "");
    const before = vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: change.path, query: key });
    let now = vscode.Uri.file(change.path);
    if (change.kind === "deleted") {
      // Nothing on disk to show: the right side is an empty document.
      this.originals.set(`${key}-now`, "");
      now = vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: change.path, query: `${key}-now` });
    }
    await vscode.commands.executeCommand("vscode.diff", before, now, taskDiffTitle(change.display, change.kind), { preview: true });
  }

  async revert(path: string): Promise<boolean> {
    const changes = this.changes();
    if (!changes) return false;
    try {
      const change = await changes.revert(path, this.fs);
      if (change) void vscode.window.setStatusBarMessage(`$(discard) ${l10n.t("Kiln: {0} is back to how it was before the task", change.display)}`, 4000);
      return change !== undefined;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.logger.error(`Kiln could not revert ${path}: ${why}`);
      void vscode.window.showErrorMessage(l10n.t("Kiln could not revert {0}: {1}", path, why));
      return false;
    }
  }

  private async pick(): Promise<void> {
    const list = this.changes()?.list() ?? [];
    if (list.length === 0) {
      void vscode.window.showInformationMessage(l10n.t("Kiln: the current task has changed no files."));
      return;
    }
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { change: ChangedFile }>();
    quickPick.title = changedFilesTitle(list.length);
    quickPick.placeholder = l10n.t("Pick a file to see its changes; the button reverts it");
    const revertButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon("discard"), tooltip: l10n.t("Revert to before the task") };
    quickPick.items = list.map((change) => ({ label: change.display, description: changeKindText(change.kind), change, buttons: [revertButton] }));
    quickPick.onDidAccept(() => {
      const item = quickPick.selectedItems[0];
      if (item) void this.open(item.change);
    });
    quickPick.onDidTriggerItemButton(async ({ item }) => {
      const revert = l10n.t("Revert");
      const sure = await vscode.window.showWarningMessage(l10n.t("Revert {0} to how it was before the task?", item.change.display), { modal: true }, revert);
      if (sure !== revert) return;
      await this.revert(item.change.path);
      quickPick.items = quickPick.items.filter((i) => i.change.path !== item.change.path);
      if (quickPick.items.length === 0) quickPick.hide();
    });
    quickPick.onDidHide(() => quickPick.dispose());
    quickPick.show();
  }
}
