import * as l10n from "@vscode/l10n";
import { BUILTIN_MODES, type Mode } from "./modes";

/** Tells translators that a short word is a mode's name (a noun in the mode picker). */
const MODE_NAME = "the name of a built-in mode, in the mode picker";

/**
 * A built-in mode's name and one-line description in the user's language, for the pickers and the
 * settings page; undefined for any other slug. The prompt keeps BUILTIN_MODES' English: the model
 * works in English.
 */
export function builtinModeText(slug: string): { name: string; description: string } | undefined {
  switch (slug) {
    case "code":
      return { name: l10n.t({ message: "Code", comment: [MODE_NAME] }), description: l10n.t("Writing, changing or fixing code when the task is clear.") };
    case "architect":
      return { name: l10n.t({ message: "Architect", comment: [MODE_NAME] }), description: l10n.t("Planning and design before building: gather context, write a plan or a spec in Markdown.") };
    case "ask":
      return { name: l10n.t({ message: "Ask", comment: [MODE_NAME] }), description: l10n.t("Questions about the code or concepts, without changing files.") };
    case "debug":
      return { name: l10n.t({ message: "Debug", comment: [MODE_NAME] }), description: l10n.t("Finding the cause of a bug or a failure before fixing it.") };
    case "orchestrator":
      return { name: l10n.t({ message: "Orchestrator", comment: [MODE_NAME] }), description: l10n.t("Large tasks that split into parts for other modes, run as subtasks.") };
    default:
      return undefined;
  }
}

/**
 * A mode's name and one-line description as a person reads them: a built-in's words translated; a
 * custom mode's as its file has them, even where it takes a built-in's slug (only the words it kept
 * from the built-in are translated).
 */
export function modeText(mode: Mode): { name: string; description?: string } {
  const description = mode.description ?? mode.whenToUse;
  const builtIn = BUILTIN_MODES.find((m) => m.slug === mode.slug);
  const words = builtIn && builtinModeText(mode.slug);
  if (!builtIn || !words) return { name: mode.name, ...(description ? { description } : {}) };
  const ownDescription = mode.description === undefined && mode.whenToUse === builtIn.whenToUse ? words.description : description;
  return { name: mode.name === builtIn.name ? words.name : mode.name, ...(ownDescription ? { description: ownDescription } : {}) };
}
