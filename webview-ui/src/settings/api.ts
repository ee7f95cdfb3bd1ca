import type { SettingsToHost } from "../../../src/shared/protocol/settings";
import { postToHost } from "../vscodeApi";

export function send(message: SettingsToHost): void {
  postToHost(message);
}

let counter = 0;

/** Ids that pair a request with its settings/result answer. */
export function requestId(): string {
  return `r${++counter}`;
}
