import * as l10n from "@vscode/l10n";

/**
 * One localisation layer for the extension and its webviews: every user-facing string is written
 * `l10n.t("English text", …args)` with @vscode/l10n, `npm run l10n` collects them into
 * l10n/bundle.l10n.json, and a translation is that file in another language
 * (bundle.l10n.<locale>.json). VS Code loads the bundle of its display language for the extension
 * host (vscode.l10n.bundle); the host hands the same bundle to each webview in its page.
 */
export type L10nBundle = Record<string, string>;

/** The bundle in `value` (parsed JSON from a page or a file), or why it is not one. */
export function parseL10nBundle(value: unknown): { bundle: L10nBundle } | { error: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: "a translation bundle is an object of message → translation" };
  const bundle: L10nBundle = {};
  for (const [message, translation] of Object.entries(value)) {
    // The exported English bundle writes a message with translator comments as { message, comment }.
    const text = typeof translation === "string" ? translation : typeof translation === "object" && translation !== null && "message" in translation ? translation.message : undefined;
    if (typeof text !== "string") return { error: `the translation of "${message.slice(0, 60)}" is not text` };
    bundle[message] = text;
  }
  return { bundle };
}

/**
 * Makes `l10n.t` answer from `value` in this bundle of code (the host's, or a webview's). Nothing
 * to use (English) leaves the messages as written; a bundle that is not one is refused whole,
 * with the reason, rather than half applied.
 */
export function applyL10nBundle(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseL10nBundle(value);
  if ("error" in parsed) return parsed.error;
  l10n.config({ contents: parsed.bundle });
  return undefined;
}
