import OpenAI from "openai";
import type { LlmRequest, Provider, ProviderKind, StreamEvent } from "./types";
import { toOpenAiMessages, toOpenAiTools } from "./messageMapping";
import { CancelledError, ProviderError, toProviderError } from "./errors";
import { redactDeep, redactSecrets } from "./redact";

/** OpenAI and every OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter…) share this. */
export class OpenAiProvider implements Provider {
  private readonly client: OpenAI;
  private readonly displayName: string;

  constructor(
    readonly kind: Extract<ProviderKind, "openai" | "openai-compatible">,
    apiKey: string,
    readonly model: string,
    baseUrl?: string,
  ) {
    this.client = new OpenAI({ apiKey, baseURL: baseUrl || undefined, maxRetries: 0 });
    this.displayName = kind === "openai" ? "OpenAI" : `The model server at ${this.client.baseURL}`;
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    let finished = false;
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.model,
          stream: true,
          stream_options: { include_usage: true },
          max_completion_tokens: request.maxTokens,
          // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
          messages: toOpenAiMessages(redactSecrets(request.system), redactDeep(request.messages)),
          ...(request.tools && request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as
          | (OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null })
          | undefined;
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
      if (!finished) throw new ProviderError("stream", `${this.displayName} ended the reply before it was complete (no finish_reason).`);
    } catch (err) {
      throw toProviderError(err, this.displayName);
    }
  }
}
