import * as l10n from "@vscode/l10n";
import { useMemo, useState, useSyncExternalStore } from "react";
import { IMPORT_SOURCE_LABELS, type HistoryEntry } from "../../../src/shared/historyEntry";
import { groupHistory } from "../../../src/shared/historyListing";
import { send } from "../vscodeApi";
import type { HistoryStore } from "./historyStore";
import "./history.css";

/** The sidebar's task history: saved tasks by workspace, searchable, to reopen, star, export or delete. */
export function HistoryView({ store, onOpened }: { store: HistoryStore; onOpened: () => void }) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const [query, setQuery] = useState("");
  const [favoritesOnly, setFavoritesOnly] = useState(false);
  const [confirming, setConfirming] = useState<string | undefined>();
  const groups = useMemo(() => (state ? groupHistory(state.entries, { query, favoritesOnly, currentWorkspace: state.currentWorkspace }) : []), [state, query, favoritesOnly]);
  if (!state) return <p className="history-muted history-view">{l10n.t("Loading task history…")}</p>;
  return (
    <div className="history-view" data-testid="history-view">
      <div className="history-filters">
        <input type="search" aria-label={l10n.t("Search tasks")} placeholder={l10n.t("Search tasks")} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="history-search" />
        <label>
          <input type="checkbox" checked={favoritesOnly} onChange={(e) => setFavoritesOnly(e.target.checked)} /> {l10n.t("Favourites")}
        </label>
      </div>
      {state.problems.length > 0 && (
        <ul className="history-problems" role="alert">
          {state.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {groups.length === 0 && (
        <p className="history-muted" data-testid="history-empty">
          {state.entries.length === 0 ? l10n.t("No saved tasks yet.") : l10n.t("No task matches.")}
        </p>
      )}
      {groups.map((group) => (
        <section key={group.workspace} className="history-group" aria-label={group.workspace ? l10n.t("Tasks in {0}", group.workspace) : l10n.t("Tasks in no folder")}>
          <h3 title={group.workspace}>{folderName(group.workspace)}</h3>
          <ul>
            {group.entries.map((entry) => (
              <Entry
                key={entry.id}
                entry={entry}
                current={entry.id === state.currentTaskId}
                confirming={confirming === entry.id}
                setConfirming={(on) => setConfirming(on ? entry.id : undefined)}
                onOpened={onOpened}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function Entry(props: { entry: HistoryEntry; current: boolean; confirming: boolean; setConfirming(on: boolean): void; onOpened(): void }) {
  const { entry } = props;
  const cost = entry.cost === undefined ? "" : ` · $${entry.cost.toFixed(entry.cost >= 1 ? 2 : 4)}`;
  const tokens = entry.tokensIn + entry.tokensOut;
  return (
    <li className="history-entry" data-testid="history-entry" data-task-id={entry.id}>
      <button
        className="history-title"
        title={l10n.t("Open this task")}
        onClick={() => {
          send({ type: "history/resume", id: entry.id });
          props.onOpened();
        }}
      >
        {entry.title || l10n.t("Untitled task")}
        {props.current && <span className="history-badge">{l10n.t("open")}</span>}
      </button>
      <div className="history-meta">
        {new Date(entry.updatedAt).toLocaleString()} · {entry.mode} · {entry.model} · {tokens === 1 ? l10n.t("1 token") : l10n.t("{0} tokens", tokens.toLocaleString())}
        {cost}
        {entry.status === "running" && ` · ${l10n.t("interrupted")}`}
        {entry.importedFrom && <span data-testid="history-imported">{` · ${l10n.t("from {0}", IMPORT_SOURCE_LABELS[entry.importedFrom])}`}</span>}
      </div>
      <div className="history-actions">
        <button
          aria-pressed={entry.favorite}
          title={entry.favorite ? l10n.t("Remove from favourites") : l10n.t("Add to favourites")}
          onClick={() => send({ type: "history/favorite", id: entry.id, favorite: !entry.favorite })}
          data-testid="history-favorite"
        >
          {entry.favorite ? "★" : "☆"}
        </button>
        <button onClick={() => send({ type: "history/export", id: entry.id })}>{l10n.t("Export")}</button>
        {props.confirming ? (
          <>
            <button className="danger" onClick={() => send({ type: "history/delete", id: entry.id })} data-testid="history-confirm-delete">
              {l10n.t("Delete for good")}
            </button>
            <button onClick={() => props.setConfirming(false)}>{l10n.t("Keep")}</button>
          </>
        ) : (
          <button onClick={() => props.setConfirming(true)} data-testid="history-delete">
            {l10n.t("Delete")}
          </button>
        )}
      </div>
    </li>
  );
}

function folderName(path: string): string {
  if (!path) return l10n.t("No folder");
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}
