/** The project's folder of general rules; new_rule and the settings panel create files here. */
export const RULES_FOLDER = ".kilocode/rules";

/**
 * The file name for a rule: the name as given, with characters that are awkward in file names
 * turned into dashes. A name with a path separator is refused rather than cleaned: the model (or
 * the user) may think it is choosing a folder, and should hear that it is not. Pure, so the
 * settings page checks names with the same words as the host.
 */
export function ruleFileName(name: string): { ok: true; file: string } | { ok: false; error: string } {
  const trimmed = name.trim().replace(/\.md$/i, "");
  if (/[\\/]/.test(trimmed))
    return { ok: false, error: `the rule name "${name}" holds a path separator; give a plain name such as "testing-conventions" (the rule is always saved in ${RULES_FOLDER}/).` };
  const safe = trimmed
    .replace(/[^\p{L}\p{N}_.-]+/gu, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  if (safe === "") return { ok: false, error: `the rule name "${name}" is empty once cleaned; give a short name of letters, digits and dashes, such as "testing-conventions".` };
  return { ok: true, file: `${safe.slice(0, 80)}.md` };
}
