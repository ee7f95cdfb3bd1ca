import * as l10n from "@vscode/l10n";
import { useSyncExternalStore } from "react";
import type { McpFileInfo, McpScope } from "../../../src/shared/protocol/mcp";
import { AddServerForm } from "./AddServerForm";
import type { McpAsk, McpStore } from "./mcpStore";
import { PROJECT_FILE, ServerCard } from "./ServerCard";
import "./mcp.css";

/** The sidebar's MCP view: the servers of both config files, their problems, and "Add server". */
export function McpView({ store }: { store: McpStore }) {
  const page = useSyncExternalStore(store.subscribe, store.get);
  const state = page.state;
  if (!state) return <p className="mcp-muted mcp-view">{l10n.t("Loading MCP servers…")}</p>;
  return (
    <div className="mcp-view" data-testid="mcp-view">
      <div className="mcp-files">
        <FileButton scope="project" file={state.files.project} ask={store.ask} />
        <FileButton scope="global" file={state.files.global} ask={store.ask} />
      </div>
      {state.errors.length > 0 && (
        <ul className="mcp-config-errors" data-testid="mcp-config-errors" aria-label={l10n.t("Problems in the MCP config files")}>
          {state.errors.map((error) => (
            <li key={error} className="mcp-error">
              {error}
            </li>
          ))}
        </ul>
      )}
      {state.servers.length === 0 ? (
        <p className="mcp-muted" data-testid="mcp-empty">
          {l10n.t("No MCP servers yet. Add one below, or write it in {0} or the global file.", PROJECT_FILE)}
        </p>
      ) : (
        state.servers.map((server) => <ServerCard key={`${server.source}:${server.name}`} server={server} ask={store.ask} />)
      )}
      <AddServerForm ask={store.ask} hasProject={state.files.project !== undefined} />
      {page.last && (
        <p className={page.last.ok ? "mcp-muted" : "mcp-error"} role="status" data-testid="mcp-status">
          {page.last.message}
        </p>
      )}
    </div>
  );
}

function FileButton({ scope, file, ask }: { scope: McpScope; file: McpFileInfo | undefined; ask: McpAsk }) {
  const fresh = file !== undefined && !file.exists;
  const label = scope === "project" ? (fresh ? l10n.t("Project file (new)") : l10n.t("Project file")) : fresh ? l10n.t("Global file (new)") : l10n.t("Global file");
  const why = file ? (file.exists ? file.path : l10n.t("{0} (made when opened)", file.path)) : l10n.t("Open a folder to have a project file");
  return (
    <button type="button" className="secondary" title={why} disabled={!file} data-testid={`mcp-open-${scope}`} onClick={() => void ask("mcp/openFile", { scope })}>
      {label}
    </button>
  );
}
