import { RequestError, type Done, type ParamsOf } from "../../../src/shared/protocol/requests";
import type { HostToSettings, SettingsMethod, SettingsRequests, SettingsSection, SettingsState } from "../../../src/shared/protocol/settings";
import { settingsRequester } from "./api";

export interface Result {
  ok: boolean;
  message: string;
  field?: string;
}

/** Sends one of the page's requests; resolves with the host's answer (never rejects). */
export type SettingsAsk = <K extends SettingsMethod>(method: K, params: ParamsOf<SettingsRequests, K>) => Promise<Result>;

export interface SettingsView {
  state: SettingsState | undefined;
  /** The latest answer, for the status line. */
  last: Result | undefined;
  /** The host's latest "show this section"; a new id each time, so a repeat scrolls again. */
  reveal?: { section: SettingsSection; id: number };
}

/** The settings page's state: what the host last sent. Small, so replaced whole on each message. */
export class SettingsModel {
  private view: SettingsView = { state: undefined, last: undefined };
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
    } else if (message.type === "settings/reveal") {
      this.view = { ...this.view, reveal: { section: message.section, id: (this.view.reveal?.id ?? 0) + 1 } };
    } else {
      // Responses are the requester's (api.ts).
      return;
    }
    this.changed();
  }

  /** A form or control shows the answer to its own request; the status line shows the latest. */
  ask: SettingsAsk = async (method, params) => {
    let result: Result;
    try {
      result = { ok: true, message: ((await settingsRequester.request(method, params)) as Done).message };
    } catch (err) {
      const field = err instanceof RequestError ? err.field : undefined;
      result = { ok: false, message: err instanceof Error ? err.message : String(err), ...(field ? { field } : {}) };
    }
    this.view = { ...this.view, last: result };
    this.changed();
    return result;
  };

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
