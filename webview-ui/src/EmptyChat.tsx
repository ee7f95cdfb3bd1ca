import { useEffect, useSyncExternalStore } from "react";
import type { HistoryEntry } from "../../src/shared/historyEntry";
import type { ProviderSummary } from "../../src/shared/protocol/messages";
import type { HistoryStore } from "./history/historyStore";
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
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? "yesterday" : `${days} days ago`;
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
        Answers come from <strong>{provider.model || "(no model set)"}</strong> through <strong>{provider.kind}</strong>.
      </p>
      {recent.length > 0 && (
        <section aria-labelledby="recent-heading">
          <h2 id="recent-heading">Recent tasks</h2>
          <ul className="recent-tasks">
            {recent.map((entry) => (
              <li key={entry.id}>
                <button className="recent-task" data-testid="recent-task" title={`Reopen: ${entry.title}`} onClick={() => send({ type: "history/resume", id: entry.id })}>
                  <span className="recent-title">{entry.title || "(untitled task)"}</span>
                  <span className="recent-when">{ago(entry.updatedAt)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="tips-heading">
        <h2 id="tips-heading">Tips</h2>
        <ul className="tips" data-testid="tips">
          <li>
            <strong>Modes</strong>: pick one under the input. Ask explains, Architect plans, Code and Debug change files.
          </li>
          <li>
            <strong>@</strong> adds a file, folder or problem to your message; <strong>/</strong> runs a command or workflow.
          </li>
          <li>
            <strong>Right-click</strong> selected code in the editor, then Kiln, to explain, fix or add it to the chat.
          </li>
        </ul>
      </section>
    </div>
  );
}
