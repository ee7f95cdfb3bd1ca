import { CancelledError, type ProviderError } from "../llm/errors";

export interface RetryPolicy {
  /** Automatic attempts after the first failure; 0 turns automatic retries off. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** Transient failures are worth another try; a bad key or a bad request is not. */
export function isTransient(err: ProviderError): boolean {
  return err.kind === "rate_limit" || err.kind === "overloaded" || err.kind === "server" || err.kind === "network" || err.kind === "stream";
}

/** The server's Retry-After when it gave one, else exponential backoff; both capped. */
export function retryDelay(err: ProviderError, attempt: number, policy: RetryPolicy): number {
  if (err.retryAfterMs !== undefined) return Math.min(err.retryAfterMs, policy.maxDelayMs);
  return Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Endpoints without tool support answer a request with tools with a client error that names them
 * (Ollama "does not support tools", vLLM "tool choice requires --enable-auto-tool-choice",
 * OpenRouter 404 "No endpoints found that support tool use").
 */
export function rejectsTools(err: ProviderError): boolean {
  return err.status !== undefined && [400, 404, 422].includes(err.status) && /\btools?\b|function|tool[_ ]?(use|choice|call)/i.test(err.message);
}

export type Attempted<T> = { kind: "ok"; value: T } | { kind: "cancelled" } | { kind: "failed"; error: ProviderError };

export interface RetryHooks {
  /** Called before each attempt; what it returns takes the failed attempt's traces back. */
  begin(): () => void;
  /** A failure that is mended by changing the request (a protocol fallback): go again, uncounted. */
  mend(error: ProviderError): boolean;
  /** The failure goes out again after delayMs. */
  retrying(attempt: number, of: number, delayMs: number, error: ProviderError): void;
}

/**
 * Runs a request with the policy's automatic retries: transient failures wait (Retry-After or
 * backoff) and go again; a cancel ends it at once, during a request or a wait.
 */
export async function withRetries<T>(policy: RetryPolicy, signal: AbortSignal, request: () => Promise<T>, hooks: RetryHooks): Promise<Attempted<T>> {
  for (let attempt = 1; ; attempt++) {
    const takeBack = hooks.begin();
    try {
      return { kind: "ok", value: await request() };
    } catch (err) {
      if (err instanceof CancelledError || signal.aborted) return { kind: "cancelled" };
      const error = err as ProviderError;
      if (hooks.mend(error)) {
        takeBack();
        attempt--;
        continue;
      }
      if (attempt > policy.maxRetries || !isTransient(error)) return { kind: "failed", error };
      const delayMs = retryDelay(error, attempt, policy);
      takeBack();
      hooks.retrying(attempt, policy.maxRetries, delayMs, error);
      if (!(await sleep(delayMs, signal))) return { kind: "cancelled" };
    }
  }
}
