import * as l10n from "@vscode/l10n";
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { SettingsController } from "./settingsController";
import type { SettingsSection } from "../../../shared/protocol/settings";
import { buildWebviewHtml, makeNonce } from "../chat/webviewHtml";

export const SETTINGS_PANEL_ID = "kiln.settings";

/**
 * "Kiln: Open Settings": one editor tab running the settings page, a bundle of its own
 * (dist/webview/settings, built from webview-ui/src/settings) under the chat's strict CSP.
 */
export class SettingsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: SettingsController,
  ) {}

  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Opens (or brings forward) the page; `section`: scrolled to. */
  open(section?: SettingsSection): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      if (section) this.controller.reveal(section, true);
      return this.panel;
    }
    if (section) this.controller.reveal(section, false);
    const root = vscode.Uri.joinPath(this.extensionUri, "dist", "webview", "settings");
    const panel = vscode.window.createWebviewPanel(SETTINGS_PANEL_ID, l10n.t("Kiln Settings"), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [root],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "assets", "kiln.svg");
    panel.webview.html = buildWebviewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, "settings.js")).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, "settings.css")).toString(),
      nonce: makeNonce((n) => randomBytes(n)),
      l10n: { language: vscode.env.language, bundle: vscode.l10n.bundle },
    });
    const attachment = this.controller.attach(panel.webview);
    panel.onDidDispose(() => {
      attachment.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
