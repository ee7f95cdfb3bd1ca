import * as l10n from "@vscode/l10n";
import { useCallback, useState, type FormEvent } from "react";
import type { McpScope, McpServerForm } from "../../../src/shared/protocol/mcp";
import { checkServerForm } from "../../../src/shared/protocol/mcpForm";
import type { Result } from "../settings/model";
import { useSaveRequest } from "../settings/useSaveRequest";
import type { McpAsk } from "./mcpStore";
import { GLOBAL_FILE, PROJECT_FILE } from "./ServerCard";

interface Draft {
  name: string;
  scope: McpScope;
  transport: McpServerForm["transport"];
  command: string;
  /** One argument per line. */
  args: string;
  url: string;
  /** NAME=value, one per line. */
  env: string;
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The draft as the protocol's form, or the line of the env box that is not NAME=value. */
function toForm(draft: Draft): McpServerForm | Result {
  const env: McpServerForm["env"] = [];
  for (const line of draft.transport === "stdio" ? lines(draft.env) : []) {
    const at = line.indexOf("=");
    if (at <= 0) return { ok: false, field: "env", message: l10n.t('"{0}" is not NAME=value', line) };
    env.push({ name: line.slice(0, at).trim(), value: line.slice(at + 1) });
  }
  return { name: draft.name, scope: draft.scope, transport: draft.transport, command: draft.command, args: lines(draft.args), url: draft.url, env };
}

/**
 * "Add server": checked here as far as the page can (the same checks as the host), then by the
 * host as the file loader reads an entry; a refusal names its field and keeps what was typed.
 */
export function AddServerForm({ ask, hasProject }: { ask: McpAsk; hasProject: boolean }) {
  const empty = useCallback((): Draft => ({ name: "", scope: hasProject ? "project" : "global", transport: "stdio", command: "", args: "", url: "", env: "" }), [hasProject]);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(empty);
  const done = useCallback(() => {
    setDraft(empty());
    setOpen(false);
  }, [empty]);
  const save = useSaveRequest(done);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    "aria-invalid": save.error?.field === name || undefined,
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });

  if (!open) {
    return (
      <button type="button" data-testid="mcp-add-open" onClick={() => setOpen(true)}>
        {l10n.t("Add server")}
      </button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const form = toForm(draft);
    if (!("scope" in form)) return save.refuse(form.field ?? "env", form.message);
    const checked = checkServerForm(form);
    if (!checked.ok) return save.refuse(checked.field, checked.message);
    save.submit(ask("mcp/add", { form }));
  };
  const stdio = draft.transport === "stdio";
  return (
    <form className="mcp-add" data-testid="mcp-add-form" aria-label={l10n.t("Add an MCP server")} onSubmit={submit} noValidate>
      <h3>{l10n.t("Add server")}</h3>
      <label>
        {l10n.t("Name")}
        <input {...field("name")} data-testid="mcp-add-name" placeholder="github" />
      </label>
      <label>
        {l10n.t("File")}
        <select {...field("scope")} data-testid="mcp-add-scope">
          <option value="project" disabled={!hasProject}>
            {l10n.t("Project ({0})", PROJECT_FILE)}
          </option>
          <option value="global">{l10n.t("Global (global {0})", GLOBAL_FILE)}</option>
        </select>
      </label>
      <label>
        {l10n.t("Transport")}
        <select {...field("transport")} data-testid="mcp-add-transport">
          <option value="stdio">{l10n.t("stdio: a command Kiln starts")}</option>
          <option value="streamable-http">{l10n.t("Streamable HTTP: a URL")}</option>
          <option value="sse">{l10n.t("SSE: a URL (older servers)")}</option>
        </select>
      </label>
      {stdio ? (
        <>
          <label>
            {l10n.t("Command")}
            <input {...field("command")} data-testid="mcp-add-command" placeholder="npx" />
          </label>
          <label>
            {l10n.t("Arguments, one per line")}
            <textarea {...field("args")} data-testid="mcp-add-args" rows={3} placeholder={"-y\n@modelcontextprotocol/server-github"} />
          </label>
          <label>
            {l10n.t("Environment, NAME=value per line (optional; {0} passes on one of Kiln's own)", "${env:NAME}")}
            <textarea {...field("env")} data-testid="mcp-add-env" rows={2} placeholder="GITHUB_TOKEN=${env:GITHUB_TOKEN}" />
          </label>
        </>
      ) : (
        <label>
          {l10n.t("URL")}
          <input {...field("url")} data-testid="mcp-add-url" placeholder="https://example.com/mcp" />
        </label>
      )}
      {save.error && (
        <p className="mcp-error" role="alert" data-testid="mcp-add-error" data-field={save.error.field}>
          {save.error.field ? `${save.error.field}: ` : ""}
          {save.error.message}
        </p>
      )}
      <div className="mcp-buttons">
        <button type="submit" data-testid="mcp-add-save">
          {l10n.t("Add")}
        </button>
        <button type="button" className="secondary" onClick={done}>
          {l10n.t("Cancel")}
        </button>
      </div>
    </form>
  );
}
