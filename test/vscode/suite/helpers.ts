import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { ChatSession } from "../../../src/hosts/vscode/chat/ChatSession";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { ResponseEnvelope } from "../../../src/shared/protocol/requests";
import { SETTINGS_REQUESTS, type SettingsState } from "../../../src/shared/protocol/settings";
import type { ProviderKind } from "../../../src/core/llm/types";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import type { FakeModelServer, ScriptedTurn } from "../../fixtures/fakeModelServer";

export const EXTENSION_ID = "kiln.kiln";

export async function kiln(): Promise<KilnTestApi> {
  const extension = vscode.extensions.getExtension<KilnTestApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this host`);
  const api = await extension.activate();
  assert.ok(api, "the extension exports its test API outside production mode");
  return api;
}

export async function configure(kind: ProviderKind, baseUrl: string, model = "fake-model"): Promise<void> {
  const config = vscode.workspace.getConfiguration("kiln.provider");
  await config.update("kind", kind, vscode.ConfigurationTarget.Global);
  await config.update("baseUrl", baseUrl, vscode.ConfigurationTarget.Global);
  await config.update("model", model, vscode.ConfigurationTarget.Global);
  // Errors must show at once here; automatic retries have their own tests.
  await config.update("retries", 0, vscode.ConfigurationTarget.Global);
  await config.update("protocol", "xml", vscode.ConfigurationTarget.Global);
}

/** Before a test of the agent: reads auto-approved, the fake model as provider, its queue empty. Returns the undo of the settings. */
export async function useFakeModel(server: FakeModelServer): Promise<() => Promise<void>> {
  const restore = await setKiln({ autoApprove: ["read"] });
  await configure("openai-compatible", server.openaiBaseUrl);
  server.clearQueue();
  return restore;
}

/** The workspace's .kilocode/mcp.json, written as given (valid or not); the caller has Kiln reload it. */
export function writeMcpConfig(text: string): void {
  const folder = join(process.env.KILN_TEST_WORKSPACE!, ".kilocode");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "mcp.json"), text);
}

/**
 * Allows a project MCP server the way the MCP view's "Allow and start" does: the same host message,
 * with the fingerprint the host listed. Call it after a reload; a server whose entry is already
 * allowed (the suites share the host and its approvals) is left as it is.
 */
export async function allowMcpServer(name: string): Promise<void> {
  const api = await kiln();
  const server = await waitFor(`MCP server "${name}" to be listed`, () => api.mcp.hub.servers().find((s) => s.name === name));
  if (!server.blocked) return;
  assert.equal(server.blocked.reason, "not-approved", `${name} is blocked for another reason: ${server.blocked.reason}`);
  const result = await requestOn(api.sidebar, "mcp/approve", { server: name, fingerprint: server.blocked.fingerprint });
  assert.equal(result.ok, true, result.message);
}

/** A request's answer, as a page's status line reads it: ok, the message, the refused field, and the result. */
export interface RequestAnswer {
  ok: boolean;
  message: string;
  field?: string;
  result?: unknown;
}

let lastRequestId = 1_000_000;

/**
 * Sends a request (shared/protocol/requests.ts) as a page's `request` does and resolves with the
 * host's response to it; a successful result's `message` (settings and MCP actions) is lifted out.
 */
export async function requestOn(page: { receive(raw: unknown): unknown; onDidPost: vscode.Event<{ type: string }> }, method: string, params: unknown): Promise<RequestAnswer> {
  const id = ++lastRequestId;
  const answered = new Promise<RequestAnswer>((resolve) => {
    const listener = page.onDidPost((m) => {
      const response = m as ResponseEnvelope;
      if (response.type !== "response" || response.id !== id) return;
      listener.dispose();
      resolve(answerOf(response));
    });
  });
  void page.receive({ type: "request", id, method, params });
  return answered;
}

/**
 * Sends a settings-page message as the suites write it, `{ type, ...params }`: a method of
 * SETTINGS_REQUESTS goes as a request envelope (its response comes back as `answer`), anything else
 * as it is. Resolves once the host has acted on it, with the last state it posted.
 */
export async function toSettings(api: KilnTestApi, message: Record<string, unknown>): Promise<{ answer?: RequestAnswer; state?: SettingsState }> {
  const { type, ...params } = message;
  const isRequest = typeof type === "string" && Object.hasOwn(SETTINGS_REQUESTS, type);
  const id = ++lastRequestId;
  let answer: RequestAnswer | undefined;
  let state: SettingsState | undefined;
  const listener = api.settings.onDidPost((m) => {
    if (m.type === "settings/state") state = m.state;
    if (m.type === "response" && m.id === id) answer = answerOf(m);
  });
  try {
    await api.settings.receive(isRequest ? { type: "request", id, method: type, params } : message);
  } finally {
    listener.dispose();
  }
  return { answer, state };
}

function answerOf(response: ResponseEnvelope): RequestAnswer {
  if (response.ok) return { ok: true, message: String((response.result as { message?: unknown } | undefined)?.message ?? ""), result: response.result };
  return { ok: false, message: response.error.message, ...(response.error.field !== undefined ? { field: response.error.field } : {}) };
}

/** Removes the workspace's .kilocode folder (the suites share the workspace, which has none of its own) and its servers. */
export async function removeMcpConfig(): Promise<void> {
  rmSync(join(process.env.KILN_TEST_WORKSPACE!, ".kilocode"), { recursive: true, force: true });
  await (await kiln()).mcp.reload();
}

/** Ends a scripted turn: the sidebar runs the agent loop, which waits for a tool call in each reply. */
export const COMPLETE = "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>";

export function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined && value !== false) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

/** Sends raw input as the webview would and collects what the host posts until the turn ends. */
export async function exchange(session: ChatSession, raw: unknown, timeoutMs = 20_000): Promise<HostToWebview[]> {
  const posted: HostToWebview[] = [];
  let sawBusy = false;
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no end of turn after ${JSON.stringify(raw)}; got ${JSON.stringify(posted)}`)), timeoutMs);
    const listener = session.onDidPost((message) => {
      posted.push(message);
      if (message.type === "chat/busy" && message.busy) sawBusy = true;
      if (message.type === "chat/busy" && !message.busy && sawBusy) {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  });
  session.receive(raw);
  await done;
  return posted;
}

export function appendedErrors(posted: HostToWebview[]) {
  return posted.flatMap((m) => (m.type === "chat/appended" && m.item.role === "error" ? [m.item.error] : []));
}

/** The reply as the webview builds it: the first piece arrives with the new item, the rest as deltas. */
export function replyText(posted: HostToWebview[]): string {
  return posted
    .flatMap((m) => {
      if (m.type === "chat/appended" && m.item.role === "assistant") return [m.item.text];
      if (m.type === "chat/textDelta" && m.field === "text") return [m.delta];
      return [];
    })
    .join("");
}

/** A model turn that calls one tool in Kiln's XML format (the default kiln.provider.protocol). */
export function xmlCall(name: string, args: Record<string, string | number | boolean>): ScriptedTurn {
  const params = Object.entries(args).map(([k, v]) => `<${k}>${String(v)}</${k}>`);
  return { text: `Next step.\n<${name}>\n${params.join("\n")}\n</${name}>` };
}

/** The chat items as the webview ends up with them, rebuilt from what the host posted. */
export function chatItems(posted: readonly HostToWebview[]): ChatItem[] {
  const out = new Map<string, ChatItem>();
  for (const m of posted) {
    if (m.type === "chat/appended" || m.type === "chat/itemChanged") out.set(m.item.id, m.item);
    if (m.type === "chat/itemRemoved") out.delete(m.id);
  }
  return [...out.values()];
}

export type ToolCard = Extract<ChatItem, { role: "tool" }>;

export function toolCards(posted: readonly HostToWebview[]): ToolCard[] {
  return chatItems(posted).filter((i): i is ToolCard => i.role === "tool");
}

/**
 * Sets `kiln.*` user settings and returns what puts the previous user values back: the suites share
 * one extension host, so each test undoes its settings.
 */
export async function setKiln(values: Record<string, unknown>): Promise<() => Promise<void>> {
  const config = vscode.workspace.getConfiguration("kiln");
  const previous = Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue] as const);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  return async () => {
    const now = vscode.workspace.getConfiguration("kiln");
    for (const [key, value] of previous) await now.update(key, value, vscode.ConfigurationTarget.Global);
  };
}

/** A turn that may stop on approval cards: `card()` waits for the next card asking for an answer. */
export function startTurn(session: ChatSession, text: string, timeoutMs = 30_000) {
  const posted: HostToWebview[] = [];
  const listener = session.onDidPost((m) => posted.push(m));
  const done = exchange(session, { type: "chat/send", text }, timeoutMs).finally(() => listener.dispose());
  const answered = new Set<string>();
  const card = (what = "an approval card"): Promise<ToolCard> => waitFor(what, () => toolCards(posted).find((c) => c.status === "waiting" && c.approval !== undefined && !answered.has(c.id)));
  const answer = (id: string, approved: boolean) => {
    answered.add(id);
    session.receive({ type: "chat/approval", id, approved });
  };
  return { posted, done, card, answer };
}

/** The system prompt and the whole conversation of a recorded OpenAI-style request. */
export function promptOf(request: { body: Record<string, unknown> }): { system: string; all: string } {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const system = messages[0]?.role === "system" && typeof messages[0].content === "string" ? messages[0].content : "";
  return { system, all: JSON.stringify(messages) };
}

/** Two undos from setKiln as one, the later settings put back first. */
export function undoBoth(first: () => Promise<void>, second: () => Promise<void>): () => Promise<void> {
  return async () => {
    await second();
    await first();
  };
}

/** The diff editor Kiln opened for a review, if one is open. */
export function reviewTab(): vscode.TabInputTextDiff | undefined {
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === "kiln-proposed") return tab.input;
  }
  return undefined;
}

export async function textOf(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}
