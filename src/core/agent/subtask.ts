import type { SubtaskResult } from "../ports/taskControls";
import type { ChatLog, TaskEvent, TaskStatus } from "./ChatLog";
import type { UsageMeter } from "./usage";

interface Child {
  onDidChange(listener: (event: TaskEvent) => void): { dispose(): void };
  cancel(): void;
  readonly status: TaskStatus;
}

/** Shows the subtask's items in the parent's chat and adds its tokens to the parent's. */
export function forwardSubtask(child: Child, parentLog: ChatLog, usage: UsageMeter): { dispose(): void } {
  let childWaits = false;
  return child.onDidChange((event) => {
    parentLog.mirror(event);
    if (event.type === "usage") usage.add(event.request, event.cost);
    // The chat is free while the subtask waits for an answer, and busy again when it goes on.
    if (event.type === "busy" && (event.busy ? childWaits : child.status === "answering")) {
      childWaits = !event.busy;
      parentLog.fire(event);
    }
  });
}

/**
 * Resolves when the subtask completes (with its result) or ends without completing. A question
 * from the subtask keeps it waiting: the user's answer reaches it through the parent.
 */
export function awaitSubtask(child: Child, signal: AbortSignal): Promise<SubtaskResult> {
  return new Promise((resolve) => {
    let result = "";
    const finish = (outcome: SubtaskResult) => {
      listener.dispose();
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const ended: readonly TaskStatus[] = ["failed", "stopped", "idle"];
    const listener = child.onDidChange((event) => {
      if (event.type === "appended" && event.item.role === "completion") result = event.item.result;
      if (event.type !== "status") return;
      if (event.status === "completed") finish({ ok: true, result });
      else if (ended.includes(event.status)) finish({ ok: false, reason: event.reason ?? `it ended as ${event.status}` });
    });
    const onAbort = () => {
      child.cancel();
      finish({ ok: false, reason: "the task was cancelled" });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}
