import * as vscode from "vscode";
import { EDITOR_COMMANDS, type EditorAction } from "./editorActions";

const TITLES: Record<EditorAction, string> = {
  explain: "Kiln: Explain This Code",
  fix: "Kiln: Fix This Code",
  improve: "Kiln: Improve This Code",
  addToContext: "Kiln: Add to Context",
};

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
    const action = new vscode.CodeAction(TITLES[kind], codeKind);
    if (problems.length > 0) action.diagnostics = [...problems];
    action.command = { command: EDITOR_COMMANDS[kind], title: TITLES[kind], arguments: [document.uri, range, [...problems]] };
    return action;
  }
}

export function registerCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider([{ scheme: "file" }, { scheme: "untitled" }], new KilnCodeActions(), {
    providedCodeActionKinds: KilnCodeActions.kinds,
  });
}
