import type { HostToWebview } from "../../shared/protocol/messages";
import type { Task, TaskEvent } from "./Task";

/**
 * What the chat view is sent for a task event: deltas only (an item appended, a text grown, a card
 * changed), so a streamed token costs the same in a long task as in a short one.
 */
export function toHostMessage(event: TaskEvent, task: Pick<Task, "info">): HostToWebview | undefined {
  switch (event.type) {
    case "appended":
      return { type: "chat/appended", item: event.item };
    case "textDelta":
      return { type: "chat/textDelta", id: event.id, delta: event.delta, field: event.field };
    case "itemChanged":
      return { type: "chat/itemChanged", item: event.item };
    case "itemRemoved":
      return { type: "chat/itemRemoved", id: event.id };
    case "busy":
      return { type: "chat/busy", busy: event.busy };
    case "retrying":
      return { type: "chat/retrying", attempt: event.attempt, of: event.of, delayMs: event.delayMs, reason: event.reason };
    case "usage":
    case "todos":
    case "mode":
    case "status":
      return { type: "chat/task", task: task.info() };
    case "protocol":
      return undefined;
  }
}
