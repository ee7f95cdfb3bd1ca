import type { WriteGuard } from "../files/guardedWrite";
import type { ApprovalDecision } from "./approvals";

export interface ProposedEdit {
  /** Absolute path. */
  path: string;
  /** As the user and the model see it: relative to the workspace when inside it. */
  display: string;
  /** The file as it is; undefined when it does not exist yet. */
  original: string | undefined;
  /** The whole new content; null deletes the file. */
  proposed: string | null;
  /**
   * The file's encoding (as core/files/textEncoding names it): what is saved is written in it, so
   * the bytes the edit did not touch stay as they were. A new file is UTF-8.
   */
  encoding: string;
  /** Which tool proposes it, for the review's title. */
  tool: string;
  /** Checks at write time that the file is still what the edit was made from (see writeGuarded). */
  guard?: WriteGuard;
}

export type EditResult =
  /** content: what was saved (the user may have changed the proposal before approving). */
  | {
      applied: true;
      content: string | null;
      userEdited: boolean;
      /** Errors the editor's language tools found after the save that were not there before ("line:col message"). */
      newProblems?: string[];
      /** Changes of the proposal the user discarded one by one before approving (where and what). */
      discardedChanges?: string[];
      /** The file had changed after the edit was made (see writeGuarded): the text the edit was made again on. */
      remadeFrom?: string;
    }
  /** notWritten: approved, but the file had changed meanwhile and the edit could not be made again (why). */
  | { applied: false; feedback?: string; notWritten?: string };

/**
 * Where every write of the edit tools goes. The VS Code host shows the edit in the diff editor while
 * `decide` settles it (auto-approval or the user); the CLI writes straight to disk. A rejected or
 * failed edit leaves the file exactly as it was.
 */
/** A write still streaming from the model: the file as it is, and the content so far. */
export interface EditPreview {
  path: string;
  display: string;
  original: string | undefined;
  content: string;
}

/** How the review shows the edit while the decision is pending. */
export interface ReviewShown {
  /** In the editor's diff view (VS Code), not only on the card. */
  inEditor: boolean;
}

export interface EditReview {
  /**
   * Shows the edit and settles it through `decide`. `revised`: the user changed the proposal while
   * deciding (a change discarded, a line typed); the whole new text, so the card can show what is left.
   */
  apply(edit: ProposedEdit, decide: (shown?: ReviewShown) => Promise<ApprovalDecision>, revised?: (proposed: string) => void): Promise<EditResult>;
  /** Shows a write while it streams; apply() of the same path then takes the preview over. */
  preview?(edit: EditPreview): void;
  /** The turn ended: previews that no apply() took over are closed. */
  endPreviews?(): Promise<void>;
}
