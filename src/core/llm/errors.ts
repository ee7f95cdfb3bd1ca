import * as l10n from "@vscode/l10n";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatError, ErrorKind } from "../../shared/protocol/chat";
import { redactSecrets } from "./redact";

/** A provider failure carrying a message the user can act on. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** The provider's own explanation, when it gave one (redacted like the message). */
    readonly providerDetail?: string,
  ) {
    // A server or proxy may echo the request's Authorization header; the message goes to the chat, logs and history.
    super(redactSecrets(message));
    this.name = "ProviderError";
    if (providerDetail !== undefined) this.providerDetail = redactSecrets(providerDetail);
  }

  toChatError(): ChatError {
    // Every failure gets a retry button: after fixing a key or a setting, retrying is the way on.
    return { kind: this.kind, message: this.message, retryable: true };
  }
}

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

interface ApiErrorLike {
  status?: number;
  message: string;
  headers?: Headers | Record<string, string | null | undefined>;
  error?: unknown;
}

function header(headers: ApiErrorLike["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | null | undefined>)[name];
  return value ?? undefined;
}

/** Seconds or an HTTP date, as servers send it. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own explanation, without the SDK's "429 {json}" noise. */
function providerDetail(err: ApiErrorLike): string {
  const body = err.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const nested = body?.error?.message ?? body?.message;
  if (typeof nested === "string" && nested.trim()) return nested.trim();
  return err.message.replace(/^\d{3}\s+/, "").slice(0, 300);
}

/**
 * What a provider answered with an HTTP error status, in the provider-neutral terms that
 * `httpFailure` maps to the same readable kinds for every provider.
 */
export interface HttpFailure {
  status: number;
  /** The provider's own explanation. */
  detail: string;
  /** The Retry-After header, raw. */
  retryAfter?: string;
  /** The provider's own error code or type name (ThrottlingException, RESOURCE_EXHAUSTED, overloaded_error…). */
  code?: string;
}

// The words providers use; the status alone does not tell a window overflow from another bad request.
const CONTEXT_TOO_LONG =
  /context[ _-]?(length|window)|maximum context|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (maximum|max)[^.]*tokens|tokens? exceed|num_ctx|input length/i;
const REFUSED = /content[ _-]?(policy|filter|management)|safety|blocked by|responsible ai|moderation|refus/i;
const UNKNOWN_MODEL = /model/i;
const OVERLOADED = /overload|ServiceUnavailable|UNAVAILABLE|capacity|ModelNotReady/i;
/** Google answers a bad key with 400 INVALID_ARGUMENT, not 401. */
const KEY_NOT_VALID = /api[ _-]?key not valid|invalid api[ _-]?key|api[ _-]?key expired|API_KEY_INVALID|API_KEY_EXPIRED/i;
const BAD_KEY = /api[ _-]?key|credential|signature|token is (invalid|expired)|unauthori[sz]ed|UnrecognizedClient|InvalidSignature|ExpiredToken/i;

/** Maps an HTTP error from any provider to one kind a person can act on, keeping the provider's words under details. */
export function httpFailure(err: HttpFailure, providerName: string): ProviderError {
  const { status, detail } = err;
  const code = err.code ?? "";
  const said = (kind: ErrorKind, message: string, retryAfterMs?: number) => new ProviderError(kind, message, status, retryAfterMs, detail);
  if (status === 401 || (status === 403 && BAD_KEY.test(`${code} ${detail}`)) || (status === 400 && KEY_NOT_VALID.test(`${code} ${detail}`))) {
    return said("auth", l10n.t('{0} rejected the API key (HTTP {1}: {2}). Set a valid key with "Kiln: Set API Key".', providerName, status, detail));
  }
  if (status === 403) {
    return said("no_access", l10n.t("{0} accepted the key but refused access (HTTP 403: {1}). Check that this key or account may use this model, in this region.", providerName, detail));
  }
  if (status === 429 || /Throttling|RESOURCE_EXHAUSTED|rate[ _-]?limit/i.test(code)) {
    const retryAfterMs = parseRetryAfter(err.retryAfter);
    const message =
      retryAfterMs === undefined
        ? l10n.t("{0} is rate-limiting requests (HTTP {1}: {2}).", providerName, status, detail)
        : l10n.t("{0} is rate-limiting requests (HTTP {1}: {2}). It asks to wait {3} s before retrying.", providerName, status, detail, Math.ceil(retryAfterMs / 1000));
    return said("rate_limit", message, retryAfterMs);
  }
  if (status === 529 || ((status === 503 || status >= 500) && OVERLOADED.test(`${code} ${detail}`))) {
    return said(
      "overloaded",
      l10n.t("{0} is overloaded right now (HTTP {1}: {2}). Kiln retries; try again in a moment if it still fails.", providerName, status, detail),
      parseRetryAfter(err.retryAfter),
    );
  }
  if (status >= 500) {
    return said("server", l10n.t("{0} had a server error (HTTP {1}: {2}). Try again in a moment.", providerName, status, detail));
  }
  if (CONTEXT_TOO_LONG.test(`${code} ${detail}`)) {
    return said(
      "context_too_long",
      l10n.t("{0} says the request is longer than the model's context window (HTTP {1}: {2}). Condense the task or pick a model with a larger window.", providerName, status, detail),
    );
  }
  if (REFUSED.test(`${code} ${detail}`)) {
    return said("refused", l10n.t("{0}'s content filter refused the request (HTTP {1}: {2}).", providerName, status, detail));
  }
  if (status === 404) {
    return UNKNOWN_MODEL.test(detail)
      ? said("model_not_found", l10n.t("{0} answered 404 ({1}). Check the model id in Kiln's settings, or pick one from the provider's list.", providerName, detail))
      : said("bad_request", l10n.t("{0} answered 404 ({1}). Check the base URL and the model id in Kiln's settings.", providerName, detail));
  }
  return said("bad_request", l10n.t("{0} refused the request (HTTP {1}: {2}).", providerName, status, detail));
}

function fromStatus(err: ApiErrorLike, providerName: string): ProviderError {
  const body = err.error as { error?: { type?: unknown; code?: unknown } } | undefined;
  const code = body?.error?.type ?? body?.error?.code;
  return httpFailure({ status: err.status ?? 0, detail: providerDetail(err), retryAfter: header(err.headers, "retry-after"), code: typeof code === "string" ? code : undefined }, providerName);
}

type Cause = { message?: string; code?: string; cause?: Cause };

/** The socket's own code (ECONNREFUSED, ENOTFOUND…): fetch wraps it under a "fetch failed" TypeError. */
function connectionCause(err: Error): string {
  let cause = (err as { cause?: Cause }).cause;
  for (let depth = 0; cause && typeof cause === "object" && depth < 4; depth++, cause = cause.cause) {
    if (typeof cause.code === "string") return cause.code;
    if (!cause.cause) return cause.message ?? err.message;
  }
  return err.message;
}

/** Maps whatever an SDK or the network threw to a ProviderError with a readable message. */
export function toProviderError(err: unknown, providerName: string): ProviderError | CancelledError {
  if (err instanceof ProviderError || err instanceof CancelledError) return err;
  if (err instanceof Anthropic.APIUserAbortError || err instanceof OpenAI.APIUserAbortError) return new CancelledError();
  // Node's fetch (Ollama's client, the Gemini SDK) says only "fetch failed"; the socket's reason is in its cause.
  const fetchFailed = err instanceof TypeError && err.message === "fetch failed";
  if (err instanceof Anthropic.APIConnectionError || err instanceof OpenAI.APIConnectionError || fetchFailed) {
    const why = connectionCause(err);
    return new ProviderError("network", l10n.t("Could not reach {0} ({1}). Check the network and the base URL.", providerName, why));
  }
  if (err instanceof Anthropic.APIError || err instanceof OpenAI.APIError) {
    const apiErr = err as unknown as ApiErrorLike;
    if (apiErr.status === undefined) {
      // The SDKs raise status-less APIErrors for error events inside an already-open stream.
      return new ProviderError("stream", l10n.t("{0} reported an error mid-stream: {1}", providerName, providerDetail(apiErr)));
    }
    return fromStatus(apiErr, providerName);
  }
  if (err instanceof Error && err.name === "AbortError") return new CancelledError();
  if (err instanceof SyntaxError) {
    return new ProviderError("stream", l10n.t("{0} sent a response Kiln could not read ({1}).", providerName, err.message));
  }
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|UND_ERR)/.test(code)) {
    return new ProviderError("network", l10n.t("The connection to {0} failed ({1}: {2}).", providerName, code, message));
  }
  if (/terminated|socket|other side closed|ECONNRESET/i.test(message)) {
    return new ProviderError("network", l10n.t("The connection to {0} was cut mid-reply ({1}).", providerName, message));
  }
  return new ProviderError("unknown", l10n.t("{0} request failed: {1}", providerName, message));
}
