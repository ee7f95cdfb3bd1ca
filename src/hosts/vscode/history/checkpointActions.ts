import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { Task } from "../../../core/agent/Task";
import { ShadowCheckpoints, type CheckpointChange } from "../../../core/checkpoints/ShadowCheckpoints";
import { TaskCheckpoints, type CheckpointStore } from "../../../core/checkpoints/taskCheckpoints";
import type { Logger } from "../../../core/ports";
import type { CheckpointItem, CheckpointMessage } from "../../../shared/protocol/checkpoints";
import { KILN, readSection, type SectionValues } from "../settings/kilnSettings";
import { checkpointChangesTitle, checkpointDiffTitle, restoreSummary } from "./checkpointWords";

const MB = 1024 * 1024;
const DIFF_SCHEME = "kiln-checkpoint";

type CheckpointSettings = SectionValues<typeof KILN.checkpoints>;

/** Read at each use, so a changed setting applies to the running task's next checkpoint. */
function readSettings(logger: Logger): CheckpointSettings {
  return readSection(KILN.checkpoints, logger);
}

/** A store that takes no checkpoints, and says why. */
function unavailable(reason: string): CheckpointStore {
  const refuse = () => Promise.reject(new Error(`Checkpoints are off: ${reason}`));
  return { save: async () => ({ kind: "skipped", reason }), restore: refuse, diffSince: refuse, changedSince: refuse, fileAt: refuse };
}

/**
 * The workspace folders' shadow repositories, in the extension's global storage (never in the
 * workspace): one per folder, made again when a cap in the settings changes.
 */
export class WorkspaceCheckpoints {
  private readonly stores = new Map<string, ShadowCheckpoints>();

  constructor(
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
  ) {}

  /** A new task's checkpoints of `folder`. */
  forTask(folder: vscode.Uri): TaskCheckpoints {
    const store = folder.scheme === "file" && this.storage.scheme === "file" ? this.storeFor(folder.fsPath) : unavailable("the workspace is not on this computer's disk");
    return TaskCheckpoints.create({ store, maxTotalBytes: () => readSettings(this.logger).maxTotalMB * MB, logger: this.logger });
  }

  private storeFor(cwd: string): CheckpointStore {
    const current = () => this.shadow(cwd, readSettings(this.logger));
    return {
      save: async (taskId, message) =>
        readSettings(this.logger).enabled ? current().save(taskId, message) : { kind: "skipped", reason: "checkpoints are turned off (the setting kiln.checkpoints.enabled)" },
      // Restoring and diffing work with the setting off: the checkpoints already taken stay usable.
      restore: (taskId, commit) => current().restore(taskId, commit),
      diffSince: (commit) => current().diffSince(commit),
      changedSince: (commit) => current().changedSince(commit),
      fileAt: (commit, path) => current().fileAt(commit, path),
      cleanup: (maxBytes, keep) => current().cleanup(maxBytes, keep),
    };
  }

  private shadow(cwd: string, s: CheckpointSettings): ShadowCheckpoints {
    const key = `${cwd}\0${s.maxFileSizeMB}\0${s.timeBudgetSeconds}`;
    let store = this.stores.get(key);
    if (!store) {
      for (const old of this.stores.keys()) if (old.startsWith(`${cwd}\0`)) this.stores.delete(old);
      store = new ShadowCheckpoints({ storage: this.storage.fsPath, workspace: cwd, maxFileBytes: Math.round(s.maxFileSizeMB * MB), timeBudgetMs: s.timeBudgetSeconds * 1000 });
      this.stores.set(key, store);
    }
    return store;
  }
}

/** What a checkpoint row's buttons act on: the chat's current task. */
export interface CheckpointTarget {
  task: Task;
  checkpoints: TaskCheckpoints | undefined;
  /** The chat's Stop: approvals refused, queued messages held, the task cancelled. */
  stop(): Promise<void>;
}

/** Restore files, restore files and task, or diff since: what a checkpoint row's button asks for. */
export async function runCheckpointAction(message: CheckpointMessage, target: CheckpointTarget, logger: Logger): Promise<void> {
  const item = target.task.snapshot().find((i): i is CheckpointItem => i.id === message.id && i.role === "checkpoint");
  const checkpoints = target.checkpoints;
  if (!item?.commit || !checkpoints) {
    logger.warn(`checkpoint ${message.id}: not a checkpoint of the current task`);
    return;
  }
  try {
    if (message.action === "diff") return await showChanges(checkpoints, item.commit);
    if (message.action === "restoreTask" && item.apiIndex === undefined)
      throw new Error(l10n.t("This checkpoint restores files only (a subtask's, or a later edit of the same reply): the task can go back to the reply's first checkpoint."));
    // Files put back under a running task would be overwritten by its next edit.
    if (target.task.busy) {
      await target.stop();
      await whenIdle(target.task);
    }
    const result = await checkpoints.restore(item.commit);
    const rewound = message.action === "restoreTask" && target.task.rewindTo(item.id);
    if (message.action === "restoreTask" && !rewound) throw new Error(l10n.t("{0} The task could not go back to the checkpoint.", restoreSummary(result)));
    logger.info(`checkpoint ${item.commit}: restored ${result.restored.length}, removed ${result.removed.length}; before: ${result.before}`);
    void vscode.window.showInformationMessage(
      rewound ? l10n.t("Kiln: {0} The chat went back to the checkpoint: send a message to go on from there.", restoreSummary(result)) : l10n.t("Kiln: {0}", restoreSummary(result)),
    );
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    logger.error(`checkpoint ${item.commit}: ${message.action} failed: ${text}`);
    void vscode.window.showErrorMessage(l10n.t("Kiln: {0}", text));
  }
}

function whenIdle(task: Task): Promise<void> {
  return new Promise((resolve) => {
    if (!task.busy) return resolve();
    const listener = task.onDidChange((event) => {
      if (event.type !== "busy" || event.busy) return;
      listener.dispose();
      resolve();
    });
  });
}

/**
 * What the "kiln-checkpoint:" documents hold, by the URI's query: a file as a checkpoint had it (or
 * nothing, for a file that did not exist on that side). Kept for the newest few hundred, not tied to
 * open documents: the multi-file diff editor closes and reopens them as the user scrolls.
 */
const sides = new Map<string, () => Promise<string>>();
const MAX_SIDES = 500;
let shown = 0;

function side(path: string, text: () => Promise<string>): vscode.Uri {
  const key = String(++shown);
  sides.set(key, text);
  for (const old of sides.keys()) {
    if (sides.size <= MAX_SIDES) break;
    sides.delete(old);
  }
  return vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${path}`, query: key });
}

/** The read-only documents "Diff since" shows; registered once by the extension. */
export function registerCheckpointDiffs(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, { provideTextDocumentContent: async (uri) => (await sides.get(uri.query)?.()) ?? "" });
}

/**
 * Diff since: VS Code's diff editor, the checkpoint on the left and the workspace on the right, for
 * one file; the multi-file diff editor for several.
 */
async function showChanges(checkpoints: TaskCheckpoints, commit: string): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const changes = await checkpoints.changedSince(commit);
  if (!root || changes.length === 0) {
    void vscode.window.showInformationMessage(l10n.t("Kiln: nothing changed since this checkpoint."));
    return;
  }
  const short = commit.slice(0, 8);
  const before = (c: CheckpointChange) => side(c.path, async () => (c.change === "added" ? "" : ((await checkpoints.fileAt(commit, c.path)) ?? "")));
  const after = (c: CheckpointChange) => (c.change === "deleted" ? side(c.path, async () => "") : vscode.Uri.joinPath(root, c.path));
  if (changes.length === 1) {
    const only = changes[0]!;
    await vscode.commands.executeCommand("vscode.diff", before(only), after(only), checkpointDiffTitle(only.path, short), { preview: true });
    return;
  }
  await vscode.commands.executeCommand(
    "vscode.changes",
    checkpointChangesTitle(short),
    changes.map((c) => [vscode.Uri.joinPath(root, c.path), before(c), after(c)]),
  );
}
