import * as l10n from "@vscode/l10n";
import { z } from "zod";
import type { ModelInfo } from "./models";
import type { LlmMessage, LlmRequest, ModelListing, NativeTool, Provider, ResolvedProviderConfig, StreamEvent } from "./types";
import { CancelledError, httpFailure, ProviderError, toProviderError } from "./errors";
import { redactDeep, redactSecrets } from "./redact";
import { effortOf, reasoningOf, type ReasoningEffort, type ReasoningSettings } from "../../shared/reasoning";
import { RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";

/**
 * Ollama through its native API (/api/chat, /api/show, /api/tags), not its OpenAI-compatible one:
 * there every model runs with the server's small default window (num_ctx 2048 or 4096) and the start
 * of a longer prompt is dropped without a word. Here each request says the window it needs.
 */

/** What /api/show says about a model; each field absent when the server did not say it. */
export interface OllamaModelFacts {
  /** The window the model was trained for (`<architecture>.context_length`). */
  contextLength?: number;
  /** The `num_ctx` its modelfile sets, if it sets one. */
  modelfileNumCtx?: number;
  /** E.g. ["completion", "tools", "vision", "thinking"]; absent from servers older than the field. */
  capabilities?: string[];
}

export interface OllamaOptions {
  /**
   * The largest num_ctx Kiln asks for. A model's trained window can be huge (131072 and more) and
   * Ollama reserves memory for all of it; absent: no cap.
   */
  maxContextTokens?: number;
}

/**
 * The num_ctx to send: the modelfile's when it sets one (whoever built the model chose it, usually to
 * fit their memory), else the model's trained window; `cap` bounds either. Undefined when neither is
 * known: the server's own default then applies.
 */
export function ollamaContextLength(facts: OllamaModelFacts, cap?: number): number | undefined {
  const wanted = facts.modelfileNumCtx ?? facts.contextLength;
  if (wanted === undefined) return undefined;
  return cap !== undefined && cap > 0 ? Math.min(wanted, Math.floor(cap)) : wanted;
}

/**
 * The reply limit Kiln reports for a window: Ollama has no separate one (a reply may fill what the
 * prompt leaves), but the context guard must keep room for the reply, and an unbounded num_predict
 * lets a looping model run until the window is full. A quarter of the window, at most 8192 tokens.
 */
export function ollamaReplyLimit(contextWindow: number): number {
  return Math.max(1, Math.min(8192, Math.floor(contextWindow / 4)));
}

const tokenCount = z.number().int().positive().max(100_000_000);
const count = z.number().int().nonnegative();

const showSchema = z.looseObject({
  model_info: z.record(z.string(), z.unknown()).optional().catch(undefined),
  capabilities: z.array(z.string()).optional().catch(undefined),
  parameters: z.string().optional().catch(undefined),
});

/** The facts in an /api/show body; what is missing or odd is left out rather than failing the request. */
export function factsFromShow(body: unknown): OllamaModelFacts {
  const parsed = showSchema.safeParse(body);
  if (!parsed.success) return {};
  const { model_info: info, capabilities, parameters } = parsed.data;
  const facts: OllamaModelFacts = {};
  const architecture = info?.["general.architecture"];
  if (typeof architecture === "string") {
    const length = tokenCount.safeParse(info?.[`${architecture}.context_length`]);
    if (length.success) facts.contextLength = length.data;
  }
  // The modelfile's parameters, one "name value" per line, padded with spaces.
  const numCtx = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters ?? "")?.[1];
  const modelfile = tokenCount.safeParse(numCtx === undefined ? undefined : Number(numCtx));
  if (modelfile.success) facts.modelfileNumCtx = modelfile.data;
  if (capabilities) facts.capabilities = capabilities;
  return facts;
}

const toolCallSchema = z.looseObject({
  id: z.string().min(1).optional().catch(undefined),
  function: z.looseObject({
    name: z.string().min(1),
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  }),
});

const chatLineSchema = z.looseObject({
  message: z
    .looseObject({
      content: z.string().nullish(),
      thinking: z.string().nullish(),
      tool_calls: z.array(toolCallSchema).nullish(),
    })
    .optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional().catch(undefined),
  prompt_eval_count: count.optional().catch(undefined),
  prompt_eval_cached_count: count.optional().catch(undefined),
  eval_count: count.optional().catch(undefined),
  error: z.unknown().optional(),
});
type ChatLine = z.infer<typeof chatLineSchema>;

const tagSchema = z.looseObject({
  name: z
    .string()
    .min(1)
    .max(200)
    .refine((s) => !/[\u0000-\u001f]/.test(s)),
});

interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  images?: string[];
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

/**
 * Kiln's messages in Ollama's shape. Tool results become "tool" messages right after the assistant's
 * calls, named by the call they answer; their images, and the turn's own text and images, follow in
 * one user message, since a tool message's images are not shown to every model's template.
 */
export function toOllamaMessages(system: string, messages: readonly LlmMessage[]): OllamaMessage[] {
  const out: OllamaMessage[] = system ? [{ role: "system", content: system }] : [];
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (typeof m.content === "string") {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    if (m.role === "assistant") {
      const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      const calls = m.content.flatMap((b) => (b.type === "tool_use" ? [b] : []));
      for (const call of calls) toolNames.set(call.id, call.name);
      out.push({
        role: "assistant",
        content: text,
        ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ function: { name: c.name, arguments: c.input } })) } : {}),
      });
      continue;
    }
    const texts: string[] = [];
    const images: string[] = [];
    for (const block of m.content) {
      if (block.type === "tool_result") {
        const name = toolNames.get(block.toolUseId);
        out.push({ role: "tool", content: block.content, ...(name ? { tool_name: name } : {}) });
        for (const image of block.images ?? []) images.push(image.data);
      } else if (block.type === "text") texts.push(block.text);
      else if (block.type === "image") images.push(block.data);
    }
    if (texts.length > 0 || images.length > 0) out.push({ role: "user", content: texts.join("\n\n"), ...(images.length > 0 ? { images } : {}) });
  }
  return out;
}

function toOllamaTools(tools: readonly NativeTool[]) {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** The complete lines of an NDJSON body, each parsed, however the bytes were cut into chunks. */
async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  // stream: true keeps a character whose bytes were split across chunks whole.
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let buffered = "";
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line) yield JSON.parse(line) as unknown;
        newline = buffered.indexOf("\n");
      }
    }
    const last = (buffered + decoder.decode()).trim();
    if (last) yield JSON.parse(last) as unknown;
  } finally {
    // Stopped early (a timeout, a cancel, an error line): the connection is let go.
    if (!ended) reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function hasContent(line: ChatLine): boolean {
  const m = line.message;
  return Boolean(m?.content || m?.thinking || m?.tool_calls?.length || line.done || line.error !== undefined);
}

/** Ollama's `think`: gpt-oss takes an effort word, every other thinking model only on or off. */
export function ollamaThink(model: string, settings: ReasoningSettings): boolean | ReasoningEffort {
  const effort = effortOf(settings);
  return effort && /(^|\/)gpt-oss/i.test(model) ? effort : true;
}

export class OllamaProvider implements Provider {
  readonly kind = "ollama" as const;
  readonly model: string;
  readonly baseUrl: string;
  /** Where requests go: the base URL, else Ollama's default local address. */
  private readonly endpoint: string;
  private readonly apiKey: string | undefined;
  private readonly timeouts: StreamTimeouts;
  private readonly displayName: string;
  /** Only a successful answer is kept: a failed or cancelled one is asked again next time. */
  private facts: OllamaModelFacts | undefined;
  private readonly reasoning: ReasoningSettings;

  constructor(
    config: ResolvedProviderConfig,
    private readonly options: OllamaOptions = {},
  ) {
    this.model = config.model;
    this.baseUrl = config.baseUrl;
    this.endpoint = (config.baseUrl || "http://localhost:11434").replace(/\/+$/, "");
    this.apiKey = config.apiKey || undefined;
    this.timeouts = config.timeouts;
    this.reasoning = reasoningOf(config);
    this.displayName = l10n.t("Ollama at {0}", this.endpoint);
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    let finished = false;
    const watch = new RequestWatch(request.signal, this.timeouts, this.displayName);
    try {
      const facts = await watch.guard(this.modelFacts(watch.signal));
      const numCtx = ollamaContextLength(facts, this.options.maxContextTokens);
      const options = {
        ...(numCtx === undefined ? {} : { num_ctx: numCtx }),
        ...(request.maxTokens === undefined ? {} : { num_predict: request.maxTokens }),
      };
      const body = {
        model: this.model,
        stream: true,
        // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
        messages: toOllamaMessages(redactSecrets(request.system), redactDeep(request.messages)),
        ...(request.tools && request.tools.length > 0 ? { tools: toOllamaTools(request.tools) } : {}),
        ...(Object.keys(options).length > 0 ? { options } : {}),
        // Without it, a thinking model's thoughts may come inside the text, in <think> tags.
        ...(facts.capabilities?.includes("thinking") ? { think: ollamaThink(this.model, this.reasoning) } : {}),
      };
      const response = await watch.guard(this.post("/api/chat", body, watch.signal));
      if (!response.body) throw new ProviderError("stream", l10n.t("{0} sent a response Kiln could not read ({1}).", this.displayName, "empty body"));
      let callIndex = 0;
      const lines = (async function* (raw: AsyncIterable<unknown>, name: string) {
        for await (const line of raw) {
          const parsed = chatLineSchema.safeParse(line);
          if (!parsed.success) throw new ProviderError("stream", l10n.t("{0} sent a response Kiln could not read ({1}).", name, parsed.error.issues[0]?.message ?? "unexpected shape"));
          yield parsed.data;
        }
      })(ndjson(response.body), this.displayName);
      for await (const line of watchedEvents(lines, watch, hasContent)) {
        if (line.error !== undefined) {
          const detail = typeof line.error === "string" ? line.error : JSON.stringify(line.error);
          throw new ProviderError("stream", l10n.t("{0} reported an error mid-stream: {1}", this.displayName, detail), undefined, undefined, detail);
        }
        const message = line.message;
        if (message?.thinking) yield { type: "reasoning", text: message.thinking };
        if (message?.content) yield { type: "text", text: message.content };
        // Ollama sends each call whole, its arguments as an object.
        for (const call of message?.tool_calls ?? []) {
          const args = call.function.arguments;
          const index = callIndex++;
          yield {
            type: "tool_call_delta",
            index,
            id: call.id ?? `call_${index}`,
            name: call.function.name,
            argsDelta: typeof args === "string" ? args : JSON.stringify(args ?? {}),
          };
        }
        if (line.done) {
          finished = true;
          yield {
            type: "usage",
            // prompt_eval_count holds the tokens read from Ollama's cache too (the OpenAI convention).
            inputTokens: line.prompt_eval_count ?? 0,
            outputTokens: line.eval_count ?? 0,
            ...(line.prompt_eval_cached_count === undefined ? {} : { cacheReadTokens: line.prompt_eval_cached_count }),
          };
          break;
        }
      }
      if (request.signal?.aborted) throw new CancelledError();
      if (!finished) throw new ProviderError("stream", l10n.t("{0} ended the reply before it was complete (no line with done: true).", this.displayName));
    } catch (err) {
      throw toProviderError(watch.failure(err), this.displayName);
    } finally {
      watch.dispose();
    }
  }

  /**
   * What Ollama says about this model: the window Kiln will ask for, whether it takes native tools
   * and images (a model without "tools" must be driven with XML tools), and no price, being local.
   */
  async describeModel(signal?: AbortSignal): Promise<Partial<ModelInfo>> {
    let facts: OllamaModelFacts;
    try {
      facts = await this.modelFacts(signal);
    } catch (err) {
      throw toProviderError(signal?.aborted ? new CancelledError() : err, this.displayName);
    }
    const contextWindow = ollamaContextLength(facts, this.options.maxContextTokens);
    return {
      ...(contextWindow === undefined ? {} : { contextWindow, maxOutputTokens: ollamaReplyLimit(contextWindow) }),
      inputPrice: 0,
      outputPrice: 0,
      ...(facts.capabilities ? { supportsNativeTools: facts.capabilities.includes("tools"), supportsImages: facts.capabilities.includes("vision") } : {}),
    };
  }

  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    try {
      const response = await this.request("GET", "/api/tags", undefined, signal);
      const body = (await response.json()) as { models?: unknown } | null;
      const entries = Array.isArray(body?.models) ? body.models : [];
      const seen = new Set<string>();
      const out: ModelListing[] = [];
      for (const raw of entries) {
        const entry = tagSchema.safeParse(raw);
        if (!entry.success || seen.has(entry.data.name)) continue;
        seen.add(entry.data.name);
        // The list says nothing of windows or tools (only /api/show does); local models cost nothing per token.
        out.push({ id: entry.data.name, info: { inputPrice: 0, outputPrice: 0 } });
      }
      return out;
    } catch (err) {
      throw toProviderError(signal?.aborted ? new CancelledError() : err, this.displayName);
    }
  }

  private async modelFacts(signal: AbortSignal | undefined): Promise<OllamaModelFacts> {
    if (this.facts) return this.facts;
    const response = await this.post("/api/show", { model: this.model }, signal);
    const facts = factsFromShow(await response.json());
    this.facts = facts;
    return facts;
  }

  private post(path: string, body: unknown, signal: AbortSignal | undefined): Promise<Response> {
    return this.request("POST", path, body, signal);
  }

  /** The response when the status is 2xx; else the HTTP failure, read from Ollama's {"error": "..."}. */
  private async request(method: "GET" | "POST", path: string, body: unknown, signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    // Hosted or proxied Ollama wants a key; a local one takes none.
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const response = await fetch(`${this.endpoint}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    if (response.ok) return response;
    const text = await response.text().catch(() => "");
    let detail = text.trim().slice(0, 300) || response.statusText || String(response.status);
    try {
      const error = (JSON.parse(text) as { error?: unknown } | null)?.error;
      if (typeof error === "string" && error.trim()) detail = error.trim();
    } catch {
      // Not JSON (a proxy's HTML page): the text itself is the detail.
    }
    throw httpFailure({ status: response.status, detail, retryAfter: response.headers.get("retry-after") ?? undefined }, this.displayName);
  }
}
