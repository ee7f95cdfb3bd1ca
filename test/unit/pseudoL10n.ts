import * as l10n from "@vscode/l10n";
import { afterEach, beforeEach } from "vitest";

/**
 * The pseudo-locale for tests outside the webview (test/unit/webview/pseudoLocale.ts has the
 * page's): every message that goes through l10n.t comes back as ⟦message⟧, arguments filled in, so
 * words that skipped the layer are the ones without brackets.
 */
export function usePseudoLocale(): void {
  l10n.config({ contents: new Proxy({}, { get: (_, key) => (typeof key === "string" ? `⟦${key}⟧` : undefined) }) });
}

export function useEnglish(): void {
  l10n.config({ contents: {} });
}

/** Each test of the calling suite in the pseudo-locale, English again after it. */
export function inPseudoLocale(): void {
  beforeEach(usePseudoLocale);
  afterEach(useEnglish);
}

/** Whether all of `text` is one translated message (its arguments may hold anything). */
export function translated(text: string): boolean {
  return /^⟦[\s\S]*⟧$/.test(text);
}
