/** Pure HTML for the chat webview (no `vscode` import), so its CSP is unit-tested directly. */

export interface WebviewHtmlInput {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  /** The display language, and its translation bundle where it is not English (l10nBundle.ts). */
  l10n?: { language: string; bundle?: Record<string, string> };
}

export function makeNonce(random: (size: number) => Uint8Array): string {
  return Buffer.from(random(18))
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "");
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * Strict CSP: scripts only with this load's nonce, styles and images only from the extension's own
 * files, no remote origins at all, no inline event handlers, no network from the webview.
 */
export function buildCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

export function buildWebviewHtml(input: WebviewHtmlInput): string {
  const csp = buildCsp(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeAttr(input.l10n?.language ?? "en")}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(input.styleUri)}">
<title>Kiln</title>
</head>
<body>
<div id="root"${input.l10n?.bundle ? ` data-l10n="${escapeAttr(JSON.stringify(input.l10n.bundle))}"` : ""}></div>
<script type="module" nonce="${escapeAttr(input.nonce)}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}
