import type { HostToSettings, SettingsState } from "../../../src/shared/protocol/settings";

export interface Result {
  ok: boolean;
  message: string;
  field?: string;
}

export interface SettingsView {
  state: SettingsState | undefined;
  /** Answers by request id: a form shows the one for its own request. */
  results: ReadonlyMap<string, Result>;
  /** The latest answer, for the status line. */
  last: Result | undefined;
}

/** The settings page's state: what the host last sent. Small, so replaced whole on each message. */
export class SettingsModel {
  private view: SettingsView = { state: undefined, results: new Map(), last: undefined };
  private readonly listeners = new Set<() => void>();

  get = (): SettingsView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  apply(data: unknown): void {
    if (typeof data !== "object" || data === null) return;
    const message = data as HostToSettings;
    if (message.type === "settings/state") {
      this.view = { ...this.view, state: message.state };
    } else if (message.type === "settings/result") {
      const result: Result = { ok: message.ok, message: message.message, ...(message.field ? { field: message.field } : {}) };
      const results = new Map(this.view.results);
      results.set(message.requestId, result);
      this.view = { ...this.view, results, last: result };
    } else {
      return;
    }
    for (const listener of [...this.listeners]) listener();
  }
}
