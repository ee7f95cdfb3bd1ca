import * as l10n from "@vscode/l10n";
import { BUILTIN_MODES, type Mode, type ModeRefusal } from "./modes";

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

/**
 * Why a mode refused a call, for the user: the mode by its shown name, a built-in's file rule in
 * their language, and the modes that may (by slug, as the picker and switch_mode know them).
 */
export function refusalText(mode: Mode, refusal: ModeRefusal, able: readonly string[]): string {
  const name = modeText(mode).name;
  const why = refusal.kind === "group" ? l10n.t("{0} is not available in {1} mode.", refusal.tool, name) : filesRefusal(name, refusal);
  if (able.length === 0) return why;
  const elsewhere = able.length === 1 ? l10n.t("Switch to {0} mode for this.", able[0]!) : l10n.t("Switch to {0} or {1} mode for this.", able.slice(0, -1).join(", "), able.at(-1)!);
  return `${why} ${elsewhere}`;
}

function filesRefusal(name: string, refusal: Extract<ModeRefusal, { kind: "files" }>): string {
  const refused = refusal.refused.join(", ");
  // The built-in Architect's rule is Kiln's words; any other description is the user's own.
  const what = "regex" in refusal.what ? l10n.t("files matching {0}", refusal.what.regex) : refusal.what.described === "Markdown files" ? l10n.t("Markdown files") : refusal.what.described;
  return refusal.group === "edit"
    ? l10n.t("{0} mode may edit only {1}; {2} is not one.", name, what, refused)
    : l10n.t("{0} mode may use these tools only on {1}; {2} is not one.", name, what, refused);
}
