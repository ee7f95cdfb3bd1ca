import { useState } from "react";
import { APPROVE_LABELS, type AutoApproveBarState } from "../../src/shared/protocol/autoApproveBar";
import type { ApproveWord } from "../../src/shared/approveWords";
import { send } from "./vscodeApi";
import "./autoApproveBar.css";

/** One line on what runs without asking, as a person would say it. */
export function approveSummary(state: AutoApproveBarState): string {
  if (!state.enabled) return "Off: every call asks";
  if (state.words.length === 0) return "On, but no category: every call asks";
  const ordered = (Object.keys(APPROVE_LABELS) as ApproveWord[]).filter((w) => state.words.includes(w));
  const named = ordered.map((w) => APPROVE_LABELS[w].toLowerCase());
  const shown = named.slice(0, 3).join(", ");
  return named.length > 3 ? `${shown} and ${named.length - 3} more` : shown;
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
  const shown = Object.keys(APPROVE_LABELS) as ApproveWord[];
  return (
    <div className={`approve-bar${state.enabled ? " on" : ""}`} data-testid="approve-bar">
      <div className="approve-bar-row">
        <label className="approve-switch" title="Off: every call asks, whatever the categories">
          <input type="checkbox" role="switch" data-testid="approve-switch" checked={state.enabled} onChange={(e) => send({ type: "chat/setAutoApprove", enabled: e.target.checked })} />
          <span>Auto-approve</span>
        </label>
        <button
          type="button"
          className="approve-bar-summary"
          data-testid="approve-summary"
          aria-expanded={open}
          title={open ? "Hide the categories" : "Choose what runs without asking"}
          onClick={() => setOpen(!open)}
        >
          <span className="approve-bar-text">{approveSummary(state)}</span>
          <span className={`codicon codicon-chevron-${open ? "down" : "up"}`} aria-hidden="true" />
        </button>
      </div>
      {open && (
        <fieldset className="approve-bar-words" data-testid="approve-words" disabled={!state.enabled}>
          <legend className="visually-hidden">What runs without asking</legend>
          {shown.map((word) => (
            <label key={word} className={`approve-word${state.words.includes(word) ? " checked" : ""}`}>
              <input type="checkbox" data-word={word} checked={state.words.includes(word)} onChange={() => toggle(word)} />
              {APPROVE_LABELS[word]}
            </label>
          ))}
          <button type="button" className="link-button approve-more" data-testid="approve-settings" onClick={() => send({ type: "chat/openSettings", section: "autoApprove" })}>
            Allowed commands and limits…
          </button>
        </fieldset>
      )}
    </div>
  );
}
