import * as l10n from "@vscode/l10n";
import type OpenAI from "openai";
import type { LlmImage, LlmMessage, LlmRequest, NativeTool, StreamEvent } from "./types";
import { CancelledError, httpFailure, ProviderError, toProviderError } from "./errors";
import { redactDeep, redactSecrets } from "./redact";
import { RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";
import { effortOf, type ReasoningSettings } from "../../shared/reasoning";

/**
 * OpenAI's reasoning models through the Responses API: it streams a summary of the model's
 * reasoning (Chat Completions shows none), and the reasoning of a reply that called tools can be
 * sent back with the calls' results, so the model goes on from it instead of thinking again.
 */

/**
 * OpenAI's reasoning models by id: the o-series (o1, o3, o4-mini…), the gpt-5 family and the codex
 * models, also under a router's "openai/" prefix. The gpt-5 chat models ("gpt-5-chat-latest")
 * take no reasoning settings and stay on Chat Completions.
 */
const REASONING_MODEL = /^(?:openai\/)?(?:o\d|gpt-5|codex)/i;
const CHAT_MODEL = /^(?:openai\/)?gpt-5[^/]*-chat/i;

export function isOpenAiReasoningModel(model: string): boolean {
  return REASONING_MODEL.test(model) && !CHAT_MODEL.test(model);
}

/** A reasoning item as it goes back: its encrypted reasoning and the summary shown of it. */
interface ReasoningInput {
  type: "reasoning";
  summary: { type: "summary_text"; text: string }[];
  encrypted_content: string;
}

/**
 * With `store: false` OpenAI keeps nothing, so a reply's reasoning can only go back as its encrypted
 * content. LlmContent has no place for it: it waits here, by the call_id of the reply's first
 * function call, until that call is sent back (as claudeThinking.ts does for Claude). A task resumed
 * in a new process has none, and its request goes without; the model then reasons afresh.
 */
const remembered = new Map<string, ReasoningInput[]>();
const MAX_REMEMBERED = 1024;

function rememberReasoning(firstCallId: string, items: readonly ReasoningInput[]): void {
  if (items.length === 0) return;
  remembered.delete(firstCallId);
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(firstCallId, [...items]);
}

/**
 * What the request sends that the SDK's input types do not describe: an earlier reply's text and
 * its reasoning go back without the ids the server gave them, which point at nothing once
 * `store: false` has kept nothing (the server refuses such ids: "Item with id … not found").
 */
type InputItem = OpenAI.Responses.ResponseInputItem | ReasoningInput | { type: "message"; role: "assistant"; content: { type: "output_text"; text: string }[] };

export function toResponsesInput(messages: readonly LlmMessage[]): InputItem[] {
  const out: InputItem[] = [];
  for (const m of messages) {
    if (typeof m.content === "string") {
      if (m.role === "assistant") out.push(assistantText(m.content));
      else out.push({ role: "user", content: m.content });
      continue;
    }
    if (m.role === "assistant") {
      const firstCall = m.content.find((b) => b.type === "tool_use");
      // The reasoning came before the reply's text and calls, and goes back in that place.
      if (firstCall) out.push(...(remembered.get(firstCall.id) ?? []).map(withRedactedSummary));
      const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      if (text) out.push(assistantText(text));
      for (const block of m.content) {
        if (block.type === "tool_use") out.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
      }
      continue;
    }
    // A function_call_output takes text here: a result's images follow in a user message, as on Chat Completions.
    const parts: OpenAI.Responses.ResponseInputContent[] = [];
    for (const block of m.content) {
      if (block.type === "tool_result") {
        out.push({ type: "function_call_output", call_id: block.toolUseId, output: block.content });
        for (const image of block.images ?? []) parts.push(inputImage(image));
      } else if (block.type === "text") parts.push({ type: "input_text", text: block.text });
      else if (block.type === "image") parts.push(inputImage(block));
    }
    if (parts.length > 0) out.push({ role: "user", content: parts });
  }
  return out;
}

function assistantText(text: string): InputItem {
  return { type: "message", role: "assistant", content: [{ type: "output_text", text }] };
}

function withRedactedSummary(item: ReasoningInput): ReasoningInput {
  // The summary is readable text, and every request goes through the same door; the encrypted part is opaque.
  return { ...item, summary: item.summary.map((s) => ({ ...s, text: redactSecrets(s.text) })) };
}

function inputImage(image: LlmImage): OpenAI.Responses.ResponseInputImage {
  return { type: "input_image", image_url: `data:${image.mediaType};base64,${image.data}`, detail: "auto" };
}

export function toResponsesTools(tools: readonly NativeTool[]): OpenAI.Responses.FunctionTool[] {
  // Not strict: strict mode wants every property required and no extra ones, which Kiln's schemas do not promise.
  return tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}

export interface ResponsesTarget {
  client: OpenAI;
  model: string;
  reasoning: ReasoningSettings;
  timeouts: StreamTimeouts;
  /** The name the user knows the provider by, in error messages. */
  providerName: string;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** The events that are part of the reply itself; the others (created, in_progress, part added…) only show the server is there. */
const CONTENT_EVENTS = new Set([
  "response.output_text.delta",
  "response.reasoning_summary_text.delta",
  "response.output_item.added",
  "response.function_call_arguments.delta",
  "response.output_item.done",
]);

export async function* streamResponses(target: ResponsesTarget, request: LlmRequest): AsyncGenerator<StreamEvent> {
  const name = target.providerName;
  const unreadable = (what: string) => new ProviderError("stream", l10n.t("{0} sent a response Kiln could not read ({1}).", name, what));
  const watch = new RequestWatch(request.signal, target.timeouts, name);
  let complete = false;
  try {
    const effort = effortOf(target.reasoning);
    const stream = await watch.guard(
      target.client.responses.create(
        {
          model: target.model,
          // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
          instructions: redactSecrets(request.system),
          input: toResponsesInput(redactDeep(request.messages)) as OpenAI.Responses.ResponseInput,
          ...(request.tools && request.tools.length > 0 ? { tools: toResponsesTools(request.tools) } : {}),
          ...(request.maxTokens === undefined ? {} : { max_output_tokens: request.maxTokens }),
          stream: true,
          // Kiln keeps the conversation itself; the reasoning comes back encrypted so it can be sent again.
          store: false,
          include: ["reasoning.encrypted_content"],
          reasoning: { summary: "auto", ...(effort ? { effort } : {}) },
        },
        { signal: watch.signal },
      ),
    );
    const calls = new Set<number>();
    const reasoningItems: ReasoningInput[] = [];
    let firstCallId: string | undefined;
    let summaryPart: string | undefined;
    for await (const event of watchedEvents(stream as AsyncIterable<unknown>, watch, (e) => isRecord(e) && CONTENT_EVENTS.has(String(e.type)))) {
      if (!isRecord(event)) throw unreadable(String(event).slice(0, 100));
      switch (event.type) {
        case "response.output_text.delta":
          if (typeof event.delta !== "string") throw unreadable("response.output_text.delta");
          if (event.delta) yield { type: "text", text: event.delta };
          break;
        case "response.reasoning_summary_text.delta": {
          if (typeof event.delta !== "string") throw unreadable("response.reasoning_summary_text.delta");
          // A summary comes in parts, each a paragraph of its own; run together they would read as one.
          const part = `${String(event.item_id)}/${String(event.summary_index)}`;
          const text = summaryPart !== undefined && summaryPart !== part ? `\n\n${event.delta}` : event.delta;
          summaryPart = part;
          if (text) yield { type: "reasoning", text };
          break;
        }
        case "response.output_item.added": {
          const item = event.item;
          if (!isRecord(item) || item.type !== "function_call") break;
          if (!isIndex(event.output_index) || typeof item.call_id !== "string" || !item.call_id || typeof item.name !== "string" || !item.name) {
            throw unreadable("response.output_item.added");
          }
          calls.add(event.output_index);
          firstCallId ??= item.call_id;
          yield { type: "tool_call_delta", index: event.output_index, id: item.call_id, name: item.name, argsDelta: "" };
          break;
        }
        case "response.function_call_arguments.delta":
          // Arguments for a call that was never announced would have no name to run it by.
          if (!isIndex(event.output_index) || !calls.has(event.output_index) || typeof event.delta !== "string") throw unreadable("response.function_call_arguments.delta");
          yield { type: "tool_call_delta", index: event.output_index, argsDelta: event.delta };
          break;
        case "response.output_item.done": {
          const item = reasoningItem(event.item);
          if (item) reasoningItems.push(item);
          break;
        }
        case "response.completed":
        case "response.incomplete": {
          // Incomplete: the reply reached max_output_tokens (or a filter stopped it); what came is the reply.
          const usage = usageOf(event.response);
          if (usage) yield usage;
          complete = true;
          break;
        }
        case "response.failed": {
          const response = isRecord(event.response) ? event.response : {};
          throw failure(isRecord(response.error) ? response.error : {}, "response.failed", name);
        }
        case "error":
          throw failure(event, "error", name);
        default:
          break;
      }
      if (complete) break;
    }
    // The OpenAI SDK ends an aborted stream quietly; a cancel must not look like a finished reply.
    if (request.signal?.aborted) throw new CancelledError();
    if (!complete) throw new ProviderError("stream", l10n.t("{0}'s reply ended before it was complete (the stream stopped without response.completed).", name));
    // Only a reply that called tools needs its reasoning back: the calls' results continue it.
    if (firstCallId) rememberReasoning(firstCallId, reasoningItems);
  } catch (err) {
    throw toProviderError(watch.failure(err), name);
  } finally {
    watch.dispose();
  }
}

/** A finished reasoning item that can go back: one without encrypted content cannot (store: false kept nothing else). */
function reasoningItem(item: unknown): ReasoningInput | undefined {
  if (!isRecord(item) || item.type !== "reasoning") return undefined;
  if (typeof item.encrypted_content !== "string" || !item.encrypted_content) return undefined;
  const summary = Array.isArray(item.summary) ? item.summary.filter((s): s is { type: "summary_text"; text: string } => isRecord(s) && s.type === "summary_text" && typeof s.text === "string") : [];
  return { type: "reasoning", summary: summary.map((s) => ({ type: "summary_text", text: s.text })), encrypted_content: item.encrypted_content };
}

/**
 * The counts of a finished reply. Input includes the cached tokens (OpenAI's convention, as on Chat
 * Completions). A reply that came whole is not thrown away over unreadable counts: it goes without.
 */
function usageOf(response: unknown): StreamEvent | undefined {
  const usage = isRecord(response) ? response.usage : undefined;
  if (!isRecord(usage) || !isCount(usage.input_tokens) || !isCount(usage.output_tokens)) return undefined;
  const cached = isRecord(usage.input_tokens_details) ? usage.input_tokens_details.cached_tokens : undefined;
  return { type: "usage", inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, cacheReadTokens: isCount(cached) ? cached : 0 };
}

/**
 * A failure reported inside the stream (response.failed, an error event). The HTTP status was 200,
 * so the error's code stands for the status it would have had, and the reply gets the kind an HTTP
 * error would: a rate limit waits and retries, a bad prompt is not sent again as it is.
 */
function failure(error: Json, eventType: string, providerName: string): ProviderError {
  const code = typeof error.code === "string" && error.code ? error.code : undefined;
  // Without a message, the code or at least the event's name says what came.
  const detail = typeof error.message === "string" && error.message.trim() ? error.message.trim().slice(0, 1000) : (code ?? eventType);
  if (code === undefined) return new ProviderError("stream", l10n.t("{0} reported an error mid-stream: {1}", providerName, detail), undefined, undefined, detail);
  const status = /rate_limit/.test(code) ? 429 : code === "server_error" ? 500 : 400;
  return httpFailure({ status, detail, code }, providerName);
}
