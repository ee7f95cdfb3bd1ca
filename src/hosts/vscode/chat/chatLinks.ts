import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";

/** A link in model output the user clicked: web pages only, never file:, command: or vscode: URIs. */
export async function openChatLink(url: string, logger: Logger, chat: string): Promise<void> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https") {
    logger.warn(`${chat}: not opening a ${scheme ?? "relative"} link from the chat`);
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/**
 * The user clicked Run on the completion: their choice, made in a terminal of their own (not the
 * agent's, which may be busy) where they see it run.
 */
export function runInOwnTerminal(command: string): void {
  const terminal = vscode.window.createTerminal({ name: "Kiln", iconPath: new vscode.ThemeIcon("flame") });
  terminal.show();
  terminal.sendText(command);
}
