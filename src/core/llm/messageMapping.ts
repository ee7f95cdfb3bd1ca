import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { LlmImage, LlmMessage, NativeTool } from "./types";
import { thinkingBefore } from "./claudeThinking";

type AnthropicMessage = Anthropic.MessageParam;
type OpenAiMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** `withThinking`: a turn that called tools starts with the thinking Claude sent with it (claudeThinking.ts). */
export function toAnthropicMessages(messages: readonly LlmMessage[], withThinking = false): AnthropicMessage[] {
  return messages.map((m) => {
    if (typeof m.content === "string") return { role: m.role, content: m.content };
    const firstCall = m.content.find((b) => b.type === "tool_use");
    const thinking = withThinking && m.role === "assistant" && firstCall ? (thinkingBefore(firstCall.id) ?? []) : [];
    return {
      role: m.role,
      content: [
        ...thinking,
        ...m.content.map((block) => {
          switch (block.type) {
            case "text":
              return { type: "text" as const, text: block.text };
            case "tool_use":
              return { type: "tool_use" as const, id: block.id, name: block.name, input: block.input };
            case "image":
              return anthropicImage(block);
            case "tool_result":
              return {
                type: "tool_result" as const,
                tool_use_id: block.toolUseId,
                content: block.images?.length ? [{ type: "text" as const, text: block.content }, ...block.images.map(anthropicImage)] : block.content,
                is_error: block.isError,
              };
          }
        }),
      ],
    };
  });
}

function anthropicImage(image: LlmImage): Anthropic.ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

export function toAnthropicTools(tools: readonly NativeTool[]): Anthropic.Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema }));
}

/** OpenAI wants tool results as separate `tool` messages right after the assistant's calls. */
export function toOpenAiMessages(system: string, messages: readonly LlmMessage[]): OpenAiMessage[] {
  const out: OpenAiMessage[] = [{ role: "system", content: system }];
  for (const m of messages) {
    if (typeof m.content === "string") {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    if (m.role === "assistant") {
      const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      const calls = m.content.flatMap((b) => (b.type === "tool_use" ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : []));
      out.push({ role: "assistant", content: text || null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    // Tool messages take text only: images (a screenshot, an image file) follow in a user message.
    const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
    for (const block of m.content) {
      if (block.type === "tool_result") {
        out.push({ role: "tool", tool_call_id: block.toolUseId, content: block.content });
        for (const image of block.images ?? []) parts.push(openAiImage(image));
      } else if (block.type === "text") parts.push({ type: "text", text: block.text });
      else if (block.type === "image") parts.push(openAiImage(block));
    }
    if (parts.length > 0) {
      const onlyText = parts.every((p) => p.type === "text");
      out.push({ role: "user", content: onlyText ? parts.map((p) => (p as { text: string }).text).join("\n\n") : parts });
    }
  }
  return out;
}

function openAiImage(image: LlmImage): OpenAI.Chat.Completions.ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

export function toOpenAiTools(tools: readonly NativeTool[]): OpenAI.Chat.Completions.ChatCompletionTool[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}
