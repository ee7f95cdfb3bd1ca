import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { InputQueue } from "../../../core/agent/inputQueue";
import type { Logger } from "../../../core/ports";
import type { AttachedImage, HostToWebview } from "../../../shared/protocol/messages";

/** A message sent while the task was busy. */
interface Queued {
  text: string;
  images: AttachedImage[];
}

export interface ChatQueueDeps {
  name: string;
  logger: Logger;
  post(message: HostToWebview): void;
  /** Whether the task takes a message now (idle, or its subtask waits for an answer). */
  canSend(): boolean;
  send(text: string, images?: AttachedImage[]): Promise<void>;
}

/**
 * The chat's side of the input queue: a message sent while the task is busy waits here, shows
 * above the input, and goes to the task when it can take it. A Stop pauses what is waiting.
 */
export class ChatQueue {
  private readonly queue = new InputQueue<Queued>();

  constructor(private readonly deps: ChatQueueDeps) {}

  /** chat/send: to the task now, or into the queue while it is busy. */
  async submit(text: string, images: AttachedImage[] = []): Promise<void> {
    if (this.deps.canSend()) return this.deps.send(text, images);
    if (!this.queue.add({ text, images })) void vscode.window.showWarningMessage(l10n.t("Kiln: too many queued messages; wait for the task, or remove some."));
    this.show();
  }

  /** chat/unqueue: the user removes a waiting message, or sends it now (only when the task can take it). */
  async unqueue(index: number, send: boolean): Promise<void> {
    if (send && !this.deps.canSend()) return;
    const queued = this.queue.take(index);
    this.show();
    if (queued !== undefined && send) await this.deps.send(queued.text, queued.images);
  }

  /** The user stopped the task: nothing waiting starts it again on its own. */
  pause(): void {
    this.queue.pause();
    this.show();
  }

  /** A new task: what waited was for the old one. */
  clear(): void {
    this.queue.clear();
  }

  /** The task may be free: the next message goes once this event has been posted. */
  drain(): void {
    if (!this.deps.canSend() || this.queue.messages.length === 0 || this.queue.isPaused) return;
    queueMicrotask(() => {
      if (!this.deps.canSend()) return;
      const queued = this.queue.next();
      if (queued === undefined) return;
      this.show();
      this.deps.send(queued.text, queued.images).catch((err: unknown) => this.deps.logger.error(`${this.deps.name}: queued message failed: ${err instanceof Error ? err.message : String(err)}`));
    });
  }

  /** What the page shows above the input. */
  show(): void {
    const shown = this.queue.messages.map((m) => (m.images.length > 0 ? `${m.text} (+${m.images.length} image${m.images.length === 1 ? "" : "s"})`.trim() : m.text));
    this.deps.post({ type: "chat/queue", messages: shown, paused: this.queue.isPaused });
  }
}
