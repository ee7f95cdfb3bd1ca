import type { ChatItem } from "../../src/shared/protocol/chat";
import type { HostToWebview, ProviderSummary } from "../../src/shared/protocol/messages";

export interface ChatState {
  items: ChatItem[];
  busy: boolean;
  provider: ProviderSummary | undefined;
  connected: boolean;
}

/**
 * Applies the host's deltas. Listeners run at most once per animation frame, so a burst of streamed
 * tokens costs one render, not one per token.
 */
export class ChatStore {
  private state: ChatState = { items: [], busy: false, provider: undefined, connected: false };
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  constructor(private readonly schedule: (fn: () => void) => void) {}

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  apply(message: HostToWebview): void {
    const s = this.state;
    switch (message.type) {
      case "chat/snapshot":
        this.state = { items: message.items, busy: message.busy, provider: message.provider, connected: true };
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
