import * as l10n from "@vscode/l10n";
import type { RestoreResult } from "../../../core/checkpoints/ShadowCheckpoints";

/** What a restore did, in the user's language (pure, so it is tested without VS Code): each count with its own plural. */
export function restoreSummary(result: Pick<RestoreResult, "restored" | "removed">): string {
  const restored = result.restored.length;
  const removed = result.removed.length;
  if (restored === 0 && removed === 0) return l10n.t("The files already matched the checkpoint.");
  if (restored === 1) {
    return removed === 1 ? l10n.t("Restored 1 file and removed 1 file created since the checkpoint.") : l10n.t("Restored 1 file and removed {0} files created since the checkpoint.", removed);
  }
  return removed === 1
    ? l10n.t("Restored {0} files and removed 1 file created since the checkpoint.", restored)
    : l10n.t("Restored {0} files and removed {1} files created since the checkpoint.", restored, removed);
}

/** The diff editor's title for one file, the checkpoint (its short id) against now. */
export function checkpointDiffTitle(path: string, short: string): string {
  return l10n.t("{0} (checkpoint {1} ↔ now)", path, short);
}

/** The multi-file diff editor's title. */
export function checkpointChangesTitle(short: string): string {
  return l10n.t("Changes since checkpoint {0}", short);
}
