import * as l10n from "@vscode/l10n";
import type { ChangedFile } from "../../../core/edit/taskChanges";

/**
 * The review's words in editor titles and pickers, in the user's language: pure, so they are
 * tested without VS Code. Each title is one whole message, the file's name in its slot.
 */

/** What happened to a file in the task, as the picker's description says it. */
export function changeKindText(kind: ChangedFile["kind"]): string {
  switch (kind) {
    case "created":
      return l10n.t("new file");
    case "modified":
      return l10n.t("modified");
    case "deleted":
      return l10n.t("deleted");
  }
}

/** The diff editor's title for a file the task changed, before the task against now. */
export function taskDiffTitle(display: string, kind: ChangedFile["kind"]): string {
  switch (kind) {
    case "created":
      return l10n.t("{0}: before the task ↔ now (new file)", display);
    case "modified":
      return l10n.t("{0}: before the task ↔ now (modified)", display);
    case "deleted":
      return l10n.t("{0}: before the task ↔ now (deleted)", display);
  }
}

/** The title of the picker of the files the task changed. */
export function changedFilesTitle(count: number): string {
  return count === 1 ? l10n.t("Files this task changed (1)") : l10n.t("Files this task changed ({0})", count);
}

/** The diff editor's title for a proposed edit, the file as it is (or nothing, for a new one) against the proposal. */
export function proposalDiffTitle(display: string, isNew: boolean): string {
  return isNew ? l10n.t("{0}: new file ↔ Kiln's proposal", display) : l10n.t("{0}: original ↔ Kiln's proposal", display);
}

/** The CodeLens over one change of a proposal under review. */
export function changeLensTitle(index: number, count: number): string {
  return l10n.t("Change {0} of {1}", index + 1, count);
}
