import { toolHeading } from "../../shared/toolView";
import type { TaskEvent } from "./ChatLog";

/** Something in a task that a person away from the window would want to know. */
export interface Attention {
  kind: "done" | "failed" | "approval" | "question";
  /** Tells repeats apart: a card that changes while it waits is still one ask. */
  key: string;
  /** One line: what happened or what is asked. */
  text: string;
}

const MAX_TEXT = 200;

function line(text: string): string {
  const first = text.trim().split("\n")[0] ?? "";
  return first.length > MAX_TEXT ? `${first.slice(0, MAX_TEXT - 1)}…` : first;
}

/**
 * Whether a task event calls for the user: the task finished or failed, or it waits on an Approve /
 * Reject or on an answer. Other events (text streaming, a call running) are for the chat alone.
 */
export function attentionOf(event: TaskEvent): Attention | undefined {
  if (event.type !== "appended" && event.type !== "itemChanged") return undefined;
  const item = event.item;
  switch (item.role) {
    case "completion":
      return event.type === "appended" ? { kind: "done", key: item.id, text: line(item.result) || "The task is complete." } : undefined;
    case "error":
      return event.type === "appended" ? { kind: "failed", key: item.id, text: line(item.error.message) } : undefined;
    case "question":
      return event.type === "appended" ? { kind: "question", key: item.id, text: line(item.question) } : undefined;
    case "tool":
      if (item.status !== "waiting" || !item.approval) return undefined;
      return { kind: "approval", key: item.id, text: line(item.view ? toolHeading(item.view) : item.approval.summary) };
    default:
      return undefined;
  }
}
