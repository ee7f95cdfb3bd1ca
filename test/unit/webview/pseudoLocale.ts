import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { posted } from "./host";
import { el, type El } from "./dom";
import { useEnglish, usePseudoLocale } from "../pseudoL10n";

// The pseudo-locale (every l10n.t message comes back as ⟦message⟧) is the one the other unit tests use.
export { useEnglish, usePseudoLocale };

/** Each test of the calling suite in the pseudo-locale, with the page and the posted messages fresh. */
export function inPseudoLocale(): void {
  beforeEach(() => {
    posted.length = 0;
    usePseudoLocale();
  });
  afterEach(() => {
    cleanup();
    useEnglish();
  });
}

const ATTRIBUTES = ["placeholder", "title", "aria-label", "alt", "aria-description"];

/**
 * The words a person would read in `root` that did not come through l10n.t: its text and the
 * labelling attributes. `data` is what the page shows as it came (a path, a model's name, the
 * user's text): either the strings themselves, taken out of the text before it is judged (text
 * nodes run together, so a name sits glued to its neighbours), or a test of each leftover piece.
 */
export function untranslated(node: unknown, data: readonly string[] | ((text: string) => boolean) = []): string[] {
  const found: string[] = [];
  const known = typeof data === "function" ? [] : [...data].filter((d) => d !== "").sort((a, b) => b.length - a.length);
  const isData = typeof data === "function" ? data : () => false;
  const check = (text: string, where: string) => {
    let rest = text;
    for (const d of known) rest = rest.split(d).join("\n");
    // Innermost first: a message may hold another (a bold word inside a sentence).
    for (let before = ""; before !== rest;) [before, rest] = [rest, rest.replace(/⟦[^⟦⟧]*⟧/g, "\n")];
    for (const piece of rest.split("\n")) {
      const words = piece.trim();
      if (/[A-Za-z]{2,}/.test(words) && !isData(words)) found.push(`${where}: ${words}`);
    }
  };
  const root = el(node);
  const hidden = new Set<El>([...root.querySelectorAll("[hidden] *, [hidden], script, style")]);
  for (const element of [root, ...root.querySelectorAll("*")]) {
    if (hidden.has(element)) continue;
    for (const attribute of ATTRIBUTES) {
      const value = element.getAttribute(attribute);
      if (value) check(value, `[${attribute}]`);
    }
  }
  check(root.textContent ?? "", "text");
  return found;
}
