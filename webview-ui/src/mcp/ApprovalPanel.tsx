import type { ReactNode } from "react";
import type { McpBlocked, McpShownValue } from "../../../src/shared/mcpView";
import { commandLine } from "../../../src/shared/commandLine";
import type { McpAsk } from "./mcpStore";

const WHY: Record<McpBlocked["reason"], string> = {
  "not-approved": "Not started. This server comes from the project's .kilocode/mcp.json, so Kiln runs it only once you allow it. Check what it would run:",
  changed: "Not started. Its entry in .kilocode/mcp.json changed since you allowed it. Check what it would run now:",
  "untrusted-workspace": "Not started: this workspace is not trusted, and Kiln starts no server of its .kilocode/mcp.json in Restricted Mode. It would run:",
};

/** The badge of a server that was not started: why, in two words. */
export function blockedLabel(blocked: McpBlocked): string {
  return blocked.reason === "untrusted-workspace" ? "not trusted" : "needs approval";
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
      <p className="mcp-approval-why">{WHY[blocked.reason]}</p>
      <dl className="mcp-launch">
        {launch.url !== undefined ? (
          <Field label="URL" testid="mcp-launch-url">
            <code>{launch.url}</code>
          </Field>
        ) : (
          <Field label="Command" testid="mcp-launch-command">
            <code>{commandLine(launch.command ?? "", launch.args)}</code>
          </Field>
        )}
        {launch.cwd !== undefined && (
          <Field label="In folder" testid="mcp-launch-cwd">
            <code>{launch.cwd}</code>
          </Field>
        )}
        {launch.env.length > 0 && <Values label="Environment" testid="mcp-launch-env" values={launch.env} />}
        {launch.headers.length > 0 && <Values label="Headers" testid="mcp-launch-headers" values={launch.headers} />}
      </dl>
      <div className="mcp-buttons">
        {untrusted ? (
          <button type="button" data-testid="mcp-manage-trust" onClick={() => void request("mcp/manageTrust", {})}>
            Manage Workspace Trust
          </button>
        ) : (
          <button type="button" data-testid="mcp-allow" aria-label={`Allow and start ${name}`} onClick={() => void request("mcp/approve", { server: name, fingerprint: blocked.fingerprint })}>
            Allow and start
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
                <code>{v.name}</code> <span className="mcp-muted">hidden ({v.length} characters)</span>
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
