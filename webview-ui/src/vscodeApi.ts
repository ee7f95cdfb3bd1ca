import type { WebviewToHost } from "../../src/shared/protocol/messages";

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page (the chat and the settings page each bundle this
// module once); outside VS Code (a plain browser) it is absent.
const api: VsCodeApi =
  typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: (m) => console.warn("no VS Code host", m) };

/** For pages with a protocol of their own; the chat page uses `send`. */
export function postToHost(message: unknown): void {
  api.postMessage(message);
}

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}
