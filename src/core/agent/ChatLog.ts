import { Emitter, type Disposable } from "../../shared/disposable";
import type { ChatItem, ToolItem } from "../../shared/protocol/chat";
import type { Usage } from "./usage";
import type { TodoItem } from "../ports/taskControls";
import { presentTool, withView } from "./presenter";

/** idle: ready for a message; answering: a question waits for the user; the rest end a run. */
export type TaskStatus = "idle" | "running" | "answering" | "completed" | "failed" | "stopped";

export type TaskEvent =
  | { type: "appended"; item: ChatItem }
  | { type: "textDelta"; id: string; delta: string; field: "text" | "reasoning" }
  | { type: "itemChanged"; item: ChatItem }
  | { type: "itemRemoved"; id: string }
  | { type: "busy"; busy: boolean }
  | { type: "status"; status: TaskStatus; reason?: string }
  /** A transient failure; the request is sent again after delayMs. */
  | { type: "retrying"; attempt: number; of: number; delayMs: number; reason: string }
  /** Tokens of one request as the provider reported them, the task's totals so far, and their cost in USD where prices are known. */
  | { type: "usage"; request: Usage; total: Required<Usage>; cost: number | undefined; totalCost: number | undefined }
  /** The task's todo list changed (update_todo_list). */
  | { type: "todos"; todos: TodoItem[] }
  /** The mode changed (switch_mode); a subtask runs in its own mode. */
  | { type: "mode"; mode: string }
  /** The tool protocol changed for the rest of the task (auto falling back to XML). */
  | { type: "protocol"; protocol: "xml" | "native"; reason: string };

/**
 * The chat items a task shows, and the events that rebuild them elsewhere (the webview, the CLI's
 * output). Every change goes through here, so the list and its events cannot drift apart.
 */
export class ChatLog implements Disposable {
  private readonly items: ChatItem[] = [];
  /**
   * Where each item is in `items`, by id: a reply of thousands of tool calls looks each card up
   * several times, and a search of the list each time made that quadratic.
   */
  private readonly positions = new Map<string, number>();
  private readonly events = new Emitter<TaskEvent>();
  readonly onDidChange = this.events.event;
  private nextId = 1;

  /** A subtask's log takes its own prefix, so its items can live in the parent's list. */
  constructor(private readonly idPrefix = "m") {}

  get size(): number {
    return this.items.length;
  }

  newId(): string {
    return `${this.idPrefix}${this.nextId++}`;
  }

  /** A saved chat (task history): its items, with new ids continuing after the highest one. */
  load(items: readonly ChatItem[]): void {
    // Views are made anew: a saved card may come from a version that drew it otherwise, or none.
    this.items.splice(0, this.items.length, ...items.map((item) => (item.role === "tool" ? withView(item) : { ...item })));
    this.reindex(0);
    for (const item of items) {
      const n = item.id.startsWith(this.idPrefix) ? Number(item.id.slice(this.idPrefix.length)) : NaN;
      if (Number.isInteger(n) && n >= this.nextId) this.nextId = n + 1;
    }
  }

  snapshot(): ChatItem[] {
    return this.items.map((item) => ({ ...item }));
  }

  fire(event: TaskEvent): void {
    this.events.fire(event);
  }

  append(item: ChatItem): void {
    if (item.role === "tool" && !item.view) item = withView(item);
    this.positions.set(item.id, this.items.length);
    this.items.push(item);
    this.events.fire({ type: "appended", item: { ...item } });
  }

  /** Takes over a subtask's item changes, so the one chat shows both. */
  mirror(event: TaskEvent): void {
    if (event.type === "appended") this.append({ ...event.item });
    else if (event.type === "textDelta") this.textDelta(event.id, event.delta, event.field);
    else if (event.type === "itemChanged") this.replace({ ...event.item });
    else if (event.type === "itemRemoved") this.remove(event.id);
  }

  /** Takes one item out, wherever it is. */
  remove(id: string): void {
    const index = this.positions.get(id);
    if (index !== undefined) {
      this.items.splice(index, 1);
      this.positions.delete(id);
      this.reindex(index);
    }
    this.events.fire({ type: "itemRemoved", id });
  }

  error(message: string, retryable: boolean): void {
    this.append({ id: this.newId(), role: "error", error: { kind: "unknown", message, retryable } });
  }

  find(id: string): ChatItem | undefined {
    const index = this.positions.get(id);
    return index === undefined ? undefined : this.items[index];
  }

  replace(item: ChatItem): void {
    const index = this.positions.get(item.id);
    if (index !== undefined) this.items[index] = item;
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  textDelta(id: string, delta: string, field: "text" | "reasoning"): void {
    const item = this.find(id);
    if (item?.role === "assistant") item[field] = (item[field] ?? "") + delta;
    this.events.fire({ type: "textDelta", id, delta, field });
  }

  /** `note`: why Kiln did not run the call, for the user (ToolItem.note). */
  updateTool(id: string | undefined, status: ToolItem["status"], result?: string, note?: string): void {
    if (!id) return;
    const item = this.find(id);
    if (item?.role !== "tool") return;
    item.status = status;
    item.view = presentTool(item.name, item.params, status);
    if (result !== undefined) item.result = result;
    if (note !== undefined) item.note = note;
    if (status !== "running") {
      delete item.progress;
      delete item.output;
      delete item.controls;
    }
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** The latest progress of a running call; ignored once it has ended. */
  setProgress(id: string | undefined, progress: string): void {
    const item = id ? this.find(id) : undefined;
    if (item?.role !== "tool" || item.status !== "running") return;
    item.progress = progress;
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** A running call's output so far, for its card; ignored once it has ended. */
  setOutput(id: string | undefined, output: string): void {
    const item = id ? this.find(id) : undefined;
    if (item?.role !== "tool" || item.status !== "running") return;
    item.output = output;
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** The buttons a running call offers on its card; they go when it ends. */
  setControls(id: string | undefined, controls: ToolItem["controls"]): void {
    const item = id ? this.find(id) : undefined;
    if (item?.role !== "tool" || item.status !== "running") return;
    item.controls = controls;
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** Shows (or, with undefined, clears) what a waiting call asks the user to approve. */
  setApproval(id: string | undefined, approval: ToolItem["approval"]): void {
    if (!id) return;
    const item = this.find(id);
    if (item?.role !== "tool") return;
    if (approval) item.approval = approval;
    else delete item.approval;
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** A waiting call's diff as the proposal now is; ignored once the call no longer waits. */
  reviseApprovalDiff(id: string | undefined, diff: string): void {
    const item = id ? this.find(id) : undefined;
    if (item?.role !== "tool" || !item.approval) return;
    item.approval = { ...item.approval, diff };
    this.events.fire({ type: "itemChanged", item: { ...item } });
  }

  /** Removes the items from `index` on (what a failed attempt showed). */
  removeFrom(index: number): void {
    while (this.items.length > index) {
      const item = this.items.pop()!;
      this.positions.delete(item.id);
      this.events.fire({ type: "itemRemoved", id: item.id });
    }
  }

  /** Removes the items after `id` (the checkpoint a task goes back to); false when there is no such item. */
  removeAfter(id: string): boolean {
    const index = this.positions.get(id);
    if (index === undefined) return false;
    this.removeFrom(index + 1);
    return true;
  }

  /** Removes what follows the last user message or tool card: the failed attempt a Retry replaces. */
  removeFailedAttempt(): void {
    let index = this.items.length;
    while (index > 0 && this.items[index - 1]!.role !== "user" && this.items[index - 1]!.role !== "tool") index--;
    this.removeFrom(index);
  }

  /** Marks the assistant items of the current turn complete. */
  finishTextItems(): void {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (item.role === "user") break;
      if (item.role === "assistant" && item.partial) {
        item.partial = false;
        this.events.fire({ type: "itemChanged", item: { ...item } });
      }
    }
  }

  dispose(): void {
    this.events.dispose();
  }

  /** The positions of the items from `from` on, after the list changed there. */
  private reindex(from: number): void {
    if (from === 0) this.positions.clear();
    for (let i = from; i < this.items.length; i++) this.positions.set(this.items[i]!.id, i);
  }
}
