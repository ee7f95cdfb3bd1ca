import type Anthropic from "@anthropic-ai/sdk";

const EPHEMERAL = { type: "ephemeral" } as const;
/** Anthropic allows four cache breakpoints a request: tools, system, and the last two user turns. */
const MARKED_USER_TURNS = 2;

/**
 * Anthropic prompt caching: a breakpoint after the tools, after the system prompt and on the last
 * two user messages. The newest mark writes this request's prefix to the cache; the one before it
 * reads what the previous request wrote, so a long task pays the full input price only for what
 * is new. Reads cost a tenth of the input price, writes 1.25 times (models.ts prices both).
 */
export function withCacheMarks(
  system: string,
  tools: Anthropic.Tool[] | undefined,
  messages: Anthropic.MessageParam[],
): {
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[] | undefined;
  messages: Anthropic.MessageParam[];
} {
  const marked = messages.slice();
  let left = MARKED_USER_TURNS;
  for (let i = marked.length - 1; i >= 0 && left > 0; i--) {
    const message = marked[i]!;
    if (message.role !== "user" || message.content === "") continue;
    const blocks: Anthropic.ContentBlockParam[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content.slice();
    const last = blocks.at(-1);
    // Thinking blocks take no mark; an empty message has nowhere to put one.
    if (!last || last.type === "thinking" || last.type === "redacted_thinking") continue;
    blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL };
    marked[i] = { role: "user", content: blocks };
    left--;
  }
  const lastTool = tools?.at(-1);
  return {
    system: system ? [{ type: "text", text: system, cache_control: EPHEMERAL }] : [],
    tools: tools && lastTool ? [...tools.slice(0, -1), { ...lastTool, cache_control: EPHEMERAL }] : tools,
    messages: marked,
  };
}
