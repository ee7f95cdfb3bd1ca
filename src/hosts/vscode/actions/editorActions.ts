import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { capText, fillTemplate, formatProblems, templateFor, type ProblemLine, type PromptKind } from "../../../core/prompts/templates";
import type { ChatSession } from "../chat/ChatSession";
import { CHAT_VIEW_ID } from "../chat/ChatViewProvider";
import { KILN, readSetting } from "../settings/kilnSettings";

export type EditorAction = "explain" | "fix" | "improve" | "addToContext";

export const EDITOR_COMMANDS: Readonly<Record<EditorAction, string>> = {
  explain: "kiln.explainCode",
  fix: "kiln.fixCode",
  improve: "kiln.improveCode",
  addToContext: "kiln.addToContext",
};

/** The code an action is about: a document, the lines to send, and for Fix the problems there. */
export interface CodeSpan {
  document: vscode.TextDocument;
  range: vscode.Range;
  diagnostics?: readonly vscode.Diagnostic[];
}

/** The user's template from `kiln.prompts.<kind>`, or Kiln's default (for an empty one too). */
export function promptTemplate(kind: PromptKind): string {
  return templateFor(kind, readSetting(KILN.prompts[kind]));
}

/** Reveals the sidebar chat, where the actions' tasks and context go. */
export async function revealChat(): Promise<void> {
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
}

/** Into the chat: Add to Context fills the input for the user to finish; the rest start a new task. */
export async function askChat(session: ChatSession, prompt: string, how: "input" | "task"): Promise<void> {
  await revealChat();
  if (how === "input") session.addToInput(prompt);
  else session.startTask(prompt);
}

const SEVERITY: Record<vscode.DiagnosticSeverity, ProblemLine["severity"]> = {
  [vscode.DiagnosticSeverity.Error]: "Error",
  [vscode.DiagnosticSeverity.Warning]: "Warning",
  [vscode.DiagnosticSeverity.Information]: "Information",
  [vscode.DiagnosticSeverity.Hint]: "Hint",
};

function toProblem(d: vscode.Diagnostic): ProblemLine {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return { severity: SEVERITY[d.severity], message: d.message, line: d.range.start.line + 1, source: d.source, code };
}

/**
 * An empty selection means "here": the problems under the cursor when there are some, else the
 * cursor's line, so a right-click without selecting still sends something sensible.
 */
function effectiveRange(document: vscode.TextDocument, range: vscode.Range, diagnostics: readonly vscode.Diagnostic[]): vscode.Range {
  if (!range.isEmpty) return range;
  const here = diagnostics.filter((d) => d.range.contains(range.start));
  if (here.length > 0) {
    const union = here.map((d) => d.range).reduce((a, b) => a.union(b));
    return new vscode.Range(union.start.line, 0, union.end.line, document.lineAt(union.end.line).text.length);
  }
  return document.lineAt(range.start.line).range;
}

export function editorPrompt(action: EditorAction, span: CodeSpan): string {
  const { document } = span;
  const all = span.diagnostics ?? vscode.languages.getDiagnostics(document.uri);
  const range = effectiveRange(document, span.range, all);
  const problems = action === "fix" ? all.filter((d) => d.range.intersection(range) !== undefined) : [];
  // A selection that ends at the start of a line (whole lines picked) does not include that line.
  const lastLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return fillTemplate(promptTemplate(action), {
    filePath: vscode.workspace.asRelativePath(document.uri, false),
    startLine: range.start.line + 1,
    endLine: lastLine + 1,
    selectedText: capText(document.getText(range), "selection"),
    diagnostics: formatProblems(problems.map(toProblem)),
    languageId: document.languageId,
    userInput: "",
  });
}

/**
 * The span a command is about. From a code action: its document, range and problems as arguments.
 * From the editor menu or a keybinding: the active editor's selection (the menu's URI argument
 * names that same editor).
 */
async function spanOf(uri: unknown, range: unknown, diagnostics: unknown): Promise<CodeSpan | undefined> {
  if (uri instanceof vscode.Uri && range instanceof vscode.Range) {
    const document = await vscode.workspace.openTextDocument(uri);
    const given = Array.isArray(diagnostics) && diagnostics.every((d) => d instanceof vscode.Diagnostic) ? (diagnostics as vscode.Diagnostic[]) : undefined;
    return { document, range, ...(given && given.length > 0 ? { diagnostics: given } : {}) };
  }
  const editor = vscode.window.activeTextEditor;
  return editor ? { document: editor.document, range: editor.selection } : undefined;
}

export async function runEditorAction(session: ChatSession, action: EditorAction, span: CodeSpan | undefined): Promise<void> {
  if (!span) {
    void vscode.window.showInformationMessage(l10n.t("Kiln: open a file and select some code first."));
    return;
  }
  await askChat(session, editorPrompt(action, span), action === "addToContext" ? "input" : "task");
}

/** Explain, Fix, Improve and Add to Context, for the editor menu, code actions and keybindings; plus Focus Input. */
export function registerEditorActions(session: ChatSession): vscode.Disposable {
  const commands = (Object.keys(EDITOR_COMMANDS) as EditorAction[]).map((action) =>
    vscode.commands.registerCommand(EDITOR_COMMANDS[action], async (uri?: unknown, range?: unknown, diagnostics?: unknown) => runEditorAction(session, action, await spanOf(uri, range, diagnostics))),
  );
  commands.push(
    vscode.commands.registerCommand("kiln.focusInput", async () => {
      await revealChat();
      session.focusInput();
    }),
  );
  return vscode.Disposable.from(...commands);
}
