import * as l10n from "@vscode/l10n";
import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import { TERMINAL_NAME } from "../terminal/vscodeTerminal";

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

/** Show terminal on a command's card: the Kiln terminal in front (Kiln shows the one it runs a command in), else the newest. */
export function showCommandTerminal(): void {
  const active = vscode.window.activeTerminal;
  const terminal = active?.name === TERMINAL_NAME ? active : vscode.window.terminals.filter((t) => t.name === TERMINAL_NAME).at(-1);
  terminal?.show(false);
}

/**
 * A path on a tool card the user clicked: a file opens in a preview tab at the line, a folder is
 * shown in the Explorer. Only what is in the workspace, by where it really is (a link out of it does
 * not count), whatever the path's spelling.
 */
export async function openChatFile(path: string, line: number | undefined, logger: Logger, chat: string): Promise<void> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (root?.scheme !== "file") return;
  const inside = async (): Promise<string | undefined> => {
    const wanted = resolve(root.fsPath, path);
    const [realRoot, real] = await Promise.all([realpath(root.fsPath), realpath(wanted).catch(() => undefined)]);
    if (real === undefined) return undefined;
    const rel = relative(realRoot, real);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel)) ? real : "";
  };
  const real = await inside();
  if (real === undefined) {
    void vscode.window.showInformationMessage(l10n.t("{0} does not exist (yet).", path));
    return;
  }
  if (real === "") {
    logger.warn(`${chat}: not opening ${path} from the chat: it is outside the workspace`);
    void vscode.window.showWarningMessage(l10n.t("Kiln opens files in the workspace only; {0} is outside it.", path));
    return;
  }
  const uri = vscode.Uri.file(real);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) {
    await vscode.commands.executeCommand("revealInExplorer", uri);
    return;
  }
  const at = line === undefined ? undefined : new vscode.Position(line - 1, 0);
  await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: false, ...(at && { selection: new vscode.Range(at, at) }) });
}
