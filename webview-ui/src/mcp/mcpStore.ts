import type { HostToMcpView, McpMethod, McpRequests, McpViewState } from "../../../src/shared/protocol/mcp";
import { RequestError, type Done, type ParamsOf } from "../../../src/shared/protocol/requests";
import { request } from "../chatRequests";
import type { Result } from "../settings/model";
import { send } from "../vscodeApi";

/** Sends one of the MCP view's requests; resolves with the host's answer (never rejects). */
export type McpAsk = <K extends McpMethod>(method: K, params: ParamsOf<McpRequests, K>) => Promise<Result>;

export interface McpPage {
  /** Which view the sidebar shows; the chat stays mounted under the MCP view, so a draft is kept. */
  view: "chat" | "mcp" | "history";
  state: McpViewState | undefined;
  /** The latest answer, for the status line. */
  last: Result | undefined;
}

/** The MCP view's part of the chat page: what the host last sent, and which view is shown. */
export class McpStore {
  private page: McpPage = { view: "chat", state: undefined, last: undefined };
  private readonly listeners = new Set<() => void>();

  get = (): McpPage => this.page;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Shows a view; the host sends MCP states only while the MCP view is shown. */
  show(view: McpPage["view"]): void {
    if (view === this.page.view) return;
    if (this.page.view === "mcp") send({ type: "mcp/close" });
    if (view === "mcp") send({ type: "mcp/open" });
    if (view === "history") send({ type: "history/open" });
    this.set({ ...this.page, view });
  }

  apply(message: HostToMcpView): void {
    switch (message.type) {
      case "mcp/show":
        return this.show("mcp");
      case "mcp/state":
        return this.set({ ...this.page, state: message.state });
    }
  }

  /** A button or form shows the answer to its own request; the status line shows the latest. */
  ask: McpAsk = async (method, params) => {
    let result: Result;
    try {
      result = { ok: true, message: ((await request(method, params)) as Done).message };
    } catch (err) {
      const field = err instanceof RequestError ? err.field : undefined;
      result = { ok: false, message: err instanceof Error ? err.message : String(err), ...(field ? { field } : {}) };
    }
    this.set({ ...this.page, last: result });
    return result;
  };

  private set(page: McpPage): void {
    this.page = page;
    for (const listener of [...this.listeners]) listener();
  }
}
