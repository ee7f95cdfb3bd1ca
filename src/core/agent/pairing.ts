import type { LlmContent, LlmMessage } from "../llm/types";

const INTERRUPTED = "No result: the call was interrupted before it ran.";

/**
 * APIs refuse (HTTP 400) a conversation where a tool_use has no tool_result in the next message,
 * or a tool_result answers no tool_use. Checked before every request; what is off is mended (a
 * missing result becomes "interrupted", an orphan result is dropped) and reported.
 */
export function repairToolPairing(messages: readonly LlmMessage[]): { messages: LlmMessage[]; problems: string[] } {
  const out: LlmMessage[] = [];
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const previous = out.at(-1);
    const expected = previous?.role === "assistant" && typeof previous.content !== "string" ? previous.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])) : [];
    if (message.role !== "user") {
      if (expected.length > 0) {
        problems.push(`tool calls ${expected.join(", ")} had no results; marked interrupted`);
        out.push({ role: "user", content: expected.map((id) => ({ type: "tool_result", toolUseId: id, content: INTERRUPTED, isError: true })) });
      }
      out.push(message);
      continue;
    }
    const blocks: LlmContent[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const seen = new Set<string>();
    const kept: LlmContent[] = [];
    for (const block of blocks) {
      if (block.type !== "tool_result") {
        kept.push(block);
      } else if (!expected.includes(block.toolUseId) || seen.has(block.toolUseId)) {
        problems.push(`dropped a result for ${block.toolUseId}, which no call in the previous message made`);
      } else {
        seen.add(block.toolUseId);
        kept.push(block);
      }
    }
    const missing = expected.filter((id) => !seen.has(id));
    if (missing.length > 0) problems.push(`tool calls ${missing.join(", ")} had no results; marked interrupted`);
    const results: LlmContent[] = missing.map((id) => ({ type: "tool_result", toolUseId: id, content: INTERRUPTED, isError: true }));
    const unchanged = missing.length === 0 && kept.length === blocks.length;
    out.push(unchanged ? message : { role: "user", content: [...results, ...kept] });
  }
  const last = out.at(-1);
  if (last?.role === "assistant" && typeof last.content !== "string" && last.content.some((b) => b.type === "tool_use")) {
    const ids = last.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    problems.push(`tool calls ${ids.join(", ")} had no results; marked interrupted`);
    out.push({ role: "user", content: ids.map((id) => ({ type: "tool_result", toolUseId: id, content: INTERRUPTED, isError: true })) });
  }
  return { messages: out, problems };
}
