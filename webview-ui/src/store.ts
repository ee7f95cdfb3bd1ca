import type { ChatItem } from "../../src/shared/protocol/chat";
import type { HostToWebview, ProviderSummary, TaskInfo } from "../../src/shared/protocol/messages";

export interface Retrying {
  attempt: number;
  of: number;
  reason: string;
  /** When the request goes out again (ms since epoch), for the countdown. */
  at: number;
}

export interface ChatState {
  items: ChatItem[];
  busy: boolean;
  provider: ProviderSummary | undefined;
  connected: boolean;
  task: TaskInfo | undefined;
  retrying: Retrying | undefined;
}

/**
 * Applies the host's deltas. Listeners run at most once per animation frame, so a burst of streamed
 * tokens costs one render, not one per token.
 */
export class ChatStore {
  private state: ChatState = { items: [], busy: false, provider: undefined, connected: false, task: undefined, retrying: undefined };
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  constructor(
    private readonly schedule: (fn: () => void) => void,
    private readonly now: () => number = Date.now,
  ) {}

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  apply(message: HostToWebview): void {
    // Anything new from the model means the retry went out.
    const s = message.type === "chat/retrying" || message.type === "chat/task" || !this.state.retrying ? this.state : { ...this.state, retrying: undefined };
    switch (message.type) {
      case "chat/snapshot":
        this.state = { items: message.items, busy: message.busy, provider: message.provider, connected: true, task: message.task, retrying: undefined };
        break;
      case "chat/appended":
        this.state = { ...s, items: [...s.items, message.item] };
        break;
      case "chat/textDelta":
        this.state = {
          ...s,
          items: replaceById(s.items, message.id, (item) =>
            item.role === "assistant" ? { ...item, [message.field]: (item[message.field] ?? "") + message.delta } : item,
          ),
        };
        break;
      case "chat/itemChanged":
        this.state = { ...s, items: replaceById(s.items, message.item.id, () => message.item) };
        break;
      case "chat/itemRemoved":
        this.state = { ...s, items: s.items.filter((item) => item.id !== message.id) };
        break;
      case "chat/busy":
        this.state = { ...s, busy: message.busy };
        break;
      case "chat/cleared":
        this.state = { ...s, items: [], busy: false };
        break;
      case "chat/retrying":
        this.state = { ...s, retrying: { attempt: message.attempt, of: message.of, reason: message.reason, at: this.now() + message.delayMs } };
        break;
      case "chat/task":
        this.state = { ...s, task: message.task };
        break;
    }
    this.notify();
  }

  private notify(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      for (const listener of [...this.listeners]) listener();
    });
  }
}

function replaceById(items: ChatItem[], id: string, update: (item: ChatItem) => ChatItem): ChatItem[] {
  // Streaming touches the newest items: search from the end.
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]!.id === id) {
      const next = items.slice();
      next[i] = update(items[i]!);
      return next;
    }
  }
  return items;
}
