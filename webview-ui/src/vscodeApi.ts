import type { WebviewToHost } from "../../src/shared/protocol/messages";

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page; outside VS Code (a plain browser) it is absent.
const api: VsCodeApi =
  typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: (m) => console.warn("no VS Code host", m) };

export function send(message: WebviewToHost): void {
  api.postMessage(message);
}
