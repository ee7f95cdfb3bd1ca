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
  /** Which tool proposes it, for the review's title. */
  tool: string;
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
    }
  | { applied: false; feedback?: string };

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

export interface EditReview {
  apply(edit: ProposedEdit, decide: () => Promise<ApprovalDecision>): Promise<EditResult>;
  /** Shows a write while it streams; apply() of the same path then takes the preview over. */
  preview?(edit: EditPreview): void;
  /** The turn ended: previews that no apply() took over are closed. */
  endPreviews?(): Promise<void>;
}
