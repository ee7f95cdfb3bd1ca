/**
 * Passes on the latest of many reports at most once per interval: the first at once, the last one
 * for sure (after the interval), those between dropped. A server may send hundreds of progress
 * notifications, and each shown one is a message to the chat.
 */
export class ProgressThrottle {
  private pending: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly show: (text: string) => void,
  ) {}

  readonly push = (text: string): void => {
    if (this.stopped) return;
    if (this.timer) {
      this.pending = text;
      return;
    }
    this.show(text);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const next = this.pending;
      this.pending = undefined;
      if (next !== undefined) this.push(next);
    }, this.intervalMs);
    this.timer.unref?.();
  };

  /** The call ended: nothing more is shown. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
