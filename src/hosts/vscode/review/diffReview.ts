import * as vscode from "vscode";
import { writeGuarded, type GuardedWrite } from "../../../core/files/guardedWrite";
import type { Logger } from "../../../core/ports";
import type { ApprovalDecision } from "../../../core/ports/approvals";
import type { EditPreview, EditResult, EditReview, ProposedEdit, ReviewShown } from "../../../core/ports/editReview";
import type { FileSystem } from "../../../core/ports/fileSystem";
import { encodeText, encodingId } from "../../../core/files/textEncoding";
import type { HunkReview } from "./hunkReview";
import { diagnosticsSettled, errorsOf, newErrors } from "./newProblems";
import type { OriginalDocuments, ProposalFileSystem } from "./proposalDocuments";
import { proposalDiffTitle } from "./reviewWords";
import { newReviewKey, reviewUris, StreamingDiffs } from "./streamingDiff";

const BOM = "\uFEFF";
/** Typing on the right side sends the card a new diff this often at most. */
const REVISE_MS = 150;
/** How long an editor may take to load a file written on disk before the diagnostics are read anyway. */
const RELOAD_MS = 3000;

/** The open document of a URI, if any (its text may differ from the disk: unsaved changes). */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

function tabsOf(uri: vscode.Uri): vscode.Tab[] {
  const key = uri.toString();
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key);
}

/** `text` as an editor holds it: an editor's text never has the BOM (it is applied on save). */
function editorText(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** Whether the file's open document, if any, holds `text`. */
function holds(uri: vscode.Uri, text: string): boolean {
  const doc = openDocument(uri);
  return !doc || doc.getText() === editorText(text);
}

function onlyInPreview(uri: vscode.Uri): boolean {
  const tabs = tabsOf(uri);
  return tabs.length > 0 && tabs.every((t) => t.isPreview);
}

/** Resolves true once `doc` holds `text` (an editor reloading a file written on disk), false after RELOAD_MS. */
function showsText(doc: vscode.TextDocument, text: string): Promise<boolean> {
  if (doc.getText() === text) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (shown: boolean) => {
      listener.dispose();
      clearTimeout(timer);
      resolve(shown);
    };
    const listener = vscode.workspace.onDidChangeTextDocument((event) => event.document === doc && doc.getText() === text && done(true));
    const timer = setTimeout(() => done(doc.getText() === text), RELOAD_MS);
  });
}

function inTab(uri: vscode.Uri): boolean {
  return tabsOf(uri).length > 0;
}

export interface DiffReviewOptions {
  originals: OriginalDocuments;
  proposals: ProposalFileSystem;
  fs: FileSystem;
  toUri(path: string): vscode.Uri;
  logger: Logger;
  /** How long to wait for the language tools after a save (kiln.diagnostics.delayMs); 0: no report. */
  diagnosticsDelay(): number;
  /** Off (kiln.edits.openDiffEditor): the card alone shows the diff, and the file is written without opening editors. */
  openDiffEditor(): boolean;
  /** Discard buttons on each change of the proposal; without it, the proposal is reviewed whole. */
  hunks?: HunkReview;
}

/**
 * Edits shown in VS Code's diff editor: the file as it was on the left (read-only), the proposal on
 * the right, where the user may change it before approving on the tool card. Approved, what the
 * right side holds is written; rejected, the tabs close and the file was never touched.
 */
export class DiffEditReview implements EditReview {
  private readonly streams: StreamingDiffs;

  constructor(private readonly o: DiffReviewOptions) {
    this.streams = new StreamingDiffs(
      o.originals,
      o.proposals,
      async (left, right, display, isNew) => void (await this.show(left, right, display, isNew)),
      (right) => this.close(right),
    );
  }

  preview(edit: EditPreview): void {
    if (this.o.openDiffEditor()) this.streams.update(edit);
  }

  endPreviews(): Promise<void> {
    return this.streams.end();
  }

  async apply(edit: ProposedEdit, decide: (shown?: ReviewShown) => Promise<ApprovalDecision>, revised?: (proposed: string) => void): Promise<EditResult> {
    if (edit.proposed === null) return this.deletion(edit, decide);
    if (!this.o.openDiffEditor()) return this.inBackground({ ...edit, proposed: edit.proposed }, decide);
    // The diff that showed the write while it streamed, or a new one (unique across chats and tasks).
    const key = this.streams.take(edit.path) ?? newReviewKey();
    const { left, right } = reviewUris(edit.path, key);
    this.o.originals.set(key, edit.original ?? "");
    this.o.proposals.put(right, edit.proposed);
    this.o.hunks?.begin(key, edit.original ?? "");
    const file = this.o.toUri(edit.path);
    const waitMs = this.o.diagnosticsDelay();
    try {
      // The errors the file has now are the baseline of the report after the save.
      const baseline = waitMs > 0 && edit.original !== undefined && !inTab(file) ? diagnosticsSettled(file, waitMs) : undefined;
      // Language tools check files that are in a tab (not the diff's virtual left side): the file
      // opens in a preview tab behind the diff, so its errors are known before the edit.
      if (baseline) await this.showQuietly(file);
      const inEditor = await this.show(left, right, edit.display, edit.original === undefined);
      // A change discarded or a line typed on the right: the card shows what is left.
      const watch = revised && inEditor ? this.watchProposal(right, edit.proposed, revised) : undefined;
      let decision: ApprovalDecision;
      try {
        decision = await decide({ inEditor });
      } finally {
        watch?.dispose();
      }
      const final = this.finalText(right, edit.proposed);
      const discarded = this.o.hunks?.end(key) ?? [];
      await this.close(right);
      if (!decision.approved) return { applied: false, feedback: decision.feedback };
      await baseline;
      const before = errorsOf(file);
      // A file in a preview tab is written on disk and its editor reloads it (write()): the
      // diagnostics of the text before the reload are not the edit's.
      const settled = waitMs > 0 ? diagnosticsSettled(file, waitMs, () => holds(file, final)) : undefined;
      const userEdited = final !== edit.proposed;
      const written = await this.writeChecked({ ...edit, userEdited }, final);
      if (!written.written) return { applied: false, notWritten: written.reason };
      const newProblems = settled ? await this.problemsAfter(file, before, settled) : [];
      return {
        applied: true,
        content: written.content,
        userEdited,
        ...(written.remadeFrom !== undefined && { remadeFrom: written.remadeFrom }),
        ...(discarded.length > 0 ? { discardedChanges: discarded } : {}),
        ...(newProblems.length > 0 ? { newProblems } : {}),
      };
    } finally {
      this.o.hunks?.end(key);
      this.o.originals.delete(key);
      this.o.proposals.remove(right);
    }
  }

  /** Calls `revised` with the right side's text after each change to it, at most every REVISE_MS. */
  private watchProposal(right: vscode.Uri, proposed: string, revised: (text: string) => void): vscode.Disposable {
    const key = right.toString();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listener = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() !== key || event.contentChanges.length === 0 || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        revised(this.finalText(right, proposed));
      }, REVISE_MS);
    });
    return {
      dispose: () => {
        listener.dispose();
        if (timer) clearTimeout(timer);
      },
    };
  }

  /** Opens the diff editor; false when it could not (the card alone shows the diff then). */
  private async show(left: vscode.Uri, right: vscode.Uri, display: string, isNew: boolean): Promise<boolean> {
    const title = proposalDiffTitle(display, isNew);
    // The proposal is held as UTF-8 whatever the file's encoding (that is applied on save): a
    // files.encoding setting must not make the editor read it as another.
    await vscode.workspace
      .openTextDocument(right, { encoding: "utf8" })
      .then(undefined, (err: unknown) => this.o.logger.warn(`could not open the proposal for ${display} as UTF-8: ${err instanceof Error ? err.message : String(err)}`));
    try {
      // The user may be typing in the chat: the diff opens beside, without taking the keyboard.
      await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: false, preserveFocus: true });
      return true;
    } catch (err) {
      // The card still shows the diff, so the review goes on without the editor.
      this.o.logger.warn(`could not open the diff editor for ${display}: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  /** The right side as the user left it: unsaved changes in its editor, or what they saved there. */
  private finalText(right: vscode.Uri, proposed: string): string {
    const doc = openDocument(right);
    let text = doc?.isDirty ? doc.getText() : new TextDecoder("utf-8", { ignoreBOM: true }).decode(this.o.proposals.readFile(right));
    // An editor's text never holds the BOM; the file keeps the one it had.
    if (proposed.startsWith(BOM) && !text.startsWith(BOM)) text = BOM + text;
    return text;
  }

  private async close(right: vscode.Uri): Promise<void> {
    const doc = openDocument(right);
    // Saved into memory first, so closing the tab does not ask whether to save the user's changes.
    if (doc?.isDirty) await doc.save();
    const key = right.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  /**
   * An editor that holds the file in the encoding the edit was read in gets the new text and saves
   * it, so it neither goes stale nor conflicts with the disk; otherwise the file is written
   * atomically, in that encoding (an editor without unsaved changes then shows the new file).
   * A file shown only in preview tabs (the review opens it in one for its diagnostics) is written
   * on disk too: an edit through its editor would pin the tab, and every edited file would stay
   * open in a tab of its own.
   */
  private async write(path: string, text: string, encoding: string): Promise<void> {
    const uri = this.o.toUri(path);
    const doc = openDocument(uri);
    if (!doc || encodingId(doc.encoding) !== encodingId(encoding)) return this.o.fs.writeFile(path, encodeText(text, encoding));
    if (!doc.isDirty && onlyInPreview(uri)) {
      const shown = showsText(doc, editorText(text));
      await this.o.fs.writeFile(path, encodeText(text, encoding));
      // The diagnostics after the save are of the new text: wait for the editor to load it.
      if (!(await shown)) this.o.logger.warn(`the editor of ${path} did not load the saved edit within ${RELOAD_MS / 1000} s`);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), editorText(text));
    if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) throw new Error(`could not save ${path} in its editor`);
  }

  /** In a preview tab, keyboard focus staying where the user is typing. */
  private async showQuietly(file: vscode.Uri): Promise<void> {
    try {
      await vscode.window.showTextDocument(file, { preview: true, preserveFocus: true });
    } catch (err) {
      this.o.logger.warn(`could not show ${file.toString()} for its diagnostics: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async problemsAfter(file: vscode.Uri, before: vscode.Diagnostic[], settled: Promise<void>): Promise<string[]> {
    // Language tools check the files on screen: the saved file is shown.
    await this.showQuietly(file);
    await settled;
    return newErrors(file, before);
  }

  /** Background editing: decided on the card, written at once; errors reported only for files already in a tab. */
  private async inBackground(edit: ProposedEdit & { proposed: string }, decide: () => Promise<ApprovalDecision>): Promise<EditResult> {
    const decision = await decide();
    if (!decision.approved) return { applied: false, feedback: decision.feedback };
    const file = this.o.toUri(edit.path);
    const waitMs = inTab(file) ? this.o.diagnosticsDelay() : 0;
    const before = errorsOf(file);
    const settled = waitMs > 0 ? diagnosticsSettled(file, waitMs) : undefined;
    const written = await this.writeChecked(edit, edit.proposed);
    if (!written.written) return { applied: false, notWritten: written.reason };
    const newProblems = settled ? await settled.then(() => newErrors(file, before)) : [];
    return {
      applied: true,
      content: written.content,
      userEdited: false,
      ...(written.remadeFrom !== undefined && { remadeFrom: written.remadeFrom }),
      ...(newProblems.length > 0 ? { newProblems } : {}),
    };
  }

  private async deletion(edit: ProposedEdit, decide: () => Promise<ApprovalDecision>): Promise<EditResult> {
    const decision = await decide();
    if (!decision.approved) return { applied: false, feedback: decision.feedback };
    const written = await this.writeChecked(edit, null);
    if (!written.written) return { applied: false, notWritten: written.reason };
    return { applied: true, content: null, userEdited: false };
  }

  /**
   * Written only over what the edit was made from: the user may have typed in the file's editor, or
   * another task saved it, while the review waited (see writeGuarded).
   */
  private writeChecked(edit: ProposedEdit & { userEdited?: boolean }, content: string | null): Promise<GuardedWrite> {
    return writeGuarded(this.o.fs, edit, content, (text) => (text === null ? this.o.fs.delete(edit.path) : this.write(edit.path, text, edit.encoding)));
  }
}
