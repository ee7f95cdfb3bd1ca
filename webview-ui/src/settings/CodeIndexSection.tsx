import * as l10n from "@vscode/l10n";
import { useState } from "react";
import type { CodeIndexView } from "../../../src/shared/protocol/settings";
import { ConfirmBar } from "./ConfirmBar";
import { EmbedderSettings } from "./EmbedderSettings";
import type { SettingsAsk } from "./model";

// Functions, not values: l10n.t answers from the bundle set after the modules load.
const count = (n: number) => n.toLocaleString();
const size = (bytes: number) => (bytes < 1_000_000 ? l10n.t("{0} KB", (bytes / 1000).toFixed(1)) : l10n.t("{0} MB", (bytes / 1_000_000).toFixed(1)));

/** The index's state in one line: what a user checks first ("is it ready, how far along"). */
function stateLine(index: CodeIndexView): string {
  switch (index.state) {
    case "off":
      return index.enabled ? l10n.t("Not started (open a folder)") : l10n.t("Off for this workspace");
    case "indexing":
      return index.filesTotal !== undefined ? l10n.t("Indexing: {0} of {1} files", count(index.filesDone ?? 0), count(index.filesTotal)) : l10n.t("Indexing: looking for files");
    case "ready":
      return l10n.t("Ready: {0} files, {1} chunks", count(index.files ?? 0), count(index.chunks ?? 0));
    case "failed":
      return l10n.t("Failed: {0}", index.message ?? "");
  }
}

/**
 * The codebase index behind codebase_search: its state and progress, how it ranks, what is saved on
 * disk, a per-workspace switch, Rebuild and Delete (which asks first: the index is built again only
 * by reading every file).
 */
export function CodeIndexSection({ index, hasWorkspace, ask }: { index: CodeIndexView; hasWorkspace: boolean; ask: SettingsAsk }) {
  const [confirming, setConfirming] = useState(false);
  const busy = index.state === "indexing";
  return (
    <section className="ks-section" aria-labelledby="ks-code-index" data-testid="code-index-section" data-state={index.state}>
      <h2 id="ks-code-index">{l10n.t("Codebase index")}</h2>
      <p className="ks-hint">
        {index.team
          ? l10n.t(
              "codebase_search ranks the workspace's functions, classes and Markdown sections by their words, and by meaning too with an embedder (kiln.index.embedder). This index is kept on the team's PostgreSQL server (kiln.index.postgresUrl), shared by every clone of the repository on the same branch: a file changed here is sent when it is saved, and teammates' changes are found without indexing them here.",
            )
          : l10n.t(
              "codebase_search ranks the workspace's functions, classes and Markdown sections by their words, and by meaning too with an embedder (kiln.index.embedder). The index is built on this machine when the folder opens (no key, server or download), kept up to date as files change, and saved between sessions. .gitignore'd and .kilocodeignore'd files, build folders, binaries and files over 1 MB are left out.",
            )}
      </p>
      <label className="ks-check">
        <input type="checkbox" data-testid="index-enabled" checked={index.enabled} disabled={!hasWorkspace} onChange={(e) => void ask("settings/setIndexEnabled", { enabled: e.target.checked })} />
        <span>{l10n.t("Index this workspace")}</span>
      </label>
      <dl className="ks-facts">
        <dt>{l10n.t("State")}</dt>
        <dd>
          {/* A live region of its own: a dd cannot take the role itself. */}
          <span data-testid="index-state" role="status">
            {stateLine(index)}
          </span>
          {busy && index.filesTotal !== undefined && index.filesTotal > 0 && (
            <progress className="ks-progress" max={index.filesTotal} value={index.filesDone ?? 0} aria-label={l10n.t("Files indexed")} />
          )}
        </dd>
        <dt>{l10n.t("Ranking")}</dt>
        <dd data-testid="index-ranking">
          {index.embedder
            ? l10n.t("Words and meaning: full text (BM25) merged with the vectors of {0} ({1} of {2} chunks have one)", index.embedder, count(index.vectors ?? 0), count(index.chunks ?? 0))
            : l10n.t("Full text (BM25 over code, symbol names and path words); no embedder")}
          {index.embedderProblem && (
            <span className="ks-errors ks-index-problem" role="alert" data-testid="index-embedder-problem">
              {l10n.t("Embedder: {0}", index.embedderProblem)}
            </span>
          )}
        </dd>
        {index.team ? (
          <>
            <dt>{l10n.t("Kept on")}</dt>
            <dd data-testid="index-team">{l10n.t("The team's server {0}: {1} on branch {2}, shared by every clone of it", index.team.server, index.team.repository, index.team.branch)}</dd>
          </>
        ) : (
          <>
            <dt>{l10n.t("Saved")}</dt>
            <dd data-testid="index-saved">
              {index.saved ? l10n.t("{0}, {1}", size(index.saved.bytes), new Date(index.saved.savedAt).toLocaleString()) : l10n.t("Nothing saved yet")}
              {index.restored && index.state === "ready" && <span className="ks-muted"> {l10n.t("(this session started from it)")}</span>}
            </dd>
          </>
        )}
      </dl>
      {index.embedderSettings && <EmbedderSettings settings={index.embedderSettings} ask={ask} />}
      <div className="ks-actions">
        <button type="button" data-testid="index-rebuild" disabled={!index.enabled || !hasWorkspace || busy} onClick={() => void ask("settings/rebuildIndex", {})}>
          {l10n.t("Rebuild")}
        </button>
        <button type="button" className="secondary" data-testid="index-delete" disabled={!hasWorkspace || (!index.saved && !index.enabled)} onClick={() => setConfirming(true)}>
          {l10n.t("Delete")}
        </button>
      </div>
      {confirming && (
        <ConfirmBar
          testId="confirm-delete-index"
          text={
            index.team
              ? l10n.t("Stop using the team index in this workspace? It stays on the server for the others.")
              : l10n.t("Delete the saved index and stop indexing this workspace? Turning it on again reads every file.")
          }
          onConfirm={() => {
            setConfirming(false);
            void ask("settings/deleteIndex", {});
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
