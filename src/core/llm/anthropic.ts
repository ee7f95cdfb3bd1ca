import * as l10n from "@vscode/l10n";
import Anthropic from "@anthropic-ai/sdk";
import type { LlmRequest, ModelListing, Provider, StreamEvent } from "./types";
import { listingsFrom } from "./modelListings";
import { toAnthropicMessages, toAnthropicTools } from "./messageMapping";
import { CancelledError, ProviderError, toProviderError } from "./errors";
import { withCacheMarks } from "./promptCache";
import { redactDeep, redactSecrets } from "./redact";
import { DEFAULT_STREAM_TIMEOUTS, RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";
import { ThinkingCollector, thinkingForConversation } from "./claudeThinking";
import type { ReasoningSettings } from "../../shared/reasoning";

const DEFAULT_MAX_TOKENS = 8192;

/**
 * Claude served by someone else (Google Vertex AI) through a client that speaks the Messages API
 * on Anthropic's terms, and the name the user knows that service by.
 */
export interface AnthropicHost {
  client: { messages: Pick<Anthropic.Messages, "create"> };
  providerName: string;
}

export interface AnthropicOptions {
  baseUrl?: string;
  timeouts?: StreamTimeouts;
  host?: AnthropicHost;
  /** Extended thinking: a budget, or an effort turned into one (claudeThinking.ts). */
  reasoning?: ReasoningSettings;
}

export class AnthropicProvider implements Provider {
  readonly kind = "anthropic" as const;
  /** Undefined when a host's client serves the model: its list is the host's business. */
  private readonly client: Anthropic | undefined;
  private readonly messages: AnthropicHost["client"]["messages"];
  private readonly name: string;
  readonly baseUrl: string;
  private readonly timeouts: StreamTimeouts;
  private readonly reasoning: ReasoningSettings;

  constructor(
    apiKey: string,
    readonly model: string,
    { baseUrl = "", timeouts = DEFAULT_STREAM_TIMEOUTS, host, reasoning = {} }: AnthropicOptions = {},
  ) {
    this.baseUrl = baseUrl;
    this.timeouts = timeouts;
    this.reasoning = reasoning;
    this.name = host?.providerName ?? "Anthropic";
    if (host) {
      this.client = undefined;
      this.messages = host.client.messages;
    } else {
      // Retries belong to the loop (it shows them and honours Retry-After), not to the SDK.
      this.client = new Anthropic({ apiKey, baseURL: this.baseUrl || undefined, maxRetries: 0 });
      this.messages = this.client.messages;
    }
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    let inputTokens = 0;
    let cacheReadTokens = 0;
    let cacheWriteTokens = 0;
    let complete = false;
    const watch = new RequestWatch(request.signal, this.timeouts, this.name);
    try {
      // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
      const sent = { system: redactSecrets(request.system), messages: redactDeep(request.messages) };
      const { maxTokens, thinking } = thinkingForConversation(this.reasoning, request.maxTokens, DEFAULT_MAX_TOKENS, sent.messages);
      const mapped = toAnthropicMessages(sent.messages, thinking !== undefined);
      const { system, tools, messages } = withCacheMarks(sent.system, request.tools?.length ? toAnthropicTools(request.tools) : undefined, mapped);
      const collected = new ThinkingCollector();
      const stream = await watch.guard(
        this.messages.create(
          {
            model: this.model,
            max_tokens: maxTokens,
            system,
            messages,
            ...(thinking ? { thinking } : {}),
            ...(tools ? { tools } : {}),
            stream: true,
          },
          { signal: watch.signal },
        ),
      );
      // A message start or a ping shows the server is there; a content block is the reply itself.
      for await (const event of watchedEvents(stream, watch, (e) => e.type === "content_block_start" || e.type === "content_block_delta")) {
        switch (event.type) {
          case "message_start": {
            const usage = event.message.usage;
            inputTokens = usage.input_tokens;
            cacheReadTokens = usage.cache_read_input_tokens ?? 0;
            cacheWriteTokens = usage.cache_creation_input_tokens ?? 0;
            break;
          }
          case "content_block_start":
            collected.start(event.index, event.content_block);
            if (event.content_block.type === "tool_use") {
              collected.toolUse(event.content_block.id);
              yield { type: "tool_call_delta", index: event.index, id: event.content_block.id, name: event.content_block.name, argsDelta: "" };
            }
            break;
          case "content_block_delta":
            if (event.delta.type === "text_delta") yield { type: "text", text: event.delta.text };
            else if (event.delta.type === "thinking_delta") {
              collected.thinking(event.index, event.delta.thinking);
              yield { type: "reasoning", text: event.delta.thinking };
            } else if (event.delta.type === "signature_delta") collected.signature(event.index, event.delta.signature);
            else if (event.delta.type === "input_json_delta") {
              yield { type: "tool_call_delta", index: event.index, argsDelta: event.delta.partial_json };
            }
            break;
          case "message_delta":
            yield {
              type: "usage",
              inputTokens: event.usage.input_tokens ?? inputTokens,
              outputTokens: event.usage.output_tokens,
              cacheReadTokens: event.usage.cache_read_input_tokens ?? cacheReadTokens,
              cacheWriteTokens: event.usage.cache_creation_input_tokens ?? cacheWriteTokens,
            };
            break;
          case "message_stop":
            complete = true;
            collected.finish();
            break;
          default:
            break;
        }
      }
      // The OpenAI SDK ends an aborted stream quietly; a cancel must not look like a finished reply.
      if (request.signal?.aborted) throw new CancelledError();
      if (!complete) throw new ProviderError("stream", l10n.t("{0}'s reply ended before it was complete (the stream stopped without message_stop).", this.name));
    } catch (err) {
      throw toProviderError(watch.failure(err), this.name);
    } finally {
      watch.dispose();
    }
  }

  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    const client = this.client;
    if (!client) return [];
    try {
      const listed: unknown[] = [];
      for await (const model of client.models.list({ limit: 100 }, { signal })) listed.push(model);
      // Anthropic lists ids and names only; the window and prices come from the built-in table.
      return listingsFrom("openai", listed).map((m, i) => {
        const name = (listed[i] as { display_name?: unknown }).display_name;
        return typeof name === "string" && name && name !== m.id ? { ...m, name: name.slice(0, 200) } : m;
      });
    } catch (err) {
      throw toProviderError(err, "Anthropic");
    }
  }
}
