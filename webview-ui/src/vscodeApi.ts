import type { WebviewToHost } from "../../src/shared/protocol/messages";
import type { SettingsToHost } from "../../src/shared/protocol/settings";

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page (the chat and the settings page each bundle this
// module once); outside VS Code (a plain browser) it is absent.
const api: VsCodeApi = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: (m) => console.warn("no VS Code host", m) };

/** The settings page's messages (settings/api.ts); the chat page uses `send`. */
export function postToHost(message: SettingsToHost): void {
  api.postMessage(message);
}

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}
