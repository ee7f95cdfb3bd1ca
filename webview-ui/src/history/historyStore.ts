import type { HistoryViewState, HostToHistoryView } from "../../../src/shared/protocol/history";

/** The history view's part of the chat page: what the host last sent. */
export class HistoryStore {
  private state: HistoryViewState | undefined;
  private readonly listeners = new Set<() => void>();
  /** Called when the host asks the page to show the history view. */
  onShow: () => void = () => {};

  get = (): HistoryViewState | undefined => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  apply(message: HostToHistoryView): void {
    if (message.type === "history/show") {
      this.onShow();
      return;
    }
    this.state = message.state;
    for (const listener of [...this.listeners]) listener();
  }
}
