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
 * (completed, waiting, failed), so a crash loses at most the last fraction of a second. Saves
 * never overlap; a failure is logged and the next change tries again.
 */
export class TaskRecorder implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly subscription: Disposable;
  private dirty = false;

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

  /** Saves now if anything changed; resolves when the save (and any before it) is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return this.saving;
    this.dirty = false;
    const snapshot = this.task.saved();
    // Nothing to keep until the user has said something.
    if (!snapshot || snapshot.ui.length === 0) return this.saving;
    this.saving = this.saving.then(() =>
      this.store.save(snapshot).catch((err: unknown) => {
        this.dirty = true;
        this.logger.error(`task history: saving ${snapshot.entry.id} failed: ${err instanceof Error ? err.message : String(err)}`);
      }),
    );
    return this.saving;
  }

  dispose(): void {
    this.subscription.dispose();
    void this.flush();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
    this.timer.unref?.();
  }
}
