import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { buildWebviewHtml, makeNonce } from "./webviewHtml";

/** Points a webview at the built UI (dist/webview) with scripts enabled and nothing else. */
export function setUpWebview(webview: vscode.Webview, extensionUri: vscode.Uri): void {
  const root = vscode.Uri.joinPath(extensionUri, "dist", "webview");
  webview.options = { enableScripts: true, localResourceRoots: [root] };
  webview.html = buildWebviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, "main.js")).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, "main.css")).toString(),
    nonce: makeNonce((n) => randomBytes(n)),
    l10n: { language: vscode.env.language, bundle: vscode.l10n.bundle },
  });
}
