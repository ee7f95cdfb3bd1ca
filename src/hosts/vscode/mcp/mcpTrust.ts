import type * as vscode from "vscode";
import type { McpTrustStore } from "../../../core/mcp/trust";

/** globalState key: workspace folder URI -> server name -> the fingerprint the user allowed. */
const KEY = "kiln.mcp.approvedServers";
type Approvals = Record<string, Record<string, string>>;

/**
 * Approvals of project MCP servers in the extension's globalState: outside the workspace, so a
 * repository cannot ship its own approvals, and kept across windows and restarts.
 */
export class GlobalStateMcpTrust implements McpTrustStore {
  constructor(private readonly state: vscode.Memento) {}

  approvedFingerprint(workspaceKey: string, server: string): string | undefined {
    const fingerprint = this.all()[workspaceKey]?.[server];
    return typeof fingerprint === "string" ? fingerprint : undefined;
  }

  approve(workspaceKey: string, server: string, fingerprint: string): Promise<void> {
    const all = this.all();
    return this.save({ ...all, [workspaceKey]: { ...all[workspaceKey], [server]: fingerprint } });
  }

  revoke(workspaceKey: string, server: string): Promise<void> {
    const all = this.all();
    const { [server]: _gone, ...rest } = all[workspaceKey] ?? {};
    return this.save({ ...all, [workspaceKey]: rest });
  }

  private all(): Approvals {
    const value = this.state.get<unknown>(KEY);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Approvals) : {};
  }

  private async save(all: Approvals): Promise<void> {
    await this.state.update(KEY, all);
  }
}
