import * as l10n from "@vscode/l10n";
import OpenAI, { AzureOpenAI } from "openai";
import { isSelfHosted, providerEntry, type CompatQuirks, type ProviderFamily } from "../../shared/providerCatalog";
import type { ModelInfo } from "./models";
import type { LlmRequest, ModelListing, Provider, ProviderKind, ResolvedProviderConfig, StreamEvent } from "./types";
import { toOpenAiMessages, toOpenAiTools } from "./messageMapping";
import { CancelledError, ProviderError, toProviderError } from "./errors";
import { listingsFrom } from "./modelListings";
import { redactDeep, redactSecrets } from "./redact";
import { RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";
import { budgetOf, effortOf, wantsReasoning, type ReasoningSettings } from "../../shared/reasoning";
import { isOpenAiReasoningModel, streamResponses } from "./openaiResponses";

type Delta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

/** Azure OpenAI's current GA data-plane version; a profile may name another. */
export const AZURE_API_VERSION = "2024-10-21";

/** Whether a chunk carries part of the reply; the first one often carries only the role. */
function hasContent(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): boolean {
  const choice = chunk.choices[0];
  const delta = choice?.delta as Delta | undefined;
  return Boolean(delta?.content || delta?.reasoning_content || delta?.reasoning || delta?.tool_calls?.length || choice?.finish_reason || chunk.usage);
}

/** The request fields of a reasoning setting, in the server's own shape (CompatQuirks.reasoning). */
export function reasoningFields(quirk: CompatQuirks["reasoning"], settings: ReasoningSettings): Record<string, unknown> {
  if (!wantsReasoning(settings)) return {};
  switch (quirk) {
    case "effort":
      return { reasoning_effort: effortOf(settings) };
    case "openrouter":
      // OpenRouter passes a budget to the models that take one and an effort to the others.
      return { reasoning: settings.thinkingBudget !== undefined ? { max_tokens: settings.thinkingBudget } : { effort: effortOf(settings) } };
    case "qwen":
      return { enable_thinking: true, thinking_budget: budgetOf(settings) };
    case "zai":
      return { thinking: { type: "enabled" } };
    case "none":
      return {};
  }
}

/** The name used in a provider's error messages: a hosted product by its name, anything else by its URL. */
function displayName(kind: ProviderKind, baseUrl: string): string {
  const entry = providerEntry(kind);
  return isSelfHosted(entry) ? l10n.t("The model server at {0}", baseUrl) : entry.label;
}

function client(config: ResolvedProviderConfig, family: ProviderFamily): OpenAI {
  // Retries belong to the loop (it shows them and honours Retry-After), not to the SDK.
  if (family === "azure") {
    return new AzureOpenAI({ endpoint: config.baseUrl, apiKey: config.apiKey, apiVersion: config.apiVersion || AZURE_API_VERSION, deployment: config.model, maxRetries: 0 });
  }
  // LM Studio's OpenAI-compatible routes live under /v1 of its server; its native model API under /api/v0.
  const baseURL = family === "lmstudio" ? `${config.baseUrl}/v1` : config.baseUrl || undefined;
  // Local servers (Ollama, LM Studio) take no key, but the SDK insists on a non-empty one.
  return new OpenAI({ apiKey: config.apiKey || "no-key", baseURL, maxRetries: 0 });
}

/** OpenAI, Azure OpenAI and every OpenAI-compatible server (the presets, OpenRouter, LM Studio, vLLM…) share this. */
export class OpenAiProvider implements Provider {
  readonly kind: ProviderKind;
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly displayName: string;
  private readonly quirks: CompatQuirks;
  private readonly family: ProviderFamily;
  private readonly timeouts: StreamTimeouts;
  /** OpenAI's own reasoning models go through the Responses API (openaiResponses.ts); Azure and compatible servers never do. */
  private readonly responsesApi: boolean;

  constructor(private readonly config: ResolvedProviderConfig) {
    const entry = providerEntry(config.kind);
    this.kind = config.kind;
    this.model = config.model;
    this.baseUrl = config.baseUrl;
    this.family = entry.family;
    this.quirks = entry.quirks ?? { tokenLimitField: "max_completion_tokens", streamUsage: true, reasoning: "effort" };
    this.timeouts = config.timeouts;
    this.client = client(config, entry.family);
    this.displayName = displayName(config.kind, this.client.baseURL);
    this.responsesApi = config.kind === "openai" && isOpenAiReasoningModel(config.model);
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    if (this.responsesApi) {
      yield* streamResponses({ client: this.client, model: this.model, reasoning: this.config, timeouts: this.timeouts, providerName: this.displayName }, request);
      return;
    }
    let finished = false;
    const watch = new RequestWatch(request.signal, this.timeouts, this.displayName);
    try {
      const stream = await watch.guard(
        this.client.chat.completions.create(
          {
            model: this.model,
            stream: true,
            ...(this.quirks.streamUsage ? { stream_options: { include_usage: true } } : {}),
            ...(request.maxTokens === undefined ? {} : { [this.quirks.tokenLimitField]: request.maxTokens }),
            // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
            messages: toOpenAiMessages(redactSecrets(request.system), redactDeep(request.messages)),
            ...(request.tools && request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
            ...reasoningFields(this.quirks.reasoning, this.config),
          },
          { signal: watch.signal },
        ),
      );
      for await (const chunk of watchedEvents(stream, watch, hasContent)) {
        const delta = chunk.choices[0]?.delta as Delta | undefined;
        if (delta) {
          // reasoning_content / reasoning: DeepSeek, vLLM and OpenRouter's names for thinking text.
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (reasoning) yield { type: "reasoning", text: reasoning };
          if (delta.content) yield { type: "text", text: delta.content };
          for (const call of delta.tool_calls ?? []) {
            yield {
              type: "tool_call_delta",
              index: call.index,
              id: call.id,
              name: call.function?.name,
              argsDelta: call.function?.arguments ?? "",
            };
          }
        }
        if (chunk.choices[0]?.finish_reason) finished = true;
        if (chunk.usage) {
          yield {
            type: "usage",
            inputTokens: chunk.usage.prompt_tokens,
            outputTokens: chunk.usage.completion_tokens,
            cacheReadTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
          };
        }
      }
      // The OpenAI SDK ends an aborted stream quietly; a cancel must not look like a finished reply.
      if (request.signal?.aborted) throw new CancelledError();
      if (!finished) throw new ProviderError("stream", l10n.t("{0} ended the reply before it was complete (no finish_reason).", this.displayName));
    } catch (err) {
      throw toProviderError(watch.failure(err), this.displayName);
    } finally {
      watch.dispose();
    }
  }

  /**
   * OpenRouter's list gives each model's window, output limit and prices; LM Studio's gives the
   * context length a model is loaded with; other servers' lists may give a window. OpenAI's own and
   * Azure's give nothing the table does not know.
   */
  async describeModel(signal?: AbortSignal): Promise<Partial<ModelInfo> | undefined> {
    if (this.kind === "openai" || this.family === "azure") return undefined;
    const listed = await this.listModels(signal);
    return listed.find((m) => m.id === this.model)?.info;
  }

  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    try {
      if (this.family === "lmstudio") {
        // The native list says which models are loaded and with what context length; /v1/models does not.
        const body = await this.client.get<unknown>(`${this.config.baseUrl}/api/v0/models`, { signal });
        return listingsFrom("lmstudio", body);
      }
      const raw: unknown[] = [];
      for await (const model of this.client.models.list({ signal })) raw.push(model);
      return listingsFrom(this.kind === "openrouter" ? "openrouter" : "openai", { data: raw });
    } catch (err) {
      throw toProviderError(err, this.displayName);
    }
  }
}
