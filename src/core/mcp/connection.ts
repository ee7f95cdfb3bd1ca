import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ListRootsRequestSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../ports";
import { clientCapabilities, installRequestHandlers } from "./clientRequests";
import { cap } from "./format";
import { stdioServerEnv } from "./serverEnv";
import { blockedText } from "./trust";
import type { McpClientRequests } from "./requests";
import type { McpServerConfig, McpServerState, McpServerView, McpToolInfo } from "./types";

/** The least time a server gets to start and answer `initialize`, whatever its call timeout. */
const CONNECT_TIMEOUT_SECONDS = 60;

/** Limits on what we keep of a server's answers, since the lists end up in the prompt and the UI. */
const LOG_LINES = 100;
const LOG_LINE_CHARS = 1_000;
const DESCRIPTION_CHARS = 2_000;
const NAME_CHARS = 200;
const INSTRUCTIONS_CHARS = 8_000;
const MAX_ITEMS = 500;
const MAX_PAGES = 20;
/**
 * Reconnect delays: 1 s, 2 s, 4 s … up to 30 s. The delay grows with each failure in a row and goes
 * back to 1 s only after a connection has stayed up STABLE_CONNECTION_MS, so a server that crashes
 * right after connecting is not restarted every second forever.
 */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
export const STABLE_CONNECTION_MS = 30_000;

/** Time as the reconnect backoff sees it; tests pass their own. */
export interface ReconnectClock {
  now(): number;
  /** Runs `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: ReconnectClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    // A pending reconnect must not keep a CLI process alive on its own.
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

export interface ConnectionContext {
  logger: Logger;
  roots: () => string[];
  clientInfo: { name: string; version: string };
  /** Who answers the server's sampling and elicitation requests; read at each (re)connect. */
  requests?: () => McpClientRequests | undefined;
  /** Called on any change visible in the view (state, lists, log). */
  changed: () => void;
  /** For the reconnect backoff; the system clock by default. */
  clock?: ReconnectClock;
}

/** One server: its client, its state and what it offers; reconnects itself when the link drops. */
export class McpConnection {
  private state: McpServerState = "connecting";
  private error: string | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private tools: McpToolInfo[] = [];
  private resources: McpServerView["resources"] = [];
  private templates: McpServerView["templates"] = [];
  private prompts: McpServerView["prompts"] = [];
  private instructions: string | undefined;
  private readonly log: string[] = [];
  private stderrPartial = "";
  /** Bumped on every (re)connect and on close so callbacks of an old client do nothing. */
  private generation = 0;
  /** Failures since the last connection that stayed up STABLE_CONNECTION_MS (or since a restart). */
  private attempts = 0;
  /** When the current connection came up; undefined while not connected. */
  private connectedAt: number | undefined;
  private cancelRetry: (() => void) | undefined;
  private closed = false;

  constructor(
    public config: McpServerConfig,
    private readonly ctx: ConnectionContext,
  ) {}

  start(): void {
    if (this.config.disabled) {
      this.state = "disabled";
      this.ctx.changed();
      return;
    }
    // The one way to a connect (a restart and a watched file come here too): a blocked entry runs nothing.
    if (this.config.blocked) {
      this.state = "needs-approval";
      this.error = blockedText(this.config.blocked.reason);
      this.ctx.changed();
      return;
    }
    void this.connect();
  }

  /** Applies alwaysAllow/disabledTools/timeout changes that need no reconnect. */
  setConfig(config: McpServerConfig): void {
    this.config = config;
    this.tools = this.tools.map((t) => this.toolFlags(t));
    this.ctx.changed();
  }

  /** The connected client, or an Error that says why there is none. */
  connectedClient(): Client | Error {
    if (this.state === "connected" && this.client) return this.client;
    if (this.state === "disabled") return new Error(`MCP server "${this.config.name}" is disabled.`);
    if (this.state === "needs-approval") return new Error(`MCP server "${this.config.name}" was not started: ${this.error ?? "it needs approval"}.`);
    const why = this.state === "error" ? `: ${this.error ?? "unknown error"}` : " (still connecting)";
    return new Error(`MCP server "${this.config.name}" is not connected${why}.`);
  }

  toolInfo(name: string): McpToolInfo | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /** The pid of the stdio child, if any (tests check it is gone after close). */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  view(): McpServerView {
    const c = this.config;
    return {
      name: c.name,
      source: c.source,
      transport: c.transport,
      state: this.state,
      ...(this.error !== undefined && { error: this.error }),
      ...(c.blocked && { blocked: c.blocked }),
      tools: this.tools.map((t) => ({ ...t })),
      resources: this.resources.map((r) => ({ ...r })),
      templates: this.templates.map((t) => ({ ...t })),
      prompts: this.prompts.map((p) => ({ ...p })),
      ...(this.instructions !== undefined && { instructions: this.instructions }),
      log: [...this.log],
    };
  }

  /** Tells a connected server that the workspace folders changed, so it asks roots/list again. */
  async rootsChanged(): Promise<void> {
    if (this.state !== "connected" || !this.client) return;
    try {
      await this.client.sendRootsListChanged();
    } catch (err) {
      this.note(`[kiln] could not send roots/list_changed: ${errorText(err)}`);
    }
  }

  /** Drops the current client (if any) and connects again at once, with the backoff reset. */
  async restart(): Promise<void> {
    this.clearRetry();
    this.attempts = 0;
    this.connectedAt = undefined;
    await this.teardown();
    if (this.closed) return;
    this.start();
  }

  /** Closes for good; the stdio child is ended (stdin closed, then SIGTERM, then SIGKILL by the SDK). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearRetry();
    await this.teardown();
  }

  private note(line: string): void {
    this.log.push(cap(line, LOG_LINE_CHARS));
    if (this.log.length > LOG_LINES) this.log.splice(0, this.log.length - LOG_LINES);
    this.ctx.changed();
  }

  private onStderr(chunk: unknown): void {
    const text = this.stderrPartial + (Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk));
    const lines = text.split(/\r?\n/);
    // Keep an unfinished last line for the next chunk, but never let it grow without bound.
    this.stderrPartial = cap(lines.pop() ?? "", LOG_LINE_CHARS);
    for (const line of lines) if (line.trim()) this.note(line);
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    this.state = "connecting";
    this.error = undefined;
    this.ctx.changed();
    const requests = this.ctx.requests?.();
    const client = new Client(this.ctx.clientInfo, { capabilities: clientCapabilities(requests) });
    this.installHandlers(client, gen);
    if (requests) {
      installRequestHandlers(client, { server: this.config.name, requests, timeoutSeconds: () => this.config.timeoutSeconds, note: (line) => this.note(line) });
    }
    let transport: Transport;
    try {
      transport = this.createTransport();
    } catch (err) {
      this.fail(gen, `cannot start: ${errorText(err)}`);
      return;
    }
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (gen === this.generation) this.fail(gen, "connection closed");
    };
    client.onerror = (err) => {
      // Transport errors (a bad SSE event, a failed POST) are noted; a real drop also fires onclose.
      if (gen === this.generation) this.note(`[kiln] transport error: ${errorText(err)}`);
    };
    try {
      // The entry's timeout is for calls; starting (an `npx -y` download, a cold interpreter) may take
      // longer, so the handshake gets at least a minute.
      await client.connect(transport, { timeout: Math.max(this.config.timeoutSeconds, CONNECT_TIMEOUT_SECONDS) * 1000 });
      if (gen !== this.generation) return;
      this.instructions = optionalCap(client.getInstructions(), INSTRUCTIONS_CHARS);
      await this.refreshAll(client, gen);
      if (gen !== this.generation) return;
      this.state = "connected";
      // attempts is not reset here: only a connection that stays up earns a fresh backoff (fail()).
      this.connectedAt = this.clock.now();
      this.note(`[kiln] connected (${this.config.transport})`);
    } catch (err) {
      this.fail(gen, errorText(err));
    }
  }

  private installHandlers(client: Client, gen: number): void {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.ctx.roots().map((p) => ({ uri: pathToFileURL(p).href, name: basename(p) || p })),
    }));
    const refresh = (what: string, fn: () => Promise<void>) => async () => {
      if (gen !== this.generation) return;
      try {
        await fn();
        this.ctx.changed();
      } catch (err) {
        this.note(`[kiln] could not refresh ${what}: ${errorText(err)}`);
      }
    };
    client.setNotificationHandler(
      ToolListChangedNotificationSchema,
      refresh("tools", () => this.loadTools(client, gen)),
    );
    client.setNotificationHandler(
      PromptListChangedNotificationSchema,
      refresh("prompts", () => this.loadPrompts(client, gen)),
    );
    client.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      refresh("resources", () => this.loadResources(client, gen)),
    );
  }

  private createTransport(): Transport {
    const c = this.config;
    const requestInit = { headers: { ...c.headers } };
    if (c.transport === "sse") return new SSEClientTransport(new URL(requireField(c.url, "url")), { requestInit });
    if (c.transport === "streamable-http") {
      return new StreamableHTTPClientTransport(new URL(requireField(c.url, "url")), { requestInit });
    }
    let command = requireField(c.command, "command");
    let args = c.args;
    // On Windows `npx`, `uvx` etc. are .cmd scripts that spawn without a shell cannot run.
    if (process.platform === "win32" && !/\.(exe|com)$/i.test(command)) {
      args = ["/d", "/s", "/c", command, ...args];
      command = process.env.ComSpec ?? "cmd.exe";
    }
    const env = stdioServerEnv(c.env);
    const transport = new StdioClientTransport({ command, args, env, stderr: "pipe", ...(c.cwd && { cwd: c.cwd }) });
    // Available before start(); stderr is only logged, never treated as failure.
    transport.stderr?.on("data", (chunk: unknown) => this.onStderr(chunk));
    return transport;
  }

  private async refreshAll(client: Client, gen: number): Promise<void> {
    await this.loadTools(client, gen);
    await this.loadResources(client, gen);
    await this.loadPrompts(client, gen);
  }

  private toolFlags(tool: McpToolInfo): McpToolInfo {
    return {
      ...tool,
      enabled: !this.config.disabledTools.includes(tool.name),
      alwaysAllow: this.config.alwaysAllow.includes(tool.name),
    };
  }

  private requestOptions() {
    return { timeout: this.config.timeoutSeconds * 1000 };
  }

  private async loadTools(client: Client, gen: number): Promise<void> {
    if (!client.getServerCapabilities()?.tools) return;
    const items = await paginate(async (cursor) => {
      const r = await client.listTools(cursor ? { cursor } : undefined, this.requestOptions());
      return { items: r.tools, nextCursor: r.nextCursor };
    });
    if (gen !== this.generation) return;
    this.tools = items.map((t) =>
      this.toolFlags({
        name: cap(t.name, NAME_CHARS),
        ...(t.description !== undefined && { description: cap(t.description, DESCRIPTION_CHARS) }),
        inputSchema: t.inputSchema as Record<string, unknown>,
        alwaysAllow: false,
        enabled: true,
      }),
    );
  }

  private async loadResources(client: Client, gen: number): Promise<void> {
    if (!client.getServerCapabilities()?.resources) return;
    const resources = await paginate(async (cursor) => {
      const r = await client.listResources(cursor ? { cursor } : undefined, this.requestOptions());
      return { items: r.resources, nextCursor: r.nextCursor };
    });
    const templates = await paginate(async (cursor) => {
      const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, this.requestOptions());
      return { items: r.resourceTemplates, nextCursor: r.nextCursor };
    });
    if (gen !== this.generation) return;
    this.resources = resources.map((r) => ({ uri: r.uri, ...describe(r) }));
    this.templates = templates.map((t) => ({ uriTemplate: t.uriTemplate, ...describe(t) }));
  }

  private async loadPrompts(client: Client, gen: number): Promise<void> {
    if (!client.getServerCapabilities()?.prompts) return;
    const prompts = await paginate(async (cursor) => {
      const r = await client.listPrompts(cursor ? { cursor } : undefined, this.requestOptions());
      return { items: r.prompts, nextCursor: r.nextCursor };
    });
    if (gen !== this.generation) return;
    this.prompts = prompts.map((p) => {
      const { name, description } = describe(p);
      return { name: name ?? "", ...(description !== undefined && { description }) };
    });
  }

  /**
   * Marks the error, drops the client and schedules a reconnect with backoff. The error says when
   * the next try is, and how many failed in a row once there are several, so the user sees why.
   */
  private fail(gen: number, message: string): void {
    if (gen !== this.generation || this.closed) return;
    this.generation++;
    const upSince = this.connectedAt;
    this.connectedAt = undefined;
    if (upSince !== undefined && this.clock.now() - upSince >= STABLE_CONNECTION_MS) this.attempts = 0;
    const delay = Math.min(BACKOFF_FIRST_MS * 2 ** Math.min(this.attempts, 30), BACKOFF_MAX_MS);
    this.attempts++;
    const inARow = this.attempts > 1 ? `failed ${this.attempts} times in a row; ` : "";
    this.state = "error";
    this.error = `${cap(message, LOG_LINE_CHARS)} (${inARow}retrying in ${delay / 1000} s)`;
    this.note(`[kiln] ${this.error}`);
    this.ctx.logger.warn(`MCP server "${this.config.name}": ${this.error}`);
    void this.dropClient();
    this.clearRetry();
    this.cancelRetry = this.clock.after(delay, () => {
      this.cancelRetry = undefined;
      if (!this.closed) void this.connect();
    });
  }

  private async teardown(): Promise<void> {
    this.generation++;
    await this.dropClient();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    try {
      if (client) await client.close();
      else if (transport) await transport.close();
    } catch (err) {
      this.note(`[kiln] error while closing: ${errorText(err)}`);
    }
  }

  private clearRetry(): void {
    this.cancelRetry?.();
    this.cancelRetry = undefined;
  }

  private get clock(): ReconnectClock {
    return this.ctx.clock ?? systemClock;
  }
}

/** Follows nextCursor, bounded in pages and items so a server cannot make us loop forever. */
async function paginate<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES && out.length < MAX_ITEMS; i++) {
    const r = await page(cursor);
    out.push(...r.items);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out.slice(0, MAX_ITEMS);
}

function describe(item: { name?: string; title?: string; description?: string; mimeType?: string }) {
  return {
    ...(item.name !== undefined && { name: cap(item.name, NAME_CHARS) }),
    ...(item.description !== undefined && { description: cap(item.description, DESCRIPTION_CHARS) }),
    ...(item.mimeType !== undefined && { mimeType: cap(item.mimeType, NAME_CHARS) }),
  };
}

function optionalCap(text: string | undefined, max: number): string | undefined {
  return text === undefined ? undefined : cap(text, max);
}

function requireField(value: string | undefined, field: string): string {
  if (!value) throw new Error(`the server entry has no ${field}`);
  return value;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
