import * as l10n from "@vscode/l10n";
import { createProvider } from "./createProvider";
import { CancelledError, toProviderError } from "./errors";
import { API_KEY_ENV } from "./keys";
import type { ConnectionCheck, ConnectionFailure, ConnectionProblem, ModelList } from "../../shared/protocol/welcome";
import { isSelfHosted } from "../../shared/providerCatalog";
import { providerEntry, type ProviderConfig, type ProviderKind } from "./types";

export type { ConnectionCheck, ConnectionFailure, ModelList };

/** Enough for any model to say a word; the reply itself is not read. */
const CHECK_MAX_TOKENS = 16;
const MAX_MODELS = 500;
/** A check is a yes/no for a person waiting on a button: past this, the answer is "no answer". */
export const CHECK_TIMEOUT_MS = 20_000;

export interface CheckOptions {
  timeoutMs?: number;
  /** The clock the reply time is read from. */
  now?: () => number;
}

/** The product name of a hosted provider; a server the user runs (compatible, Ollama, LM Studio) is "the server" in its own sentences. */
function hostedName(kind: ProviderKind): string | undefined {
  const entry = providerEntry(kind);
  return isSelfHosted(entry) ? undefined : entry.label;
}

/** Where the check went: the base URL, else the hosted provider's name (an OpenAI-compatible server always has a URL by then). */
function where(config: ProviderConfig): string {
  return config.baseUrl.trim() || providerEntry(config.kind).defaultBaseUrl || providerEntry(config.kind).label;
}

/** A failure and whether the endpoint answered 404 (a server without a models list, to listModels). */
interface Explained {
  failure: ConnectionFailure;
  notFound: boolean;
}

/**
 * A failure in words a first-time user can act on. The core's errors say what happened; this says
 * which field to change, since here the user is looking at the form, not at a running task. The
 * words are the user's language (the core's own detail stays as the provider's words).
 */
export function explainFailure(err: unknown, config: ProviderConfig, timedOutAfterMs?: number): ConnectionFailure {
  return explain(err, config, timedOutAfterMs).failure;
}

function explain(err: unknown, config: ProviderConfig, timedOutAfterMs?: number): Explained {
  const failure = toProviderError(err, hostedName(config.kind) ?? "the server");
  if (failure instanceof CancelledError) {
    const message =
      timedOutAfterMs !== undefined ? l10n.t("No answer from {0} within {1} s. Check the URL and the network.", where(config), Math.ceil(timedOutAfterMs / 1000)) : l10n.t("The check was cancelled.");
    return { failure: { ok: false, problem: timedOutAfterMs !== undefined ? "network" : "other", message }, notFound: false };
  }
  const detail = failure.message;
  const said = (problem: ConnectionProblem, message: string, notFound = false): Explained => ({ failure: { ok: false, problem, message, detail }, notFound });
  const model = config.model.trim();
  const baseUrl = config.baseUrl.trim();
  const hosted = hostedName(config.kind);
  const status = failure.status;
  switch (failure.kind) {
    case "no_key":
      return said("key", l10n.t("No API key: paste one, or set {0} in the environment VS Code starts from.", API_KEY_ENV[config.kind] ?? "the key"));
    case "auth":
      return said(
        "key",
        hosted
          ? l10n.t("{0} refused the key (HTTP {1}). Check that you pasted all of it and that it is an {0} key.", hosted, status ?? 401)
          : l10n.t("The server refused the key (HTTP {0}). Check that you pasted all of it.", status ?? 401),
      );
    case "config":
      // The settings createProvider refuses before any request, said as the form's fields.
      if (baseUrl && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) return said("url", l10n.t("The base URL {0} is not an http(s) URL.", baseUrl));
      if (config.kind === "openai-compatible" && !baseUrl) return said("url", l10n.t("An OpenAI-compatible server needs a base URL, such as http://localhost:11434/v1."));
      if (config.kind === "openai-compatible" && !model) return said("model", l10n.t("An OpenAI-compatible server needs a model id: type the one the server uses."));
      return said(/model/i.test(detail) ? "model" : "url", detail);
    case "network": {
      if (/ECONNREFUSED/.test(detail)) return said("url", l10n.t("Nothing is listening at {0}. Is the server running, and is the port right?", where(config)));
      if (/ENOTFOUND|EAI_AGAIN/.test(detail)) return said("url", l10n.t("The host name in {0} does not resolve. Check the URL, then the network.", where(config)));
      return said("network", l10n.t("Could not reach {0}. Check the network (a proxy or firewall?) and the URL.", where(config)));
    }
    case "model_not_found":
    case "no_access":
    case "bad_request":
      if (failure.kind !== "bad_request" || /model/i.test(failure.providerDetail ?? "")) {
        return said(
          "model",
          hosted
            ? l10n.t('{0} has no model "{1}" (or this key may not use it). Pick one from the list.', hosted, model)
            : l10n.t('The server has no model "{0}" (or this key may not use it). Pick one from the list.', model),
          status === 404,
        );
      }
      if (status === 404) {
        return { ...said("url", l10n.t("Nothing answers at {0} (HTTP 404). Check the base URL; OpenAI-compatible servers usually end in /v1.", where(config))), notFound: true };
      }
      return said("other", hosted ? l10n.t("{0} refused the test request (HTTP {1}).", hosted, status ?? "?") : l10n.t("The server refused the test request (HTTP {0}).", status ?? "?"));
    case "rate_limit":
      return said(
        "other",
        hosted
          ? l10n.t("The key works, but {0} is rate-limiting it right now. Try again in a minute.", hosted)
          : l10n.t("The key works, but the server is rate-limiting it right now. Try again in a minute."),
      );
    case "server":
      return said(
        "other",
        hosted
          ? l10n.t("{0} had a server error (HTTP {1}). Try again in a moment.", hosted, status ?? "5xx")
          : l10n.t("The server had a server error (HTTP {0}). Try again in a moment.", status ?? "5xx"),
      );
    case "stream":
      return said(
        "url",
        config.kind === "anthropic"
          ? l10n.t("{0} answered, but not as an Anthropic API does. Check the base URL.", where(config))
          : l10n.t("{0} answered, but not as an OpenAI-compatible API does. Check the base URL.", where(config)),
      );
    default:
      return said("other", detail);
  }
}

/** Runs `check` with a deadline; a deadline passed reads as "no answer", not as a cancel. */
async function withDeadline<T>(config: ProviderConfig, timeoutMs: number, check: (signal: AbortSignal) => Promise<T>): Promise<T | Explained> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await check(signal);
  } catch (err) {
    return explain(err, config, signal.aborted ? timeoutMs : undefined);
  }
}

/** Sends one tiny request with these settings and says whether a reply came, or plainly what failed. */
export async function checkConnection(config: ProviderConfig, { timeoutMs = CHECK_TIMEOUT_MS, now = Date.now }: CheckOptions = {}): Promise<ConnectionCheck> {
  const started = now();
  const result = await withDeadline(config, timeoutMs, async (signal) => {
    const provider = createProvider(config);
    for await (const event of provider.stream({ system: "Reply with one word.", messages: [{ role: "user", content: "Say OK." }], maxTokens: CHECK_MAX_TOKENS, signal })) {
      // The first piece of a reply is proof enough: the rest need not be waited for.
      if (event.type === "text" || event.type === "reasoning" || event.type === "usage") break;
    }
    return { ok: true, model: provider.model, ms: Math.max(0, now() - started) } as const;
  });
  return "failure" in result ? result.failure : result;
}

/** The models the endpoint lists (sorted, at most MAX_MODELS), or why it could not be asked. */
export async function listModels(config: ProviderConfig, { timeoutMs = CHECK_TIMEOUT_MS }: CheckOptions = {}): Promise<ModelList> {
  const result = await withDeadline(config, timeoutMs, async (signal) => {
    // The list is what a model is picked from: none need be chosen to ask for it.
    const provider = createProvider({ ...config, model: config.model.trim() || "unset" });
    if (!provider.listModels) return { ok: true, models: [] as string[] } as const;
    const ids = (await provider.listModels(signal)).map((m) => m.id);
    // A server's list is outside input: only plausible ids, each once.
    const models = [...new Set(ids.filter((id) => typeof id === "string" && id.length > 0 && id.length <= 200 && !/[\u0000-\u001f]/.test(id)))];
    return { ok: true, models: models.sort((a, b) => a.localeCompare(b)).slice(0, MAX_MODELS) } as const;
  });
  if (!("failure" in result)) return result;
  // Servers without a /models route still chat; the model id is then typed in.
  return result.notFound ? { ...result.failure, problem: "other", message: l10n.t("{0} does not list its models; type the model id.", where(config)) } : result.failure;
}
