import * as l10n from "@vscode/l10n";
import { RequestError, ResponseEnvelopeSchema, type ParamsOf, type RequestEnvelope, type RequestMap, type ResultOf } from "../../src/shared/protocol/requests";

/** How long a request waits for the host; past it the host is taken as gone and the request fails. */
export const REQUEST_TIMEOUT_MS = 60_000;

interface Pending {
  resolve(result: unknown): void;
  reject(error: RequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface Requester<M extends RequestMap> {
  /** Sends a request; resolves with its result, or rejects with a RequestError (the host's message, or a timeout). */
  request<K extends keyof M & string>(method: K, params: ParamsOf<M, K>): Promise<ResultOf<M, K>>;
  /** Takes a message from the host; true when it was a response (to a pending request or not). */
  receive(data: unknown): boolean;
  /** Requests still waiting for an answer. */
  readonly pending: number;
}

/**
 * One page's side of the request protocol (shared/protocol/requests.ts): ids, the requests waiting
 * for an answer, and a timeout per request so a host that never answers leaks no promise.
 */
export function createRequester<M extends RequestMap>(post: (request: RequestEnvelope) => void, timeoutMs = REQUEST_TIMEOUT_MS): Requester<M> {
  const pending = new Map<number, Pending>();
  let lastId = 0;
  return {
    request<K extends keyof M & string>(method: K, params: ParamsOf<M, K>): Promise<ResultOf<M, K>> {
      const id = ++lastId;
      return new Promise<ResultOf<M, K>>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new RequestError(l10n.t("Kiln did not answer ({0}) within {1} s", method, Math.round(timeoutMs / 1000))));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
        post({ type: "request", id, method, params });
      });
    },
    receive(data: unknown): boolean {
      if (typeof data !== "object" || data === null || (data as { type?: unknown }).type !== "response") return false;
      const parsed = ResponseEnvelopeSchema.safeParse(data);
      // A response to a request this page did not send, or one that timed out, has nobody to tell.
      const waiting = parsed.success ? pending.get(parsed.data.id) : undefined;
      if (!parsed.success || !waiting) return true;
      const response = parsed.data;
      pending.delete(response.id);
      clearTimeout(waiting.timer);
      if (response.ok) waiting.resolve(response.result);
      else waiting.reject(new RequestError(response.error.message, response.error.field));
      return true;
    },
    get pending() {
      return pending.size;
    },
  };
}
