import type { Disposable, Event } from "../../shared/disposable";
import type { Logger } from "../ports";
import type { HistoryStore } from "./HistoryStore";
import type { SavedTask } from "./types";

/** What the recorder needs of a task: its changes, and all of it as it is now (undefined: not kept in history). */
export interface Recordable {
  onDidChange: Event<{ type: string; status?: string }>;
  saved(): SavedTask | undefined;
}

/** Streamed tokens change the chat many times a second; saving waits for a pause this long. */
const SAVE_DELAY_MS = 400;

/**
 * Saves a task to history as it runs: shortly after each change, and at once when it stops
 * (completed, waiting, failed), so a crash loses at most the last fraction of a second. One save at
 * a time, of the task as it is when that save starts: flushes that come while a save runs are
 * folded into one more save after it, so a big task that takes long to save never queues up copies
 * of itself. Between saves the recorder waits at least twice as long as the last save took. A
 * failure is logged and the next change tries again.
 */
export class TaskRecorder implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The saves in progress, until none is asked for any more. */
  private saving: Promise<void> | undefined;
  private readonly subscription: Disposable;
  /** The task changed since the last snapshot was taken. */
  private dirty = false;
  /** A flush was asked for since the current save took its snapshot. */
  private requested = false;
  private delayMs = SAVE_DELAY_MS;

  constructor(
    private readonly task: Recordable,
    private readonly store: HistoryStore,
    private readonly logger: Logger,
  ) {
    this.subscription = task.onDidChange((event) => {
      this.dirty = true;
      if (event.type === "status" && event.status !== "running") void this.flush();
      else this.schedule();
    });
  }

  /** Saves now if anything changed; resolves when the task as it is now is saved (or failed to be). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.requested = true;
    this.saving ??= this.saveWhileAsked().finally(() => (this.saving = undefined));
    return this.saving;
  }

  dispose(): void {
    this.subscription.dispose();
    void this.flush();
  }

  private async saveWhileAsked(): Promise<void> {
    while (this.requested) {
      this.requested = false;
      if (!this.dirty) continue;
      this.dirty = false;
      const snapshot = this.task.saved();
      // Nothing to keep until the user has said something.
      if (!snapshot || !snapshot.ui.some((item) => item.role === "user")) continue;
      const started = performance.now();
      try {
        await this.store.save(snapshot);
      } catch (err) {
        this.dirty = true;
        this.logger.error(`task history: saving ${snapshot.entry.id} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      this.delayMs = Math.max(SAVE_DELAY_MS, 2 * (performance.now() - started));
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref?.();
  }
}
