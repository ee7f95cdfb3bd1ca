import * as l10n from "@vscode/l10n";
import { useState } from "react";
import type { McpServerView, McpToolInfo } from "../../../src/shared/mcpView";
import type { McpScope } from "../../../src/shared/protocol/mcp";
import { ConfirmBar } from "../settings/ConfirmBar";
import { useLatestAnswer } from "../settings/useSaveRequest";
import { ApprovalPanel, blockedLabel } from "./ApprovalPanel";
import type { McpAsk } from "./mcpStore";

/** The project's config file, as its path reads. */
export const PROJECT_FILE = ".kilocode/mcp.json";
/** The global config file's name (it lives in the extension's storage). */
export const GLOBAL_FILE = "mcp_settings.json";

/** The config file of a scope, as a label: the project's by its path, the global one by name. */
export function fileLabel(scope: McpScope): string {
  return scope === "project" ? PROJECT_FILE : l10n.t("global {0}", GLOBAL_FILE);
}

function transportLabel(transport: McpServerView["transport"]): string {
  switch (transport) {
    case "stdio":
      return l10n.t("stdio (local command)");
    case "sse":
      return l10n.t("SSE");
    case "streamable-http":
      return l10n.t("streamable HTTP");
  }
}

function stateLabel(state: McpServerView["state"]): string {
  switch (state) {
    case "connecting":
      return l10n.t("connecting");
    case "connected":
      return l10n.t("connected");
    case "error":
      return l10n.t("error");
    case "disabled":
      return l10n.t("disabled");
    case "needs-approval":
      return l10n.t("needs approval");
  }
}

const LOG_TAIL = 50;

/** Sends a request and keeps the answer to the latest one, so the card can show what the host answered. */
function useRequests(ask: McpAsk) {
  const [answer, track] = useLatestAnswer();
  const request: McpAsk = (method, params) => {
    const answered = ask(method, params);
    track(answered);
    return answered;
  };
  return { failed: answer && !answer.ok ? answer : undefined, request };
}

/** One server: its state, what it offers, its log, and the buttons that change its entry. */
export function ServerCard({ server, ask }: { server: McpServerView; ask: McpAsk }) {
  const [confirming, setConfirming] = useState(false);
  const { failed, request } = useRequests(ask);
  const name = server.name;
  const disabled = server.state === "disabled";
  const blocked = server.blocked;
  return (
    <section className="mcp-server" data-testid="mcp-server" data-name={name} data-state={server.state} aria-label={l10n.t("MCP server {0}", name)}>
      <header className="mcp-server-head">
        <h3 className="mcp-name">{name}</h3>
        <span className={`mcp-state mcp-state-${server.state}`} data-testid="mcp-state">
          {blocked ? blockedLabel(blocked) : stateLabel(server.state)}
        </span>
      </header>
      <p className="mcp-meta">
        {transportLabel(server.transport)} · {fileLabel(server.source)}
      </p>
      {blocked ? (
        <ApprovalPanel name={name} blocked={blocked} request={request} />
      ) : (
        server.error && (
          <p className="mcp-error" data-testid="mcp-server-error">
            {server.error}
          </p>
        )
      )}
      <div className="mcp-buttons">
        {/* A server that needs approval has nothing to restart. */}
        {!blocked && (
          <button type="button" className="secondary" disabled={disabled} onClick={() => void request("mcp/restart", { server: name })}>
            {l10n.t("Restart")}
          </button>
        )}
        <button type="button" className="secondary" data-testid="mcp-toggle-server" onClick={() => void request("mcp/setDisabled", { server: name, disabled: !disabled })}>
          {disabled ? l10n.t("Enable") : l10n.t("Disable")}
        </button>
        <button
          type="button"
          className="secondary"
          title={server.source === "project" ? l10n.t("Open {0} at this server", PROJECT_FILE) : l10n.t("Open global {0} at this server", GLOBAL_FILE)}
          onClick={() => void request("mcp/edit", { server: name })}
        >
          {l10n.t("Edit")}
        </button>
        <button type="button" className="secondary" data-testid="mcp-delete" onClick={() => setConfirming(true)}>
          {l10n.t("Delete")}
        </button>
      </div>
      {confirming && (
        <ConfirmBar
          text={server.source === "project" ? l10n.t("Delete {0} from {1}?", name, PROJECT_FILE) : l10n.t("Delete {0} from global {1}?", name, GLOBAL_FILE)}
          confirmLabel={l10n.t("Delete")}
          cancelLabel={l10n.t("Keep it")}
          onConfirm={() => {
            setConfirming(false);
            void request("mcp/delete", { server: name });
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      {failed && (
        <p className="mcp-error" role="alert">
          {failed.message}
        </p>
      )}
      {server.tools.length > 0 && <Tools server={name} tools={server.tools} ask={ask} />}
      <Offers server={server} />
      {/* A server that never ran has no log worth a line. */}
      {!(blocked && server.log.length === 0) && (
        <details className="mcp-log" data-testid="mcp-log">
          <summary>{server.log.length === 1 ? l10n.t("Log (1 line)") : l10n.t("Log ({0} lines)", server.log.length)}</summary>
          <pre>{server.log.slice(-LOG_TAIL).join("\n") || l10n.t("(empty)")}</pre>
        </details>
      )}
    </section>
  );
}

function Tools({ server, tools, ask }: { server: string; tools: McpToolInfo[]; ask: McpAsk }) {
  return (
    <div className="mcp-tools" data-testid="mcp-tools">
      <h4>{l10n.t("Tools ({0})", tools.length)}</h4>
      <ul>
        {tools.map((tool) => (
          <ToolRow key={tool.name} server={server} tool={tool} ask={ask} />
        ))}
      </ul>
    </div>
  );
}

/** A checkbox shows the click at once, then whatever the host says once it has answered that request. */
function usePending(actual: boolean): [boolean, (value: boolean, answered: Promise<unknown>) => void] {
  const [pending, setPending] = useState<{ value: boolean } | undefined>();
  const shown = pending ? pending.value : actual;
  return [
    shown,
    (value, answered) => {
      const mine = { value };
      setPending(mine);
      void answered.then(() => setPending((current) => (current === mine ? undefined : current)));
    },
  ];
}

function ToolRow({ server, tool, ask }: { server: string; tool: McpToolInfo; ask: McpAsk }) {
  const { failed, request } = useRequests(ask);
  const [enabled, setEnabled] = usePending(tool.enabled);
  const [always, setAlways] = usePending(tool.alwaysAllow);
  const set = (flag: "enabled" | "alwaysAllow", value: boolean) => {
    const answered = request("mcp/setTool", { server, tool: tool.name, flag, value });
    (flag === "enabled" ? setEnabled : setAlways)(value, answered);
  };
  return (
    <li className="mcp-tool" data-testid="mcp-tool" data-name={tool.name}>
      <div className="mcp-tool-text">
        <span className="mcp-tool-name">{tool.name}</span>
        {tool.description && <span className="mcp-muted">{tool.description}</span>}
      </div>
      <div className="mcp-switches">
        <label className="mcp-check" title={l10n.t("Offer this tool to the model")}>
          <input type="checkbox" data-testid="tool-enabled" aria-label={l10n.t("Use {0}", tool.name)} checked={enabled} onChange={(e) => set("enabled", e.target.checked)} />
          {l10n.t("Use")}
        </label>
        <label className="mcp-check" title={l10n.t("Run this tool without asking")}>
          <input
            type="checkbox"
            data-testid="tool-always-allow"
            aria-label={l10n.t("Always allow {0}", tool.name)}
            checked={always}
            disabled={!enabled}
            onChange={(e) => set("alwaysAllow", e.target.checked)}
          />
          {l10n.t("Always allow")}
        </label>
      </div>
      {failed && (
        <p className="mcp-error" role="alert">
          {failed.message}
        </p>
      )}
    </li>
  );
}

/** Resources, templates, prompts and the server's instructions, folded: they can be long. */
function Offers({ server }: { server: McpServerView }) {
  const lists = [
    {
      title: (n: number) => l10n.t("Resources ({0})", n),
      testid: "mcp-resources",
      items: server.resources.map((r) => ({ key: r.uri, name: r.name ?? r.uri, detail: r.name ? r.uri : undefined, description: r.description })),
    },
    {
      title: (n: number) => l10n.t("Resource templates ({0})", n),
      testid: "mcp-templates",
      items: server.templates.map((t) => ({ key: t.uriTemplate, name: t.name ?? t.uriTemplate, detail: t.name ? t.uriTemplate : undefined, description: t.description })),
    },
    { title: (n: number) => l10n.t("Prompts ({0})", n), testid: "mcp-prompts", items: server.prompts.map((p) => ({ key: p.name, name: p.name, detail: undefined, description: p.description })) },
  ];
  return (
    <>
      {lists
        .filter((list) => list.items.length > 0)
        .map((list) => (
          <details key={list.testid} className="mcp-offers" data-testid={list.testid}>
            <summary>{list.title(list.items.length)}</summary>
            <ul>
              {list.items.map((item) => (
                <li key={item.key}>
                  <span className="mcp-tool-name">{item.name}</span>
                  {item.detail && <code className="mcp-muted"> {item.detail}</code>}
                  {item.description && <div className="mcp-muted">{item.description}</div>}
                </li>
              ))}
            </ul>
          </details>
        ))}
      {server.instructions && (
        <details className="mcp-offers">
          <summary>{l10n.t("Instructions")}</summary>
          <pre>{server.instructions}</pre>
        </details>
      )}
    </>
  );
}
