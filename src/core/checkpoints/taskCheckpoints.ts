import { randomBytes } from "node:crypto";
import type { ChatLog } from "../agent/ChatLog";
import type { Logger } from "../ports";
import type { CheckpointChange, CheckpointResult, RestoreResult } from "./ShadowCheckpoints";

/** What a task needs of the checkpoint store (ShadowCheckpoints, or a host's wrapper that reads its settings). */
export interface CheckpointStore {
  save(taskId: string, message: string): Promise<CheckpointResult>;
  restore(taskId: string, commit: string): Promise<RestoreResult>;
  diffSince(commit: string): Promise<string>;
  changedSince(commit: string): Promise<CheckpointChange[]>;
  fileAt(commit: string, path: string): Promise<string | undefined>;
  cleanup?(maxBytes: number, keep: readonly string[]): Promise<string[]>;
}

export interface TaskCheckpointsOptions {
  store: CheckpointStore;
  /** The cap on the whole store: after a task's first checkpoint, older tasks' checkpoints go until it fits. */
  maxTotalBytes?(): number;
  logger?: Logger;
}

/** Shared by a task and its subtasks: one id, one set of notes already shown. */
interface Shared {
  taskId: string;
  noted: Set<string>;
  cleaned: boolean;
}

const MAX_NAMED = 5;

/**
 * A task's checkpoints: taken before each edit (see beforeEdits), shown in the chat, and restored
 * by the host. A checkpoint that cannot be taken never holds the edit up.
 */
export class TaskCheckpoints {
  private constructor(
    private readonly options: TaskCheckpointsOptions,
    private readonly shared: Shared,
    /** A subtask's checkpoints restore files only: their conversation is not the chat's. */
    readonly rewindable: boolean,
  ) {}

  static create(options: TaskCheckpointsOptions): TaskCheckpoints {
    // Until the task has its history id (useTaskId), an id of its own keeps its commits apart.
    return new TaskCheckpoints(options, { taskId: randomBytes(8).toString("hex"), noted: new Set(), cleaned: false }, true);
  }

  get taskId(): string {
    return this.shared.taskId;
  }

  /** The task's id in history, so a task reopened from history goes on with its own checkpoints. */
  useTaskId(id: string): void {
    this.shared.taskId = id;
  }

  forSubtask(): TaskCheckpoints {
    return new TaskCheckpoints(this.options, this.shared, false);
  }

  restore(commit: string): Promise<RestoreResult> {
    return this.options.store.restore(this.shared.taskId, commit);
  }

  diffSince(commit: string): Promise<string> {
    return this.options.store.diffSince(commit);
  }

  changedSince(commit: string): Promise<CheckpointChange[]> {
    return this.options.store.changedSince(commit);
  }

  fileAt(commit: string, path: string): Promise<string | undefined> {
    return this.options.store.fileAt(commit, path);
  }

  /**
   * What the pipeline calls before an approved edit writes, for one reply: every edit takes a
   * checkpoint and shows it in `log`, in order. Only the reply's first one can also rewind the
   * task, since the conversation can only go back to before a whole reply (`apiIndex`: its length now).
   */
  beforeEdits(log: Pick<ChatLog, "append" | "newId">, apiIndex: number): (tool: string, paths: readonly string[]) => Promise<void> {
    let chain: Promise<void> = Promise.resolve();
    let first = true;
    return (tool, paths) => {
      const rewindTo = first ? apiIndex : undefined;
      first = false;
      chain = chain.then(() => this.take(`Before ${[tool, ...paths].join(" ")}`, log, rewindTo));
      return chain;
    };
  }

  private async take(message: string, log: Pick<ChatLog, "append" | "newId">, apiIndex: number | undefined): Promise<void> {
    let result: CheckpointResult;
    try {
      result = await this.options.store.save(this.shared.taskId, message);
    } catch (err) {
      result = { kind: "skipped", reason: err instanceof Error ? err.message : String(err) };
    }
    if (result.kind === "skipped") {
      this.options.logger?.warn(`no checkpoint before an edit: ${result.reason}`);
      // Once per reason and task: the same note before every edit would bury the chat.
      if (this.shared.noted.has(result.reason)) return;
      this.shared.noted.add(result.reason);
      log.append({ id: log.newId(), role: "checkpoint", message, note: `No checkpoint: ${result.reason}. Edits go ahead without one.` });
      return;
    }
    const large = result.kind === "saved" ? result.skippedLarge : [];
    const named = large.slice(0, MAX_NAMED).join(", ") + (large.length > MAX_NAMED ? ` and ${large.length - MAX_NAMED} more` : "");
    log.append({
      id: log.newId(),
      role: "checkpoint",
      message,
      commit: result.commit,
      ...(this.rewindable && apiIndex !== undefined ? { apiIndex } : {}),
      ...(large.length > 0 ? { note: `Left out, over the size cap: ${named}.` } : {}),
    });
    if (result.kind === "saved") this.cleanUpOnce();
  }

  /** After the task's first checkpoint, in the background: other tasks' checkpoints go until the store fits its cap. */
  private cleanUpOnce(): void {
    const { store, maxTotalBytes, logger } = this.options;
    if (this.shared.cleaned || !store.cleanup || !maxTotalBytes) return;
    this.shared.cleaned = true;
    store.cleanup(maxTotalBytes(), [this.shared.taskId]).then(
      (dropped) => {
        if (dropped.length > 0) logger?.info(`checkpoints: removed those of ${dropped.length} older task(s) to stay under the size cap`);
      },
      (err: unknown) => logger?.warn(`checkpoints: cleanup failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
}
