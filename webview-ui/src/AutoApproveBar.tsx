import { useState } from "react";
import * as l10n from "@vscode/l10n";
import { APPROVE_ORDER, approveLabel, approvePhrase, type AutoApproveBarState } from "../../src/shared/protocol/autoApproveBar";
import type { ApproveWord } from "../../src/shared/approveWords";
import { send } from "./vscodeApi";
import "./autoApproveBar.css";

/** One line on what runs without asking, as a person would say it. */
export function approveSummary(state: AutoApproveBarState): string {
  if (!state.enabled) return l10n.t("Off: every call asks");
  if (state.words.length === 0) return l10n.t("On, but no category: every call asks");
  const named = APPROVE_ORDER.filter((w) => state.words.includes(w)).map(approvePhrase);
  const shown = named.slice(0, 3).join(l10n.t(", "));
  return named.length > 3 ? l10n.t("{0} and {1} more", shown, named.length - 3) : shown;
}

/**
 * Above the chat input: whether Kiln may act without asking, and what. The switch turns it all off
 * (every call asks) without losing the categories; opened, each category is a toggle. A change is
 * a setting (kiln.autoApprove, kiln.autoApproveEnabled), so it holds for every chat and task.
 */
export function AutoApproveBar({ state }: { state: AutoApproveBarState }) {
  const [open, setOpen] = useState(false);
  const toggle = (word: ApproveWord) => {
    const words = state.words.includes(word) ? state.words.filter((w) => w !== word) : [...state.words, word];
    send({ type: "chat/setAutoApprove", words });
  };
  // Everyday first, then the task's own tools, then what reaches beyond the workspace's files.
  const shown = APPROVE_ORDER;
  return (
    <div className={`approve-bar${state.enabled ? " on" : ""}`} data-testid="approve-bar">
      <div className="approve-bar-row">
        <label className="approve-switch" title={l10n.t("Off: every call asks, whatever the categories")}>
          <input type="checkbox" role="switch" data-testid="approve-switch" checked={state.enabled} onChange={(e) => send({ type: "chat/setAutoApprove", enabled: e.target.checked })} />
          <span>{l10n.t("Auto-approve")}</span>
        </label>
        <button
          type="button"
          className="approve-bar-summary"
          data-testid="approve-summary"
          aria-expanded={open}
          title={open ? l10n.t("Hide the categories") : l10n.t("Choose what runs without asking")}
          onClick={() => setOpen(!open)}
        >
          <span className="approve-bar-text">{approveSummary(state)}</span>
          <span className={`codicon codicon-chevron-${open ? "down" : "up"}`} aria-hidden="true" />
        </button>
      </div>
      {open && (
        <fieldset className="approve-bar-words" data-testid="approve-words" disabled={!state.enabled}>
          <legend className="visually-hidden">{l10n.t("What runs without asking")}</legend>
          {shown.map((word) => (
            <label key={word} className={`approve-word${state.words.includes(word) ? " checked" : ""}`}>
              <input type="checkbox" data-word={word} checked={state.words.includes(word)} onChange={() => toggle(word)} />
              {approveLabel(word)}
            </label>
          ))}
          <button type="button" className="link-button approve-more" data-testid="approve-settings" onClick={() => send({ type: "chat/openSettings", section: "autoApprove" })}>
            {l10n.t("Allowed commands and limits…")}
          </button>
        </fieldset>
      )}
    </div>
  );
}
