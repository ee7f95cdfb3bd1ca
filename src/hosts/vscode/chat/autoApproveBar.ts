import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import type { AutoApproveBarState } from "../../../shared/protocol/autoApproveBar";
import type { WebviewToHost } from "../../../shared/protocol/messages";
import { affectsAutoApprove, applyApproveChanges, readApproveView } from "../settings/autoApproveEdits";

type SetAutoApprove = Extract<WebviewToHost, { type: "chat/setAutoApprove" }>;

/** The switch and categories as the agent reads them now. */
export function autoApproveBarState(): AutoApproveBarState {
  const { enabled, words } = readApproveView();
  return { enabled, words };
}

/** Calls `show` with the new state whenever the auto-approve settings change (here, in settings.json, in another chat). */
export function watchAutoApprove(show: (state: AutoApproveBarState) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (affectsAutoApprove(event)) show(autoApproveBarState());
  });
}

/** A change made on the bar: written to the settings where they are set; the watch then shows it. */
export async function setFromBar(message: SetAutoApprove, logger: Logger): Promise<void> {
  const { type: _type, ...changes } = message;
  const outcome = await applyApproveChanges(changes);
  if (outcome.ok) return logger.info(`auto-approve bar: ${outcome.message}`);
  logger.warn(`auto-approve bar: ${outcome.message}`);
  void vscode.window.showErrorMessage(l10n.t("Kiln: {0}", outcome.message));
}
