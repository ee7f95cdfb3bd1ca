import { useEffect, useSyncExternalStore } from "react";
import type { HistoryEntry } from "../../src/shared/historyEntry";
import type { ProviderSummary } from "../../src/shared/protocol/messages";
import type { HistoryStore } from "./history/historyStore";
import * as l10n from "@vscode/l10n";
import { slot, withSlots } from "./l10nSlots";
import { send } from "./vscodeApi";

const RECENT = 3;

/** The newest tasks of this folder (of any folder when the host does not say which is open). */
export function recentTasks(entries: readonly HistoryEntry[], workspace: string | undefined, currentTaskId?: string): HistoryEntry[] {
  return entries
    .filter((e) => (workspace === undefined || e.workspace === workspace) && e.id !== currentTaskId)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, RECENT);
}

/** "5 min ago", "yesterday", "3 days ago": when a task was last worked on, roughly. */
export function ago(then: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - then) / 60_000));
  if (minutes < 1) return l10n.t("just now");
  if (minutes < 60) return l10n.t("{0} min ago", minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 24) return l10n.t("{0} h ago", hours);
  const days = Math.round(hours / 24);
  return days === 1 ? l10n.t("yesterday") : l10n.t("{0} days ago", days);
}

/**
 * A chat with nothing in it yet: which provider and model will answer, in full; the last few
 * tasks of this folder to reopen; and how to get more out of Kiln.
 */
export function EmptyChat({ provider, history }: { provider: ProviderSummary; history: HistoryStore }) {
  const state = useSyncExternalStore(history.subscribe, history.get);
  // The host answers with the history and keeps it current while the page is open.
  useEffect(() => {
    send({ type: "history/open" });
  }, []);
  const recent = state ? recentTasks(state.entries, state.currentWorkspace, state.currentTaskId) : [];
  return (
    <div className="empty-chat" data-testid="empty-chat">
      <p className="empty-model" data-testid="empty-model">
        {withSlots(l10n.t("Answers come from {0} through {1}.", slot(0), slot(1)), [
          <strong key="model">{provider.model || l10n.t("(no model set)")}</strong>,
          <strong key="kind">{provider.kind}</strong>,
        ])}
      </p>
      {recent.length > 0 && (
        <section aria-labelledby="recent-heading">
          <h2 id="recent-heading">{l10n.t("Recent tasks")}</h2>
          <ul className="recent-tasks">
            {recent.map((entry) => (
              <li key={entry.id}>
                <button className="recent-task" data-testid="recent-task" title={l10n.t("Reopen: {0}", entry.title)} onClick={() => send({ type: "history/resume", id: entry.id })}>
                  <span className="recent-title">{entry.title || l10n.t("(untitled task)")}</span>
                  <span className="recent-when">{ago(entry.updatedAt)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="tips-heading">
        <h2 id="tips-heading">{l10n.t("Tips")}</h2>
        <ul className="tips" data-testid="tips">
          <li>{withSlots(l10n.t("{0}: pick one under the input. Ask explains, Architect plans, Code and Debug change files.", slot(0)), [<strong key="modes">{l10n.t("Modes")}</strong>])}</li>
          <li>
            {withSlots(l10n.t("{0} adds a file, folder or problem to your message; {1} runs a command or workflow.", slot(0), slot(1)), [<strong key="at">@</strong>, <strong key="slash">/</strong>])}
          </li>
          <li>{withSlots(l10n.t("{0} selected code in the editor, then Kiln, to explain, fix or add it to the chat.", slot(0)), [<strong key="click">{l10n.t("Right-click")}</strong>])}</li>
        </ul>
      </section>
    </div>
  );
}
