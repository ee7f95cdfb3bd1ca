import { createProvider } from "./createProvider";
import { CancelledError, toProviderError } from "./errors";
import { API_KEY_ENV } from "./keys";
import type { ConnectionCheck, ConnectionFailure, ConnectionProblem, ModelList } from "../../shared/protocol/welcome";
import type { ProviderConfig, ProviderKind } from "./types";

export type { ConnectionCheck, ConnectionFailure, ModelList };

const LABELS: Record<ProviderKind, string> = { anthropic: "Anthropic", openai: "OpenAI", "openai-compatible": "the server" };
/** A hosted provider's key is easily the other one's: worth saying whose it must be. */
const KEY_OF: Record<ProviderKind, string> = { anthropic: " and that it is an Anthropic key", openai: " and that it is an OpenAI key", "openai-compatible": "" };
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

function where(config: ProviderConfig): string {
  return config.baseUrl.trim() || LABELS[config.kind];
}

/**
 * A failure in words a first-time user can act on. The core's errors say what happened; this says
 * which field to change, since here the user is looking at the form, not at a running task.
 */
export function explainFailure(err: unknown, config: ProviderConfig, timedOutAfterMs?: number): ConnectionFailure {
  const failure = toProviderError(err, LABELS[config.kind]);
  if (failure instanceof CancelledError) {
    const message = timedOutAfterMs !== undefined ? `No answer from ${where(config)} within ${Math.ceil(timedOutAfterMs / 1000)} s. Check the URL and the network.` : "The check was cancelled.";
    return { ok: false, problem: timedOutAfterMs !== undefined ? "network" : "other", message };
  }
  const detail = failure.message;
  const said = (problem: ConnectionProblem, message: string): ConnectionFailure => ({ ok: false, problem, message, detail });
  const model = config.model.trim();
  switch (failure.kind) {
    case "no_key":
      return said("key", `No API key: paste one, or set ${API_KEY_ENV[config.kind]} in the environment VS Code starts from.`);
    case "auth":
      return said("key", `${capital(LABELS[config.kind])} refused the key (HTTP ${failure.status ?? "401"}). Check that you pasted all of it${KEY_OF[config.kind]}.`);
    case "config":
      return said(/model/i.test(detail) ? "model" : "url", detail);
    case "network": {
      if (/ECONNREFUSED/.test(detail)) return said("url", `Nothing is listening at ${where(config)}. Is the server running, and is the port right?`);
      if (/ENOTFOUND|EAI_AGAIN/.test(detail)) return said("url", `The host name in ${where(config)} does not resolve. Check the URL, then the network.`);
      return said("network", `Could not reach ${where(config)}. Check the network (a proxy or firewall?) and the URL.`);
    }
    case "bad_request":
      if (/model/i.test(failure.providerDetail ?? "")) return said("model", `${capital(LABELS[config.kind])} has no model "${model}" (or this key may not use it). Pick one from the list.`);
      if (failure.status === 404) {
        return said("url", `Nothing answers at ${where(config)} (HTTP 404). Check the base URL; OpenAI-compatible servers usually end in /v1.`);
      }
      return said("other", `${capital(LABELS[config.kind])} refused the test request (HTTP ${failure.status ?? "?"}).`);
    case "rate_limit":
      return said("other", `The key works, but ${LABELS[config.kind]} is rate-limiting it right now. Try again in a minute.`);
    case "server":
      return said("other", `${capital(LABELS[config.kind])} had a server error (HTTP ${failure.status ?? "5xx"}). Try again in a moment.`);
    case "stream":
      return said("url", `${capital(where(config))} answered, but not as a ${config.kind === "anthropic" ? "Anthropic" : "OpenAI-compatible"} API does. Check the base URL.`);
    default:
      return said("other", detail);
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Runs `check` with a deadline; a deadline passed reads as "no answer", not as a cancel. */
async function withDeadline<T>(config: ProviderConfig, timeoutMs: number, check: (signal: AbortSignal) => Promise<T>): Promise<T | ConnectionFailure> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await check(signal);
  } catch (err) {
    return explainFailure(err, config, signal.aborted ? timeoutMs : undefined);
  }
}

/** Sends one tiny request with these settings and says whether a reply came, or plainly what failed. */
export async function checkConnection(config: ProviderConfig, { timeoutMs = CHECK_TIMEOUT_MS, now = Date.now }: CheckOptions = {}): Promise<ConnectionCheck> {
  const started = now();
  return withDeadline(config, timeoutMs, async (signal) => {
    const provider = createProvider(config);
    for await (const event of provider.stream({ system: "Reply with one word.", messages: [{ role: "user", content: "Say OK." }], maxTokens: CHECK_MAX_TOKENS, signal })) {
      // The first piece of a reply is proof enough: the rest need not be waited for.
      if (event.type === "text" || event.type === "reasoning" || event.type === "usage") break;
    }
    return { ok: true, model: provider.model, ms: Math.max(0, now() - started) } as const;
  });
}

/** The models the endpoint lists (sorted, at most MAX_MODELS), or why it could not be asked. */
export async function listModels(config: ProviderConfig, { timeoutMs = CHECK_TIMEOUT_MS }: CheckOptions = {}): Promise<ModelList> {
  return withDeadline(config, timeoutMs, async (signal) => {
    // The list is what a model is picked from: none need be chosen to ask for it.
    const provider = createProvider({ ...config, model: config.model.trim() || "unset" });
    if (!provider.listModels) return { ok: true, models: [] as string[] } as const;
    const ids = await provider.listModels(signal);
    // A server's list is outside input: only plausible ids, each once.
    const models = [...new Set(ids.filter((id) => typeof id === "string" && id.length > 0 && id.length <= 200 && !/[\u0000-\u001f]/.test(id)))];
    return { ok: true, models: models.sort((a, b) => a.localeCompare(b)).slice(0, MAX_MODELS) } as const;
  }).then((result) =>
    // Servers without a /models route still chat; the model id is then typed in.
    !result.ok && result.problem === "url" && /HTTP 404/.test(result.message)
      ? { ...result, problem: "other", message: `${capital(where(config))} does not list its models; type the model id.` }
      : result,
  );
}
