import { DEFAULT_REPLY_LIMITS } from "./replyLimits";
import type { LlmContent, LlmMessage, Provider } from "../llm/types";
import type { Usage } from "./usage";

const PER_BLOCK = 4000;

function clip(text: string): string {
  return text.length > PER_BLOCK ? `${text.slice(0, PER_BLOCK)} […${text.length - PER_BLOCK} characters left out]` : text;
}

function renderBlock(block: LlmContent): string {
  switch (block.type) {
    case "text":
      return clip(block.text);
    case "image":
      return "[an image]";
    case "tool_use":
      return `[called ${block.name} with ${clip(JSON.stringify(block.input))}]`;
    case "tool_result":
      return `[result${block.isError ? " (error)" : ""}: ${clip(block.content)}]`;
  }
}

/** The conversation as plain text: summarisers need no tool protocol, and long results are clipped. */
export function transcript(messages: readonly LlmMessage[]): string {
  return messages.map((m) => `${m.role === "user" ? "USER" : "ASSISTANT"}:\n${typeof m.content === "string" ? clip(m.content) : m.content.map(renderBlock).join("\n")}`).join("\n\n");
}

export const CONDENSE_INSTRUCTIONS =
  "You summarise a coding agent's conversation so the agent can go on without it. Keep: the user's goal and constraints, decisions made, files read or changed (with paths and what matters in them), commands run and their outcome, errors met, and the work still open. Be specific and brief; no preamble.";

export interface SummaryRequest {
  /** What the summary must keep, in the words of the model or the user that asked for it. */
  focus: string;
  /** The user's own condensing prompt (kiln.context.condensePrompt); the built-in one when empty. */
  instructions?: string;
  signal: AbortSignal;
  onUsage(usage: Usage): void;
}

/** One request that turns the conversation so far into a summary message. */
export async function summarize(provider: Provider, messages: readonly LlmMessage[], request: SummaryRequest): Promise<string> {
  const { focus, signal } = request;
  const ask = `${transcript(messages)}\n\n---\nSummarise the conversation above.${focus ? ` Make sure to keep: ${focus}` : ""}`;
  const system = request.instructions?.trim() || CONDENSE_INSTRUCTIONS;
  let summary = "";
  for await (const event of provider.stream({ system, messages: [{ role: "user", content: ask }], signal })) {
    if (event.type === "text") summary += event.text;
    else if (event.type === "usage") {
      const { type: _usage, ...usage } = event;
      request.onUsage(usage);
    }
    // A summary without end is no summary: it stops at the limit of any reply.
    if (summary.length > DEFAULT_REPLY_LIMITS.maxReplyChars) break;
  }
  if (summary.trim() === "") throw new Error("the model returned an empty summary");
  return summary.trim();
}
