import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { boundedStructuredPatch } from "../../../core/diff/unifiedDiff";
import { changeLensTitle } from "./reviewWords";
import { PROPOSED_SCHEME } from "./proposalDocuments";

interface Hunk {
  /** 0-based line of the proposal where the change starts, and how many of its lines it covers. */
  at: number;
  count: number;
  /** The original's lines the change replaced. */
  before: string[];
  summary: string;
}

/** Lines without their ends; a final line end adds no empty line. */
function linesOf(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The changes between the original and the proposal as it is now, one per run of changed lines. */
function hunksOf(original: string, proposal: string): Hunk[] {
  const before = linesOf(original);
  const after = linesOf(proposal);
  // Bounded: this runs whenever the proposal changes, and jsdiff alone is quadratic on a whole-file rewrite.
  const patch = boundedStructuredPatch("", "", `${before.join("\n")}\n`, `${after.join("\n")}\n`, "", "", 0);
  return patch.hunks.map((h) => {
    const removed = h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1));
    const added = h.lines.filter((l) => l.startsWith("+")).length;
    const where = h.newLines > 0 ? `line${h.newLines > 1 ? `s ${h.newStart}-${h.newStart + h.newLines - 1}` : ` ${h.newStart}`}` : `before line ${h.newStart}`;
    const what = [removed.length ? `${removed.length} removed` : "", added ? `${added} added` : ""].filter(Boolean).join(", ");
    return { at: h.newStart - 1, count: h.newLines, before: removed, summary: `${where} of the proposal (${what})` };
  });
}

/**
 * Per-hunk review in the diff editor: each change of the proposal gets a "Discard" CodeLens that
 * puts the original lines back. What stays when the user approves is what is saved; the model is
 * told which changes were discarded.
 */
export class HunkReview implements vscode.CodeLensProvider {
  private readonly reviews = new Map<string, { original: string; discarded: string[] }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      this.changed,
      vscode.languages.registerCodeLensProvider({ scheme: PROPOSED_SCHEME }, this),
      vscode.commands.registerCommand("kiln.discardHunk", (uri: unknown, index: unknown) => this.discard(String(uri), Number(index))),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PROPOSED_SCHEME) this.changed.fire();
      }),
    );
  }

  begin(key: string, original: string): void {
    this.reviews.set(key, { original, discarded: [] });
  }

  /** Ends a review; returns the changes the user discarded. */
  end(key: string): string[] {
    const discarded = this.reviews.get(key)?.discarded ?? [];
    this.reviews.delete(key);
    return discarded;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.reviews.get(doc.uri.query);
    if (!review) return [];
    const hunks = hunksOf(review.original, doc.getText());
    return hunks.flatMap((hunk, index) => {
      const line = Math.min(hunk.at, Math.max(0, doc.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      return [
        new vscode.CodeLens(range, { title: changeLensTitle(index, hunks.length), command: "" }),
        new vscode.CodeLens(range, { title: `$(discard) ${l10n.t("Discard this change")}`, command: "kiln.discardHunk", arguments: [doc.uri.toString(), index] }),
      ];
    });
  }

  /** Puts one change's original lines back into the proposal. */
  async discard(uri: string, index: number): Promise<boolean> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    const review = doc && this.reviews.get(doc.uri.query);
    if (!doc || !review) return false;
    const hunk = hunksOf(review.original, doc.getText())[index];
    if (!hunk) return false;
    const eol = doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    const text = doc.getText();
    const lines = linesOf(text);
    lines.splice(hunk.at, hunk.count, ...hunk.before);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), lines.join(eol) + (/\r?\n$/.test(text) ? eol : ""));
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    review.discarded.push(hunk.summary);
    this.changed.fire();
    return true;
  }
}
