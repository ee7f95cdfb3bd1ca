import * as l10n from "@vscode/l10n";
import { useState } from "react";
import { RULES_FOLDER, ruleFileName } from "../../../src/shared/ruleName";
import type { RuleView, RulesView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

// Functions, not values: l10n.t answers from the bundle set after the modules load.
const size = (bytes: number) => (bytes < 1000 ? l10n.t("{0} B", bytes) : l10n.t("{0} KB", (bytes / 1000).toFixed(1)));

/** Where a rule applies: its scope, and the mode for a mode's rules; one message each. */
function where(rule: RuleView): string {
  if (rule.scope === "global") return rule.mode ? l10n.t("global, {0} mode", rule.mode) : l10n.t("global");
  return rule.mode ? l10n.t("project, {0} mode", rule.mode) : l10n.t("project");
}

/**
 * The rule files new requests add to the system prompt, in that order, each with an on/off switch
 * (kiln.rules.disabled) and an Open button; "New rule file" makes one in the project's rules folder.
 */
export function RulesSection({ rules, hasWorkspace, ask }: { rules: RulesView; hasWorkspace: boolean; ask: SettingsAsk }) {
  const [name, setName] = useState("");
  const [local, setLocal] = useState<Result | undefined>();
  const [answer, track] = useLatestAnswer();
  // The host's answer to the last create, or the page's own refusal of the name.
  const error = local ?? (answer && !answer.ok ? answer : undefined);
  const create = () => {
    // Checked with the host's own rule so both refuse a name with the same words.
    const file = ruleFileName(name);
    if (!file.ok) return setLocal({ ok: false, field: "ruleName", message: file.error });
    setLocal(undefined);
    track(ask("settings/newRule", { name }));
  };
  const created = answer?.ok === true;
  return (
    <section className="ks-section" aria-labelledby="ks-rules" data-testid="rules-section">
      <h2 id="ks-rules">{l10n.t("Rules")}</h2>
      <p className="ks-hint">
        {rules.globalDir
          ? l10n.t(
              "Rule files are added to the system prompt of every request, in this order: global rules ({0}), then the project's {1}/, .roo/rules/, AGENTS.md and .clinerules/.kilocoderules/.roorules; a mode's rules (rules-<mode>/) only in that mode.",
              rules.globalDir,
              RULES_FOLDER,
            )
          : l10n.t(
              "Rule files are added to the system prompt of every request, in this order: global rules (the global rules folder), then the project's {0}/, .roo/rules/, AGENTS.md and .clinerules/.kilocoderules/.roorules; a mode's rules (rules-<mode>/) only in that mode.",
              RULES_FOLDER,
            )}{" "}
        {l10n.t("A file turned off is left out.")}
      </p>
      {rules.files.length === 0 ? (
        <p className="ks-muted" data-testid="rules-empty">
          {l10n.t("No rule files yet.")}
        </p>
      ) : (
        <table className="ks-table">
          <thead>
            <tr>
              <th>{l10n.t("On")}</th>
              <th>{l10n.t("File")}</th>
              <th>{l10n.t("Scope")}</th>
              <th>{l10n.t("Size")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.files.map((rule) => (
              <tr key={rule.id} data-testid="rule" data-id={rule.id} data-enabled={String(rule.enabled)}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={l10n.t("Use {0}", rule.path)}
                    checked={rule.enabled}
                    onChange={(e) => void ask("settings/setRuleEnabled", { id: rule.id, enabled: e.target.checked })}
                  />
                </td>
                <td className="ks-path" title={rule.path}>
                  {rule.path}
                </td>
                <td className="ks-muted">{where(rule)}</td>
                <td className="ks-muted">{size(rule.size)}</td>
                <td>
                  <button type="button" className="secondary" aria-label={l10n.t("Open {0}", rule.path)} onClick={() => send({ type: "settings/openRule", id: rule.id })}>
                    {l10n.t("Open")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="ks-actions"
        data-testid="new-rule-form"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <label>
          <span>{l10n.t("New rule file in {0}/", RULES_FOLDER)} </span>
          <input data-testid="new-rule-name" placeholder={l10n.t("testing-conventions")} value={name} disabled={!hasWorkspace} onChange={(e) => (setName(e.target.value), setLocal(undefined))} />
        </label>
        <button type="submit" data-testid="new-rule" disabled={!hasWorkspace || name.trim() === ""} title={hasWorkspace ? undefined : l10n.t("Open a folder first")}>
          {l10n.t("New rule file")}
        </button>
      </form>
      {error && (
        <div className="ks-field-error" role="alert" data-testid="rules-error-ruleName">
          {error.message}
        </div>
      )}
      {created && !local && (
        <p className="ks-status" data-testid="rules-created">
          {answer.message}
        </p>
      )}
    </section>
  );
}
