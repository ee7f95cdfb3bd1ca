import { applyL10nBundle } from "../../src/shared/l10nBundle";

/**
 * Imported first by each webview's entry: the host writes the display language's bundle into the
 * page (webviewHtml.ts), and l10n.t must answer from it before anything renders.
 */
const raw = document.getElementById("root")?.dataset.l10n;
if (raw) {
  let problem: string | undefined;
  try {
    problem = applyL10nBundle(JSON.parse(raw));
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }
  // The page still works in English; the host's log has the same bundle's fate.
  if (problem) console.warn(`Kiln: the page's translation is not used: ${problem}`);
}
