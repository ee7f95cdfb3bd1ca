import type { ChatItem } from "../../shared/protocol/chat";

export const INTERRUPTED_NOTE = "Interrupted: Kiln stopped before this call finished. It is not run again on resume.";

/**
 * A task saved mid-stream (a crash, a reload) shows as it was, except that nothing still looks
 * alive: a half-streamed reply is finished, and a tool call that was streaming, waiting for
 * approval or running is marked interrupted, so no button can run it a second time.
 */
export function mendInterrupted(items: readonly ChatItem[]): { items: ChatItem[]; interrupted: number } {
  let interrupted = 0;
  const mended = items.map((item): ChatItem => {
    if (item.role === "assistant" && item.partial) return { ...item, partial: false };
    if (item.role === "tool" && (item.status === "streaming" || item.status === "waiting" || item.status === "running")) {
      interrupted++;
      const { approval: _approval, ...rest } = item;
      return { ...rest, status: "error", result: INTERRUPTED_NOTE };
    }
    return item;
  });
  return { items: mended, interrupted };
}
