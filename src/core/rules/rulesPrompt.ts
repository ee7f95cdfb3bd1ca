import { loadRules, type RulesLoad, type RulesLocation } from "./loadRules";

function heading(rule: RulesLoad["rules"][number]): string {
  const where = rule.mode ? `${rule.scope}, ${rule.mode} mode` : rule.scope;
  return `## ${rule.display} (${where})`;
}

/**
 * The system prompt's section of user rules, each file under its path, in load order (global
 * before project, general before the mode's). Empty when there is nothing to add, so a workspace
 * without rules gets the same prompt as before.
 */
export function rulesSection(load: Pick<RulesLoad, "rules" | "leftOut"> | undefined): string {
  if (!load || (load.rules.length === 0 && load.leftOut.length === 0)) return "";
  const parts = load.rules.map((rule) => `${heading(rule)}\n\n${rule.text}${rule.cut ? `\n\n[Cut: ${rule.cut}.]` : ""}`);
  if (load.leftOut.length) parts.push(`[Left out, because the rules reached their size limit: ${load.leftOut.join(", ")}.]`);
  return `\n\n# User's custom instructions

The user's rule files follow. Follow them in addition to the rules above; where two disagree, the later one (project over global, a mode's over the general) wins.

${parts.join("\n\n")}`;
}

export interface RulesSourceOptions {
  where: RulesLocation;
  /** Read at each request, so a rule turned off in the settings applies to the next request. */
  disabled?(): readonly string[];
  /** Each distinct problem (unreadable file, cut file) is reported once per source. */
  report?(problem: string): void;
}

/**
 * What a host hands the toolbox: the rules for a mode, read again at each request so an edited,
 * added or removed rule file and the mode after switch_mode apply at once.
 */
export function createRulesSource(options: RulesSourceOptions): (mode: string) => RulesLoad {
  const reported = new Set<string>();
  const report = (problem: string) => {
    if (reported.has(problem)) return;
    reported.add(problem);
    options.report?.(problem);
  };
  return (mode) => {
    const load = loadRules(options.where, mode, { disabled: options.disabled?.() });
    for (const error of load.errors) report(`rules: ${error}`);
    for (const rule of load.rules) if (rule.cut) report(`rules: ${rule.path} was cut (${rule.cut})`);
    if (load.leftOut.length) report(`rules: left out because the rules reached their size limit: ${load.leftOut.join(", ")}`);
    return load;
  };
}
