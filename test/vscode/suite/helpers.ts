import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { ChatSession } from "../../../src/hosts/vscode/ChatSession";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { ProviderKind } from "../../../src/core/llm/types";

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
