import * as l10n from "@vscode/l10n";
import type { ReactNode } from "react";
import type { McpBlocked, McpShownValue } from "../../../src/shared/mcpView";
import { commandLine } from "../../../src/shared/commandLine";
import type { McpAsk } from "./mcpStore";

/** The file a project server comes from (ServerCard's PROJECT_FILE; not imported, as that module imports this one). */
const PROJECT_FILE = ".kilocode/mcp.json";

/** Why a server was not started, and what follows (what it would run). */
function why(reason: McpBlocked["reason"]): string {
  switch (reason) {
    case "not-approved":
      return l10n.t("Not started. This server comes from the project's {0}, so Kiln runs it only once you allow it. Check what it would run:", PROJECT_FILE);
    case "changed":
      return l10n.t("Not started. Its entry in {0} changed since you allowed it. Check what it would run now:", PROJECT_FILE);
    case "untrusted-workspace":
      return l10n.t("Not started: this workspace is not trusted, and Kiln starts no server of its {0} in Restricted Mode. It would run:", PROJECT_FILE);
  }
}

/** The badge of a server that was not started: why, in two words. */
export function blockedLabel(blocked: McpBlocked): string {
  return blocked.reason === "untrusted-workspace" ? l10n.t("not trusted") : l10n.t("needs approval");
}

/**
 * What a project server that needs approval would run, exactly as its file writes it, and the
 * button that allows it. The host masked secret-looking values before they reached this page.
 */
export function ApprovalPanel({ name, blocked, request }: { name: string; blocked: McpBlocked; request: McpAsk }) {
  const launch = blocked.launch;
  const untrusted = blocked.reason === "untrusted-workspace";
  return (
    <div className="mcp-approval" data-testid="mcp-approval" data-reason={blocked.reason}>
      <p className="mcp-approval-why">{why(blocked.reason)}</p>
      <dl className="mcp-launch">
        {launch.url !== undefined ? (
          <Field label={l10n.t("URL")} testid="mcp-launch-url">
            <code>{launch.url}</code>
          </Field>
        ) : (
          <Field label={l10n.t("Command")} testid="mcp-launch-command">
            <code>{commandLine(launch.command ?? "", launch.args)}</code>
          </Field>
        )}
        {launch.cwd !== undefined && (
          <Field label={l10n.t("In folder")} testid="mcp-launch-cwd">
            <code>{launch.cwd}</code>
          </Field>
        )}
        {launch.env.length > 0 && <Values label={l10n.t("Environment")} testid="mcp-launch-env" values={launch.env} />}
        {launch.headers.length > 0 && <Values label={l10n.t("Headers")} testid="mcp-launch-headers" values={launch.headers} />}
      </dl>
      <div className="mcp-buttons">
        {untrusted ? (
          <button type="button" data-testid="mcp-manage-trust" onClick={() => void request("mcp/manageTrust", {})}>
            {l10n.t("Manage Workspace Trust")}
          </button>
        ) : (
          <button
            type="button"
            data-testid="mcp-allow"
            aria-label={l10n.t("Allow and start {0}", name)}
            onClick={() => void request("mcp/approve", { server: name, fingerprint: blocked.fingerprint })}
          >
            {l10n.t("Allow and start")}
          </button>
        )}
      </div>
    </div>
  );
}

function Field({ label, testid, children }: { label: string; testid: string; children: ReactNode }) {
  return (
    <div className="mcp-launch-field" data-testid={testid}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** NAME=value per line; a masked value shows only that it is there and how long it is. */
function Values({ label, testid, values }: { label: string; testid: string; values: McpShownValue[] }) {
  return (
    <Field label={label} testid={testid}>
      <ul>
        {values.map((v) => (
          <li key={v.name}>
            {v.value === undefined ? (
              <>
                <code>{v.name}</code> <span className="mcp-muted">{v.length === 1 ? l10n.t("hidden (1 character)") : l10n.t("hidden ({0} characters)", v.length)}</span>
              </>
            ) : (
              <code>
                {v.name}={v.value}
              </code>
            )}
          </li>
        ))}
      </ul>
    </Field>
  );
}
