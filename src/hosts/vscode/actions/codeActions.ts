import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { EDITOR_COMMANDS, type EditorAction } from "./editorActions";

/** The lightbulb's words for an action, in the user's language. */
function titleOf(kind: EditorAction): string {
  switch (kind) {
    case "explain":
      return l10n.t("Kiln: Explain This Code");
    case "fix":
      return l10n.t("Kiln: Fix This Code");
    case "improve":
      return l10n.t("Kiln: Improve This Code");
    case "addToContext":
      return l10n.t("Kiln: Add to Context");
  }
}

/**
 * The editor actions in the lightbulb. Fix is a quick fix wherever there are problems (the cursor
 * alone is enough); the others need a selection, so the lightbulb does not follow every cursor move.
 */
export class KilnCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.RefactorRewrite];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const problems = context.diagnostics;
    const actions: vscode.CodeAction[] = [];
    if (problems.length > 0) actions.push(this.action("fix", vscode.CodeActionKind.QuickFix, document, range, problems));
    if (range.isEmpty) return actions;
    if (problems.length === 0) actions.push(this.action("fix", vscode.CodeActionKind.RefactorRewrite, document, range, []));
    for (const kind of ["explain", "improve", "addToContext"] as const) actions.push(this.action(kind, vscode.CodeActionKind.RefactorRewrite, document, range, []));
    return actions;
  }

  private action(kind: EditorAction, codeKind: vscode.CodeActionKind, document: vscode.TextDocument, range: vscode.Range, problems: readonly vscode.Diagnostic[]): vscode.CodeAction {
    const title = titleOf(kind);
    const action = new vscode.CodeAction(title, codeKind);
    if (problems.length > 0) action.diagnostics = [...problems];
    action.command = { command: EDITOR_COMMANDS[kind], title, arguments: [document.uri, range, [...problems]] };
    return action;
  }
}

export function registerCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider([{ scheme: "file" }, { scheme: "untitled" }], new KilnCodeActions(), {
    providedCodeActionKinds: KilnCodeActions.kinds,
  });
}
