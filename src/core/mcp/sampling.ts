import type { CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpRequestItem } from "../../shared/protocol/mcpRequests";
import type { LlmContent, LlmMessage, Provider } from "../llm/types";
import { cap, describeSize, imageOrNote } from "./format";
import { McpRequestRefused, type SamplingAnswer, type SamplingMessage, type SamplingRequest } from "./requests";

/**
 * sampling/createMessage: a server asks Kiln's model for an answer. The SDK has checked the shape;
 * here we bound the sizes (a server can send anything), turn the request into the provider's
 * messages, and run it once the user has approved it.
 */

export const MAX_SAMPLING_MESSAGES = 100;
/** Per text part, and for the whole prompt: beyond this the request is refused, not cut. */
const MAX_PART_CHARS = 100_000;
const MAX_PROMPT_CHARS = 400_000;
/** The most Kiln lets a server ask the model to write, whatever its maxTokens says. */
export const MAX_SAMPLING_TOKENS = 16_384;
/** What the chat shows of each message. */
const SHOWN_CHARS = 20_000;
const ANSWER_CHARS = 100_000;
const DEFAULT_SYSTEM = "Answer the request below.";

type Params = CreateMessageRequest["params"];

/** The request in Kiln's terms, or McpRequestRefused saying what Kiln does not do. */
export function samplingRequestFrom(server: string, params: Params): SamplingRequest {
  if (params.tools?.length || params.toolChoice) throw new McpRequestRefused("Kiln does not offer tools in sampling requests.");
  if (params.messages.length === 0) throw new McpRequestRefused("The sampling request has no messages.");
  if (params.messages.length > MAX_SAMPLING_MESSAGES) throw new McpRequestRefused(`The sampling request has ${params.messages.length} messages; Kiln takes at most ${MAX_SAMPLING_MESSAGES}.`);
  if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) throw new McpRequestRefused("maxTokens must be a positive whole number.");
  let chars = params.systemPrompt?.length ?? 0;
  let images = 0;
  const messages: SamplingMessage[] = params.messages.map((m) => {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    const parts: SamplingMessage["parts"] = blocks.map((block) => {
      switch (block.type) {
        case "text":
          chars += block.text.length;
          if (block.text.length > MAX_PART_CHARS) throw new McpRequestRefused(`A message of the sampling request has ${block.text.length} characters; Kiln takes at most ${MAX_PART_CHARS}.`);
          return { type: "text", text: block.text };
        case "image": {
          const image = imageOrNote(block.data, block.mimeType, "image", images);
          if (typeof image === "string") return { type: "text", text: image };
          images++;
          return { type: "image", ...image };
        }
        case "audio":
          return { type: "text", text: `[audio: ${block.mimeType}, ${describeSize(block.data)}, left out: the model takes no audio]` };
        default:
          throw new McpRequestRefused("Kiln does not offer tools in sampling requests, so tool calls and results cannot be part of one.");
      }
    });
    return { role: m.role, parts };
  });
  if (chars > MAX_PROMPT_CHARS) throw new McpRequestRefused(`The sampling request has ${chars} characters; Kiln takes at most ${MAX_PROMPT_CHARS}.`);
  return {
    server,
    ...(params.systemPrompt?.trim() ? { systemPrompt: params.systemPrompt } : {}),
    messages,
    maxTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS),
  };
}

/** What the chat card shows: the prompt as text, images named. */
export function shownSampling(request: SamplingRequest): Extract<McpRequestItem["request"], { kind: "sampling" }> {
  return {
    kind: "sampling",
    ...(request.systemPrompt !== undefined ? { systemPrompt: cap(request.systemPrompt, SHOWN_CHARS) } : {}),
    messages: request.messages.map((m) => ({
      role: m.role,
      text: cap(m.parts.map((p) => (p.type === "text" ? p.text : `[image: ${p.mediaType}, ${describeSize(p.data)}]`)).join("\n"), SHOWN_CHARS),
    })),
    maxTokens: request.maxTokens,
  };
}

/** The provider's messages: text alone stays a string; messages of one role in a row become one. */
export function toLlmMessages(messages: readonly SamplingMessage[]): LlmMessage[] {
  const out: { role: LlmMessage["role"]; blocks: LlmContent[] }[] = [];
  for (const m of messages) {
    const blocks: LlmContent[] = m.parts.map((p) => (p.type === "text" ? { type: "text", text: p.text } : { type: "image", mediaType: p.mediaType, data: p.data }));
    const last = out.at(-1);
    if (last?.role === m.role) last.blocks.push(...blocks);
    else out.push({ role: m.role, blocks });
  }
  return out.map(({ role, blocks }) => {
    const only = blocks.length === 1 ? blocks[0] : undefined;
    return { role, content: only?.type === "text" ? only.text : blocks };
  });
}

/** One request to the model, with the server's system prompt and token cap; its text is the answer. */
export async function runSampling(provider: Provider, request: SamplingRequest, signal: AbortSignal): Promise<SamplingAnswer> {
  let text = "";
  let outputTokens = 0;
  const stream = provider.stream({ system: request.systemPrompt ?? DEFAULT_SYSTEM, messages: toLlmMessages(request.messages), maxTokens: request.maxTokens, signal });
  for await (const event of stream) {
    if (event.type === "text") text += event.text;
    else if (event.type === "usage") outputTokens = event.outputTokens;
    // Only so much of the answer is sent back: a reply without end is stopped there, not held whole.
    if (text.length > ANSWER_CHARS) break;
  }
  if (text.trim() === "") throw new Error("the model answered with no text");
  return { text: cap(text, ANSWER_CHARS), model: provider.model, stopReason: outputTokens >= request.maxTokens ? "maxTokens" : "endTurn" };
}
