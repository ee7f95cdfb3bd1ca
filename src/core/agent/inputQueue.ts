/**
 * Messages the user sent while the task could not take them (a reply streaming, a card waiting).
 * They go to the task in order once it can. A cancel pauses the queue: the user stopped the task,
 * so nothing queued should start it again on its own; they send or remove each message themselves.
 */
export class InputQueue<T = string> {
  private items: T[] = [];
  private paused = false;

  constructor(private readonly max = 20) {}

  get messages(): readonly T[] {
    return this.items;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** False when the queue is full: the caller tells the user, and the text stays in their input. */
  add(item: T): boolean {
    if (this.items.length >= this.max) return false;
    this.items = [...this.items, item];
    return true;
  }

  /** Takes one message out (the user removed it, or sends it now). */
  take(index: number): T | undefined {
    const item = this.items[index];
    if (item !== undefined) this.items = this.items.filter((_, i) => i !== index);
    if (this.items.length === 0) this.paused = false;
    return item;
  }

  /** The next message to send on its own, unless a cancel paused the queue. */
  next(): T | undefined {
    return this.paused ? undefined : this.take(0);
  }

  pause(): void {
    if (this.items.length > 0) this.paused = true;
  }

  clear(): void {
    this.items = [];
    this.paused = false;
  }
}
