import * as vscode from "vscode";
import type { ChatSession } from "./ChatSession";
import { setUpWebview } from "./webviewSetup";

export const CHAT_VIEW_ID = "kiln.chatView";

export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private readonly resolvedEmitter = new vscode.EventEmitter<vscode.WebviewView>();
  readonly onDidResolve = this.resolvedEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly session: ChatSession,
  ) {}

  get resolved(): vscode.WebviewView | undefined {
    return this.view;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    setUpWebview(view.webview, this.extensionUri);
    const attachment = this.session.attach(view.webview);
    view.onDidDispose(() => {
      attachment.dispose();
      if (this.view === view) this.view = undefined;
    });
    this.resolvedEmitter.fire(view);
  }

  dispose(): void {
    this.resolvedEmitter.dispose();
  }
}
