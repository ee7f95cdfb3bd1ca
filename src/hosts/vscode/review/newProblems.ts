import * as vscode from "vscode";

/** More would drown the model's next step; the count of the rest is still given. */
export const MAX_NEW_PROBLEMS = 50;
/** Language tools often publish in bursts (syntax first, then semantics): wait for the burst to end. */
const QUIET_MS = 150;

export function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
}

/** An edit moves lines, so errors are matched by what they say, not where. */
function keyOf(d: vscode.Diagnostic): string {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return `${d.source ?? ""}\u0000${String(code ?? "")}\u0000${d.message}`;
}

function describe(d: vscode.Diagnostic): string {
  return `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}${d.source ? ` (${d.source})` : ""}`;
}

/**
 * Resolves once the file's diagnostics have changed and then gone quiet, or after `waitMs`. Started
 * before the save, so the language tools' first answer is not missed. `current`: whether the
 * document holds the text to judge yet; changes before it does (the old text's) are not counted.
 */
export function diagnosticsSettled(uri: vscode.Uri, waitMs: number, current: () => boolean = () => true): Promise<void> {
  const key = uri.toString();
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      listener.dispose();
      clearTimeout(limit);
      clearTimeout(quiet);
      resolve();
    };
    const limit = setTimeout(done, waitMs);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === key) || !current()) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
    });
  });
}

/** The file's errors now that were not among `before`, as the model reads them ("line:col message"). */
export function newErrors(uri: vscode.Uri, before: readonly vscode.Diagnostic[]): string[] {
  const seen = new Map<string, number>();
  for (const d of before) seen.set(keyOf(d), (seen.get(keyOf(d)) ?? 0) + 1);
  const fresh: string[] = [];
  for (const d of errorsOf(uri)) {
    const left = seen.get(keyOf(d)) ?? 0;
    if (left > 0) seen.set(keyOf(d), left - 1);
    else fresh.push(describe(d));
  }
  if (fresh.length <= MAX_NEW_PROBLEMS) return fresh;
  return [...fresh.slice(0, MAX_NEW_PROBLEMS), `… and ${fresh.length - MAX_NEW_PROBLEMS} more`];
}
