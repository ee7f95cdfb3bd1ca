import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { Emitter, type Event } from "../../shared/disposable";
import type { Logger } from "../ports";
import { McpConnection, errorText, type ReconnectClock } from "./connection";
import { formatResourceResult, formatToolResult } from "./format";
import { McpRequestRefused, type McpClientRequests } from "./requests";
import type { McpCallHooks, McpCallResult, McpHubApi, McpServerConfig, McpServerView } from "./types";

export interface McpHubOptions {
  logger: Logger;
  /** The workspace folders as paths, answered to the servers' roots/list. */
  roots: () => string[];
  clientInfo: { name: string; version: string };
  /** Who answers servers' sampling and elicitation requests; without it neither is declared. */
  requests?: McpClientRequests;
  /** Times the reconnect backoff; the system clock by default (tests pass their own). */
  clock?: ReconnectClock;
}

/**
 * Keeps one connection per configured MCP server. Core code: no vscode import; the host feeds it
 * configs (config.ts) and shows servers(). Calls refuse clearly instead of throwing protocol noise.
 */
export class McpHub implements McpHubApi {
  private readonly connections = new Map<string, McpConnection>();
  private readonly changeEmitter = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changeEmitter.event;
  private disposed = false;
  private requests: McpClientRequests | undefined;
  /** Per server, the tool calls in flight, the latest last: their callers' tags, and a signal of their end. */
  private readonly calls = new Map<string, { caller: unknown; ended: AbortController }[]>();

  constructor(private readonly options: McpHubOptions) {
    this.requests = options.requests;
  }

  /**
   * For hosts that build the hub before whoever answers the requests: servers connected already
   * reconnect, since capabilities are declared when a connection starts.
   */
  async setRequests(requests: McpClientRequests | undefined): Promise<void> {
    this.requests = requests;
    await Promise.all([...this.connections.values()].filter((c) => !c.config.disabled).map((c) => c.restart()));
  }

  /**
   * Brings the connections in line with `configs`: new servers connect, removed ones close, changed
   * ones reconnect; servers whose entry is unchanged keep running. Resolves once removed/changed
   * servers are closed (new connections continue in the background; watch onDidChange).
   */
  async update(configs: McpServerConfig[]): Promise<void> {
    if (this.disposed) return;
    const wanted = new Map<string, McpServerConfig>();
    for (const c of configs) {
      // config.ts reports duplicates; if any slip through, the first one (the project's) wins.
      if (!wanted.has(c.name)) wanted.set(c.name, c);
    }
    const closing: Promise<void>[] = [];
    for (const [name, conn] of this.connections) {
      if (!wanted.has(name)) {
        this.connections.delete(name);
        closing.push(conn.close());
      }
    }
    for (const [name, config] of wanted) {
      const existing = this.connections.get(name);
      if (existing && deepEqual(existing.config, config)) continue;
      if (existing && deepEqual(withoutLiveFields(existing.config), withoutLiveFields(config))) {
        // Only tool flags or the timeout changed: apply them without dropping the server.
        existing.setConfig(config);
        continue;
      }
      if (existing) closing.push(existing.close());
      const conn = new McpConnection(config, {
        logger: this.options.logger,
        roots: this.options.roots,
        clientInfo: this.options.clientInfo,
        requests: () => this.requestsFor(name),
        ...(this.options.clock && { clock: this.options.clock }),
        changed: () => {
          if (this.connections.get(name) === conn) this.changeEmitter.fire();
        },
      });
      this.connections.set(name, conn);
      conn.start();
    }
    this.changeEmitter.fire();
    await Promise.all(closing);
  }

  servers(): McpServerView[] {
    return [...this.connections.values()].map((c) => c.view());
  }

  /** Reconnects one server now (the user's "restart" button, or a watched file changed). */
  async restart(name: string): Promise<void> {
    const conn = this.connections.get(name);
    if (!conn) throw new Error(`Unknown MCP server "${name}".`);
    await conn.restart();
  }

  /** The host calls this when workspace folders change; servers then re-read roots/list. */
  async rootsChanged(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.rootsChanged()));
  }

  /** For tests and diagnostics: the pid of a stdio server's child process. */
  pidOf(name: string): number | undefined {
    return this.connections.get(name)?.pid;
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal, hooks: McpCallHooks = {}): Promise<McpCallResult> {
    const conn = this.connectionFor(server);
    const client = conn.connectedClient();
    if (client instanceof Error) throw client;
    const info = conn.toolInfo(tool);
    if (!info) {
      const known = conn.view().tools.map((t) => t.name);
      throw new Error(`MCP server "${server}" has no tool "${tool}". Its tools: ${known.join(", ") || "(none)"}.`);
    }
    if (!info.enabled) throw new Error(`The tool "${tool}" of MCP server "${server}" is disabled in the settings.`);
    const timeoutSeconds = conn.config.timeoutSeconds;
    const calls = this.calls.get(server) ?? [];
    this.calls.set(server, calls);
    const call = { caller: hooks.caller, ended: new AbortController() };
    calls.push(call);
    const onProgress = hooks.onProgress;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutSeconds * 1000,
        ...(signal && { signal }),
        // A long operation that keeps reporting progress is alive: each report restarts the timeout.
        ...(onProgress && { onprogress: (p) => onProgress({ progress: p.progress, total: p.total, message: p.message }), resetTimeoutOnProgress: true }),
      });
      return formatToolResult(result as Record<string, unknown>);
    } catch (err) {
      throw explain(err, `MCP server "${server}", tool "${tool}"`, timeoutSeconds, signal);
    } finally {
      calls.splice(calls.indexOf(call), 1);
      // A card still asking for this call (it was cancelled or timed out) has nothing left to answer.
      call.ended.abort(new McpRequestRefused(`The call of "${tool}" that made the request has ended.`));
    }
  }

  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpCallResult> {
    const conn = this.connectionFor(server);
    const client = conn.connectedClient();
    if (client instanceof Error) throw client;
    if (!client.getServerCapabilities()?.resources) throw new Error(`MCP server "${server}" offers no resources.`);
    const timeoutSeconds = conn.config.timeoutSeconds;
    try {
      const result = await client.readResource({ uri }, { timeout: timeoutSeconds * 1000, ...(signal && { signal }) });
      return formatResourceResult(result);
    } catch (err) {
      throw explain(err, `MCP server "${server}", resource "${uri}"`, timeoutSeconds, signal);
    }
  }

  /** Closes every connection; stdio children are ended and awaited, so none is left behind. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
    this.changeEmitter.dispose();
  }

  /**
   * The requests of one server, taken to belong to its latest call in flight: they carry its
   * caller's tag and end with it.
   */
  private requestsFor(server: string): McpClientRequests | undefined {
    const requests = this.requests;
    if (!requests) return undefined;
    const during = (signal: AbortSignal) => {
      const call = this.calls.get(server)?.at(-1);
      return { caller: call?.caller, signal: call ? AbortSignal.any([signal, call.ended.signal]) : signal };
    };
    return {
      sample: (request, signal) => {
        const call = during(signal);
        return requests.sample({ ...request, caller: call.caller }, call.signal);
      },
      elicit: (request, signal) => {
        const call = during(signal);
        return requests.elicit({ ...request, caller: call.caller }, call.signal);
      },
    };
  }

  private connectionFor(server: string): McpConnection {
    const conn = this.connections.get(server);
    if (!conn) {
      const known = [...this.connections.keys()];
      throw new Error(`Unknown MCP server "${server}". Configured servers: ${known.join(", ") || "(none)"}.`);
    }
    return conn;
  }
}

/** Turns SDK errors into messages the model and the user can act on. */
function explain(err: unknown, what: string, timeoutSeconds: number, signal: AbortSignal | undefined): Error {
  // The SDK reports a cancel as a timeout too; the caller's signal tells them apart.
  if (signal?.aborted) return new Error(`${what}: cancelled; the server was told to stop.`);
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return new Error(`${what}: no answer within ${timeoutSeconds} s (the server's timeout); the request was cancelled.`);
  }
  return new Error(`${what}: ${errorText(err)}`);
}

/** The fields a running connection can take on without reconnecting. */
function withoutLiveFields(c: McpServerConfig): Omit<McpServerConfig, "alwaysAllow" | "disabledTools" | "timeoutSeconds"> {
  const { alwaysAllow: _a, disabledTools: _d, timeoutSeconds: _t, ...rest } = c;
  return rest;
}

/** Structural equality for plain JSON-like config data (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual(ra[k], rb[k]));
}
