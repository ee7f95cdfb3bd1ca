import { randomBytes } from "node:crypto";
import * as l10n from "@vscode/l10n";
import { ApiError, GoogleGenAI, ThinkingLevel, type Content, type GenerateContentConfig, type GenerateContentResponse, type Part, type ThinkingConfig } from "@google/genai";
import { z } from "zod";
import { providerEntry } from "../../shared/providerCatalog";
import { CancelledError, httpFailure, ProviderError, toProviderError } from "./errors";
import type { LlmImage, LlmMessage, LlmRequest, ModelListing, NativeTool, Provider, ResolvedProviderConfig, StreamEvent } from "./types";
import { redactDeep, redactSecrets } from "./redact";
import { RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";
import { budgetOf, effortOf, reasoningOf, wantsReasoning, type ReasoningEffort, type ReasoningSettings } from "../../shared/reasoning";

const THINKING_LEVELS: Record<ReasoningEffort, ThinkingLevel> = { low: ThinkingLevel.LOW, medium: ThinkingLevel.MEDIUM, high: ThinkingLevel.HIGH };

/**
 * Google's Gemini API (generativelanguage.googleapis.com, an AI Studio key) through the official
 * `@google/genai` SDK: `models/{model}:streamGenerateContent?alt=sse` with the key in `x-goog-api-key`.
 */

const GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com";
/**
 * Pinned rather than the SDK's default: function declarations as plain JSON schema
 * (`parametersJsonSchema`), thought summaries and function call ids are v1beta features.
 */
const API_VERSION = "v1beta";

/** Google's documented stand-in for a thought signature Kiln no longer has (a resumed task, another provider's calls). */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** Finish reasons that mean a filter stopped the reply, not the model. */
const FILTERED = new Set(["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "RECITATION", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT"]);
/** Finish reasons where the model tried a tool call the API could not turn into one: another try usually works. */
const BROKEN_CALL = new Set(["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"]);

/** A server that keeps handing out page tokens must not keep the list loading forever. */
const MAX_LIST_PAGES = 50;

function providerName(): string {
  return providerEntry("gemini").label;
}

/**
 * What Gemini said about the function calls it made in this process, by the id Kiln gave them.
 * Gemini 3 rejects a history whose function calls lack the thought signature it sent with them,
 * and LlmContent has no place for one: the signatures wait here until the call is sent back.
 * `fromGemini`: the id is Gemini's own, so it goes back with the call and its response.
 */
interface RememberedCall {
  fromGemini: boolean;
  signature?: string;
}
const rememberedCalls = new Map<string, RememberedCall>();
const MAX_REMEMBERED_CALLS = 4096;

function remember(id: string, call: RememberedCall): void {
  if (!call.fromGemini && call.signature === undefined) return;
  rememberedCalls.delete(id);
  if (rememberedCalls.size >= MAX_REMEMBERED_CALLS) rememberedCalls.delete(rememberedCalls.keys().next().value!);
  rememberedCalls.set(id, call);
}

/** Major and minor of a Gemini model id ("gemini-2.5-pro" → [2, 5]); undefined for aliases and other families. */
function geminiVersion(model: string): [number, number] | undefined {
  const match = /^(?:models\/)?gemini-(\d+)(?:\.(\d+))?/i.exec(model.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

/** "gemini-flash-latest" and the like: Google points them at a current model. */
function isLatestAlias(model: string): boolean {
  return /^(?:models\/)?gemini-[a-z-]+-latest$/i.test(model.trim());
}

/** Whether the model thinks (2.5 and later): older ones and Gemma answer thinkingConfig with a 400. */
export function geminiThinks(model: string): boolean {
  const version = geminiVersion(model);
  if (!version) return isLatestAlias(model);
  return version[0] > 2 || (version[0] === 2 && version[1] >= 5);
}

/**
 * The thinking config of a request: thoughts shown, and the profile's reasoning setting in the
 * model's shape. Gemini 3 takes a thinking level (a budget becomes the nearest one); 2.5 a token budget.
 */
export function thinkingConfig(model: string, settings: ReasoningSettings): ThinkingConfig | undefined {
  if (!geminiThinks(model)) return undefined;
  if (!wantsReasoning(settings)) return { includeThoughts: true };
  if (requiresSignatures(model)) return { includeThoughts: true, thinkingLevel: THINKING_LEVELS[effortOf(settings)!] };
  return { includeThoughts: true, thinkingBudget: budgetOf(settings) };
}

/** Whether the model rejects replayed function calls without a thought signature (Gemini 3 and later). */
function requiresSignatures(model: string): boolean {
  const version = geminiVersion(model);
  return version ? version[0] >= 3 : isLatestAlias(model);
}

function inlineImage(image: LlmImage): Part {
  return { inlineData: { mimeType: image.mediaType, data: image.data } };
}

/**
 * Kiln's messages as Gemini contents: assistant turns are "model" turns; tool calls become
 * functionCall parts and their results functionResponse parts, named after the call they answer.
 */
export function toGeminiContents(messages: readonly LlmMessage[], model: string): Content[] {
  // Ids may repeat in a long history (several providers, restarts): a result answers the latest call with its id.
  const callNames = new Map<string, string>();
  const out: Content[] = [];
  for (const message of messages) {
    const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    const responses: Part[] = [];
    const parts: Part[] = [];
    const resultImages: Part[] = [];
    let signed = false;
    for (const block of blocks) {
      switch (block.type) {
        case "text":
          // Gemini refuses an empty text part.
          if (block.text) parts.push({ text: block.text });
          break;
        case "image":
          parts.push(inlineImage(block));
          break;
        case "tool_use": {
          callNames.set(block.id, block.name);
          const known = rememberedCalls.get(block.id);
          const part: Part = { functionCall: { name: block.name, args: block.input, ...(known?.fromGemini ? { id: block.id } : {}) } };
          // Parallel calls: Gemini signs only the first of a turn, and checks only that one.
          const signature = known?.signature ?? (!signed && requiresSignatures(model) ? SKIP_SIGNATURE : undefined);
          if (signature !== undefined) {
            part.thoughtSignature = signature;
            signed = true;
          }
          parts.push(part);
          break;
        }
        case "tool_result": {
          const name = callNames.get(block.toolUseId);
          if (name === undefined) {
            // A result whose call is gone (condensed away): Gemini takes no response without its call.
            parts.push({ text: `Result of tool call ${block.toolUseId}${block.isError ? " (error)" : ""}:\n${block.content}` });
          } else {
            const id = rememberedCalls.get(block.toolUseId)?.fromGemini ? { id: block.toolUseId } : {};
            responses.push({ functionResponse: { name, ...id, response: block.isError ? { error: block.content } : { output: block.content } } });
          }
          for (const image of block.images ?? []) resultImages.push(inlineImage(image));
          break;
        }
      }
    }
    // The function responses open the turn, answering the calls just before it.
    const all = [...responses, ...parts, ...resultImages];
    if (all.length > 0) out.push({ role: message.role === "assistant" ? "model" : "user", parts: all });
  }
  return out;
}

/** Tools as function declarations; `parametersJsonSchema` takes the JSON schema as it is, where `parameters` wants Google's OpenAPI subset. */
export function toGeminiTools(tools: readonly NativeTool[]): GenerateContentConfig["tools"] {
  return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
}

// The parts of a streamed GenerateContentResponse Kiln reads; anything else in it is ignored.
const tokenCount = z.number().int().nonnegative().max(1e9).optional();
const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().max(1_000_000).optional(),
  functionCall: z
    .looseObject({
      id: z.string().min(1).max(200).optional(),
      name: z.string().min(1).max(200),
      args: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
const chunkSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(partSchema).optional() }).optional(),
        finishReason: z.string().max(100).optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().max(100).optional() }).optional(),
  usageMetadata: z
    .looseObject({
      promptTokenCount: tokenCount,
      candidatesTokenCount: tokenCount,
      thoughtsTokenCount: tokenCount,
      cachedContentTokenCount: tokenCount,
    })
    .optional(),
});
type Chunk = z.infer<typeof chunkSchema>;

function unreadable(why: string, name: string): ProviderError {
  return new ProviderError("stream", l10n.t("{0} sent a response Kiln could not read ({1}).", name, why));
}

function readChunk(raw: GenerateContentResponse, name: string): Chunk {
  const chunk = chunkSchema.safeParse(raw);
  if (!chunk.success) {
    const issue = chunk.error.issues[0];
    throw unreadable(issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid chunk", name);
  }
  return chunk.data;
}

/**
 * A chunk that carries part of the reply; one with only usage shows that the server is still there.
 * Read before the chunk is checked (readChunk), so it trusts none of its shape.
 */
function hasContent(raw: GenerateContentResponse): boolean {
  const candidate: unknown = Array.isArray(raw?.candidates) ? raw.candidates[0] : undefined;
  const { finishReason, content } = (candidate ?? {}) as { finishReason?: unknown; content?: { parts?: unknown } };
  const parts = content?.parts;
  const replying = Array.isArray(parts) && parts.some((p: { text?: unknown; functionCall?: unknown } | null) => p?.text || p?.functionCall);
  return Boolean(finishReason || raw?.promptFeedback?.blockReason || replying);
}

// Google's error body: { error: { code, message, status, details: [ErrorInfo {reason}, RetryInfo {retryDelay: "34s"}…] } }.
const googleErrorSchema = z.looseObject({
  error: z.looseObject({
    message: z.string().optional().catch(undefined),
    status: z.string().max(100).optional().catch(undefined),
    details: z
      .array(z.looseObject({ reason: z.string().optional().catch(undefined), retryDelay: z.string().optional().catch(undefined) }))
      .optional()
      .catch(undefined),
  }),
});

interface GoogleError {
  detail: string;
  status?: string;
  reason?: string;
  /** From RetryInfo, in seconds as a Retry-After header gives them. */
  retryAfter?: string;
}

/** The SDK's ApiError message is Google's JSON error body (after "got status: X. " when it came inside the stream). */
function readGoogleError(message: string): GoogleError {
  const json = message.slice(Math.max(0, message.indexOf("{")));
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    body = undefined;
  }
  const parsed = googleErrorSchema.safeParse(body);
  if (!parsed.success) return { detail: message.trim().slice(0, 500) };
  const { error } = parsed.data;
  const delay = error.details?.map((d) => d.retryDelay).find((d) => d !== undefined && /^\d+(\.\d+)?s$/.test(d));
  return {
    detail: (error.message?.trim() || message.trim()).slice(0, 500),
    status: error.status,
    reason: error.details?.map((d) => d.reason).find((r) => r !== undefined),
    retryAfter: delay?.slice(0, -1),
  };
}

function fromApiError(err: ApiError, name: string): ProviderError {
  const google = readGoogleError(err.message);
  const status = err.status;
  // The status (RESOURCE_EXHAUSTED…) and the reason (API_KEY_EXPIRED…) both say what kind of failure it is.
  const code = [google.status, google.reason].filter(Boolean).join(" ");
  return httpFailure({ status, detail: google.detail, code, retryAfter: google.retryAfter }, name);
}

function toGeminiError(err: unknown, name: string): ProviderError | CancelledError {
  if (err instanceof ApiError) return fromApiError(err, name);
  // The SDK's own words for SSE it could not split into events.
  if (err instanceof Error && /^(Incomplete JSON segment|exception parsing stream chunk)/.test(err.message)) return unreadable(err.message.slice(0, 200), name);
  return toProviderError(err, name);
}

function newCallId(index: number): string {
  // Unique beyond this reply: the remembered signatures are found by id, also after a restart.
  return `call_${index}_${randomBytes(6).toString("hex")}`;
}

/**
 * Gemini served through another door (Google Vertex AI): a GoogleGenAI client set up for it, and
 * the name the user knows that service by.
 */
export interface GeminiHost {
  client: GoogleGenAI;
  providerName: string;
}

export class GeminiProvider implements Provider {
  readonly kind = "gemini" as const;
  readonly model: string;
  private readonly client: GoogleGenAI;
  private readonly timeouts: StreamTimeouts;
  private readonly name: string;
  private readonly reasoning: ReasoningSettings;

  constructor(config: ResolvedProviderConfig, host?: GeminiHost) {
    this.model = config.model;
    this.reasoning = reasoningOf(config);
    this.timeouts = config.timeouts;
    this.name = host?.providerName ?? providerName();
    if (host) {
      this.client = host.client;
      return;
    }
    if (!config.apiKey) {
      throw new ProviderError("no_key", l10n.t('No {0} API key is set. Run "Kiln: Set API Key" (or set {1} in the environment) and retry.', providerName(), "GEMINI_API_KEY"));
    }
    // A URL copied from Google's docs ends in the version, which the SDK adds itself.
    const baseUrl = config.baseUrl.replace(/\/+$/, "").replace(/\/v1beta$/, "") || GOOGLE_BASE_URL;
    this.client = new GoogleGenAI({
      // Explicit, so GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GEMINI_BASE_URL or GOOGLE_GENAI_API_VERSION in the environment change nothing.
      vertexai: false,
      apiKey: config.apiKey,
      apiVersion: API_VERSION,
      // No retryOptions: retries belong to the loop (it shows them and honours the retry delay).
      httpOptions: { baseUrl },
    });
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    const name = this.name;
    const watch = new RequestWatch(request.signal, this.timeouts, name);
    let usage: Chunk["usageMetadata"];
    let finishReason: string | undefined;
    let calls = 0;
    try {
      // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
      const system = redactSecrets(request.system);
      const contents = toGeminiContents(redactDeep(request.messages), this.model);
      const thinking = thinkingConfig(this.model, this.reasoning);
      const config: GenerateContentConfig = {
        abortSignal: watch.signal,
        // A dropped stream is the loop's to retry, where the user sees it, not the SDK's to resume silently.
        automaticContinuation: false,
        ...(system ? { systemInstruction: system } : {}),
        ...(request.tools?.length ? { tools: toGeminiTools(request.tools) } : {}),
        ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
        ...(thinking ? { thinkingConfig: thinking } : {}),
      };
      const stream = await watch.guard(this.client.models.generateContentStream({ model: this.model, contents, config }));
      for await (const raw of watchedEvents(stream, watch, hasContent)) {
        const chunk = readChunk(raw, name);
        const blocked = chunk.promptFeedback?.blockReason;
        if (blocked) throw new ProviderError("refused", l10n.t("{0}'s safety filters blocked the request ({1}).", name, blocked));
        // Each chunk carries the running totals: the last one holds the reply's.
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          if (part.functionCall) {
            const call = part.functionCall;
            const id = call.id ?? newCallId(calls);
            remember(id, { fromGemini: call.id !== undefined, signature: part.thoughtSignature });
            yield { type: "tool_call_delta", index: calls++, id, name: call.name, argsDelta: JSON.stringify(call.args ?? {}) };
          } else if (part.text) {
            yield part.thought ? { type: "reasoning", text: part.text } : { type: "text", text: part.text };
          }
        }
        if (candidate?.finishReason) finishReason = candidate.finishReason;
      }
      if (request.signal?.aborted) throw new CancelledError();
      if (usage) {
        yield {
          type: "usage",
          // promptTokenCount already includes the cached tokens (the OpenAI convention).
          inputTokens: usage.promptTokenCount ?? 0,
          outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
          cacheReadTokens: usage.cachedContentTokenCount ?? 0,
        };
      }
      if (!finishReason) throw new ProviderError("stream", l10n.t("{0} ended the reply before it was complete (no finishReason).", name));
      if (FILTERED.has(finishReason)) throw new ProviderError("refused", l10n.t("{0} stopped the reply: its content filters flagged it ({1}).", name, finishReason));
      if (BROKEN_CALL.has(finishReason)) throw new ProviderError("stream", l10n.t("{0} could not complete the model's tool call ({1}).", name, finishReason));
    } catch (err) {
      throw toGeminiError(watch.failure(err), name);
    } finally {
      watch.dispose();
    }
  }

  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    try {
      const pager = await this.client.models.list({ config: { pageSize: 1000, abortSignal: signal } });
      const listed: unknown[] = [...pager.page];
      for (let pages = 1; pager.hasNextPage() && pages < MAX_LIST_PAGES; pages++) listed.push(...(await pager.nextPage()));
      return geminiListings(listed);
    } catch (err) {
      throw toGeminiError(err, this.name);
    }
  }
}

const tokenLimit = z.number().int().positive().max(100_000_000);
const listedModelSchema = z.looseObject({
  name: z.string().min(1).max(250),
  displayName: z.string().max(200).optional().catch(undefined),
  inputTokenLimit: tokenLimit.optional().catch(undefined),
  outputTokenLimit: tokenLimit.optional().catch(undefined),
  // The SDK's name for the REST field supportedGenerationMethods.
  supportedActions: z.array(z.string()).optional().catch(undefined),
});

/** A model id the SDK will put in a URL path: it rejects "..", "?" and "&" itself. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/;

/**
 * The chat models of a models.list answer, each checked on its own. Kiln's contextWindow is input
 * plus output, so it is inputTokenLimit + outputTokenLimit: Google's input limit is already what
 * the prompt alone may take.
 */
export function geminiListings(listed: readonly unknown[]): ModelListing[] {
  const seen = new Set<string>();
  const out: ModelListing[] = [];
  for (const raw of listed) {
    const model = listedModelSchema.safeParse(raw);
    if (!model.success || !model.data.supportedActions?.includes("generateContent")) continue;
    const id = model.data.name.replace(/^models\//, "");
    if (!MODEL_ID.test(id) || id.includes("..") || seen.has(id)) continue;
    seen.add(id);
    const { displayName, inputTokenLimit: input, outputTokenLimit: output } = model.data;
    const info = {
      ...(input !== undefined ? { contextWindow: input + (output ?? 0) } : {}),
      ...(output !== undefined ? { maxOutputTokens: output } : {}),
    };
    out.push({ id, ...(displayName && displayName !== id ? { name: displayName } : {}), ...(Object.keys(info).length ? { info } : {}) });
  }
  return out;
}
