import * as l10n from "@vscode/l10n";

/**
 * Why Kiln cannot work in the window's folder, or undefined when it can. The core runs on Node and
 * reaches the workspace through Node's file system (docs/architecture.md), which a virtual
 * workspace (`vscode-vfs:`, a GitHub repository opened in the browser) is not on: neither are
 * ripgrep, git or a terminal. Remote-SSH, WSL and containers are `file:` folders on their side.
 */
export function folderProblem(folder: { scheme: string; toString(): string }): string | undefined {
  if (folder.scheme === "file") return undefined;
  return l10n.t(
    "This folder ({0}) is not on a file system Kiln can reach, so the chat answers without tools: Kiln reads, edits and runs commands only in folders on disk (local, Remote-SSH, WSL or a container). Clone or open the folder from disk to work on it.",
    folder.toString(),
  );
}
