/**
 * The webview's one boundary: VS Code's `acquireVsCodeApi`. Imported before any component (the
 * webview asks for the API when its module loads); everything the UI posts to the host lands in
 * `posted`.
 */
export const posted: unknown[] = [];

Object.assign(globalThis, { acquireVsCodeApi: () => ({ postMessage: (message: unknown) => posted.push(message) }) });

export interface SentRequest {
  type: "request";
  id: number;
  method: string;
  params: Record<string, unknown>;
}

/** The requests the page sent with this method (shared/protocol/requests.ts), oldest first. */
export function requests(method: string): SentRequest[] {
  return posted.filter((m): m is SentRequest => (m as SentRequest).type === "request" && (m as SentRequest).method === method);
}

/** The host's answer to one request, as the page receives it; the caller awaits it inside act(). */
export async function respond(request: { id: number }, answer: { result: unknown } | { error: { message: string; field?: string } }): Promise<void> {
  const data = "result" in answer ? { type: "response", id: request.id, ok: true, result: answer.result } : { type: "response", id: request.id, ok: false, error: answer.error };
  // Through globalThis: the root tsconfig checks this file without the DOM library.
  const page = globalThis as unknown as { dispatchEvent(event: unknown): boolean; MessageEvent: new (type: string, init: { data: unknown }) => unknown };
  page.dispatchEvent(new page.MessageEvent("message", { data }));
  // The request's promise and what its caller chains on it settle in later microtasks.
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

export type Sent = { type: string; requestId?: number; [key: string]: unknown };

/**
 * Plain messages of this type, and requests of this method as their params with `type` and the
 * envelope's id as `requestId` (params may have an `id` of their own), oldest first.
 */
export function sentAs(type: string): Sent[] {
  return [...posted.filter((m): m is Sent => (m as Sent).type === type), ...requests(type).map((r) => ({ ...r.params, type, requestId: r.id }))];
}

/** The host's acceptance or refusal of a settings or MCP request (whose result is a status line), as the page receives it. */
export function answer(request: { requestId?: number }, outcome: { ok: boolean; message: string; field?: string }): Promise<void> {
  const { ok, message, field } = outcome;
  return respond({ id: request.requestId! }, ok ? { result: { message } } : { error: { message, ...(field ? { field } : {}) } });
}
