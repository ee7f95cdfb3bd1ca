import type { HostToMcpView, McpViewState } from "../../../src/shared/protocol/mcp";
import type { Result } from "../settings/model";
import { send } from "../vscodeApi";

export interface McpPage {
  /** Which view the sidebar shows; the chat stays mounted under the MCP view, so a draft is kept. */
  view: "chat" | "mcp" | "history";
  state: McpViewState | undefined;
  /** Answers by request id: a button or form shows the one for its own request. */
  results: ReadonlyMap<string, Result>;
  /** The latest answer, for the status line. */
  last: Result | undefined;
}

/** The MCP view's part of the chat page: what the host last sent, and which view is shown. */
export class McpStore {
  private page: McpPage = { view: "chat", state: undefined, results: new Map(), last: undefined };
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
      case "mcp/result": {
        const result: Result = { ok: message.ok, message: message.message, ...(message.field ? { field: message.field } : {}) };
        const results = new Map(this.page.results);
        results.set(message.requestId, result);
        return this.set({ ...this.page, results, last: result });
      }
    }
  }

  private set(page: McpPage): void {
    this.page = page;
    for (const listener of [...this.listeners]) listener();
  }
}
