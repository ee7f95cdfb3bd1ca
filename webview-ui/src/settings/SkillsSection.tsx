import * as l10n from "@vscode/l10n";
import type { SkillsView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import type { SettingsAsk } from "./model";

/**
 * The skills the model may load (use_skill) or the user may run as /<name>, each with an on/off
 * switch (kiln.skills.disabled) and an Open button for its SKILL.md. Only names and descriptions
 * reach the prompt, so the list says what each costs: one line until it is used.
 */
export function SkillsSection({ skills, ask }: { skills: SkillsView; ask: SettingsAsk }) {
  return (
    <section className="ks-section" aria-labelledby="ks-skills" data-testid="skills-section">
      <h2 id="ks-skills">{l10n.t("Skills")}</h2>
      <p className="ks-hint">
        {l10n.t(
          "A skill is a folder with a SKILL.md: instructions for one kind of task, and any scripts or references beside them. Kiln finds them in the project's .kilocode/skills/, .claude/skills/ and .roo/skills/, and in {0}. Each request lists their names and descriptions; the model loads a skill's instructions when a task matches, and /name runs one.",
          skills.globalDir || l10n.t("the global skills folder"),
        )}{" "}
        {l10n.t("A skill turned off is left out.")}
      </p>
      {skills.errors.length > 0 && (
        <div className="ks-field-error" role="alert" data-testid="skills-errors">
          <ul>
            {skills.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      {skills.skills.length === 0 ? (
        <p className="ks-muted" data-testid="skills-empty">
          {l10n.t("No skills yet.")}
        </p>
      ) : (
        <table className="ks-table">
          <thead>
            <tr>
              <th>{l10n.t("On")}</th>
              <th>{l10n.t("Skill")}</th>
              <th>{l10n.t("Scope")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {skills.skills.map((skill) => (
              <tr key={skill.id} data-testid="skill" data-id={skill.id} data-enabled={String(skill.enabled)}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={l10n.t("Use the skill {0}", skill.name)}
                    checked={skill.enabled}
                    onChange={(e) => void ask("settings/setSkillEnabled", { id: skill.id, enabled: e.target.checked })}
                  />
                </td>
                <td>
                  <div className="ks-skill-name">/{skill.name}</div>
                  <div className="ks-wrap">{skill.description}</div>
                  <div className="ks-muted ks-wrap">{skill.path}</div>
                </td>
                <td className="ks-muted">{skill.scope === "global" ? l10n.t("global") : l10n.t("project")}</td>
                <td>
                  <button type="button" className="secondary" aria-label={l10n.t("Open {0}", `${skill.path}/SKILL.md`)} onClick={() => send({ type: "settings/openSkill", id: skill.id })}>
                    {l10n.t("Open")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
