import { useState } from "react";
import { RULES_FOLDER, ruleFileName } from "../../../src/shared/ruleName";
import type { RuleView, RulesView } from "../../../src/shared/protocol/settings";
import { send } from "./api";
import type { Result, SettingsAsk } from "./model";
import { useLatestAnswer } from "./useSaveRequest";

const size = (bytes: number) => (bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} KB`);
const where = (rule: RuleView) => (rule.mode ? `${rule.scope}, ${rule.mode} mode` : rule.scope);

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
      <h2 id="ks-rules">Rules</h2>
      <p className="ks-hint">
        Rule files are added to the system prompt of every request, in this order: global rules ({rules.globalDir || "the global rules folder"}), then the project's {RULES_FOLDER}/, AGENTS.md and
        .clinerules/.kilocoderules/.roorules; a mode's rules (rules-&lt;mode&gt;/) only in that mode. A file turned off is left out.
      </p>
      {rules.files.length === 0 ? (
        <p className="ks-muted" data-testid="rules-empty">
          No rule files yet.
        </p>
      ) : (
        <table className="ks-table">
          <thead>
            <tr>
              <th>On</th>
              <th>File</th>
              <th>Scope</th>
              <th>Size</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.files.map((rule) => (
              <tr key={rule.id} data-testid="rule" data-id={rule.id} data-enabled={String(rule.enabled)}>
                <td>
                  <input type="checkbox" aria-label={`Use ${rule.path}`} checked={rule.enabled} onChange={(e) => void ask("settings/setRuleEnabled", { id: rule.id, enabled: e.target.checked })} />
                </td>
                <td className="ks-path" title={rule.path}>
                  {rule.path}
                </td>
                <td className="ks-muted">{where(rule)}</td>
                <td className="ks-muted">{size(rule.size)}</td>
                <td>
                  <button type="button" className="secondary" aria-label={`Open ${rule.path}`} onClick={() => send({ type: "settings/openRule", id: rule.id })}>
                    Open
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
          <span>New rule file in {RULES_FOLDER}/ </span>
          <input data-testid="new-rule-name" placeholder="testing-conventions" value={name} disabled={!hasWorkspace} onChange={(e) => (setName(e.target.value), setLocal(undefined))} />
        </label>
        <button type="submit" data-testid="new-rule" disabled={!hasWorkspace || name.trim() === ""} title={hasWorkspace ? undefined : "Open a folder first"}>
          New rule file
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
