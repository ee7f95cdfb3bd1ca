import * as vscode from "vscode";

/** Enough for the model to work on; a workspace with thousands of warnings gets the first ones. */
const MAX_PROBLEMS = 100;

/** The editor's errors and warnings in the workspace, one line each: `path:line:col severity: message`. */
export function formatProblems(): string {
  const lines: string[] = [];
  let total = 0;
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
    const path = vscode.workspace.asRelativePath(uri, false);
    for (const d of diagnostics) {
      if (d.severity !== vscode.DiagnosticSeverity.Error && d.severity !== vscode.DiagnosticSeverity.Warning) continue;
      total++;
      if (lines.length >= MAX_PROBLEMS) continue;
      const severity = d.severity === vscode.DiagnosticSeverity.Error ? "error" : "warning";
      const source = d.source ? ` (${d.source})` : "";
      lines.push(`${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity}: ${d.message.replace(/\s+/g, " ")}${source}`);
    }
  }
  if (total > lines.length) lines.push(`[${total - lines.length} more problems not shown.]`);
  return lines.join("\n");
}
