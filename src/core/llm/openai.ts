import * as l10n from "@vscode/l10n";
import OpenAI from "openai";
import type { LlmRequest, Provider, ProviderKind, StreamEvent } from "./types";
import { toOpenAiMessages, toOpenAiTools } from "./messageMapping";
import { CancelledError, ProviderError, toProviderError } from "./errors";
import { redactDeep, redactSecrets } from "./redact";
import { DEFAULT_STREAM_TIMEOUTS, RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";

type Delta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

/** Whether a chunk carries part of the reply; the first one often carries only the role. */
function hasContent(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): boolean {
  const choice = chunk.choices[0];
  const delta = choice?.delta as Delta | undefined;
  return Boolean(delta?.content || delta?.reasoning_content || delta?.reasoning || delta?.tool_calls?.length || choice?.finish_reason || chunk.usage);
}

/** OpenAI and every OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter…) share this. */
export class OpenAiProvider implements Provider {
  private readonly client: OpenAI;
  private readonly displayName: string;

  constructor(
    readonly kind: Extract<ProviderKind, "openai" | "openai-compatible">,
    apiKey: string,
    readonly model: string,
    baseUrl?: string,
    private readonly timeouts: StreamTimeouts = DEFAULT_STREAM_TIMEOUTS,
  ) {
    this.client = new OpenAI({ apiKey, baseURL: baseUrl || undefined, maxRetries: 0 });
    this.displayName = kind === "openai" ? "OpenAI" : `The model server at ${this.client.baseURL}`;
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    let finished = false;
    const watch = new RequestWatch(request.signal, this.timeouts, this.displayName);
    try {
      const stream = await watch.guard(
        this.client.chat.completions.create(
          {
            model: this.model,
            stream: true,
            stream_options: { include_usage: true },
            max_completion_tokens: request.maxTokens,
            // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
            messages: toOpenAiMessages(redactSecrets(request.system), redactDeep(request.messages)),
            ...(request.tools && request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
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

  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const ids: string[] = [];
      for await (const model of this.client.models.list({ signal })) ids.push(model.id);
      return ids;
    } catch (err) {
      throw toProviderError(err, this.displayName);
    }
  }
}
