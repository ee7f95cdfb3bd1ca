/**
 * The webview's one boundary: VS Code's `acquireVsCodeApi`. Imported before any component (the
 * webview asks for the API when its module loads); everything the UI posts to the host lands in
 * `posted`.
 */
export const posted: unknown[] = [];

Object.assign(globalThis, { acquireVsCodeApi: () => ({ postMessage: (message: unknown) => posted.push(message) }) });
