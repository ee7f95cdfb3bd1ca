import type { ChatItem } from "../../src/shared/protocol/chat";
import type { HostToWebview, ProviderSummary, TaskInfo } from "../../src/shared/protocol/messages";
import type { AutoApproveBarState } from "../../src/shared/protocol/autoApproveBar";
import type { WelcomeInfo } from "../../src/shared/protocol/welcome";
import { ItemList } from "./itemList";

export interface Retrying {
  attempt: number;
  of: number;
  reason: string;
  /** When the request goes out again (ms since epoch), for the countdown. */
  at: number;
}

export interface ChatState {
  /** The conversation. Updated in place: `version` says when it changed. */
  items: readonly ChatItem[];
  version: number;
  busy: boolean;
  provider: ProviderSummary | undefined;
  connected: boolean;
  task: TaskInfo | undefined;
  retrying: Retrying | undefined;
  /** The tool card waiting for Approve / Reject, if any. */
  waitingCard: string | undefined;
  /** Messages sent while the task was busy, in the order they go to it. */
  queued: readonly string[];
  /** After a cancel the queue waits for the user to send or remove each message. */
  queuePaused: boolean;
  /** The host's latest ask of the input (Add to Context, focus); a new id each time, so a repeat counts. */
  inputRequest: InputRequest | undefined;
  /** The auto-approve bar's switch and categories, once the host has said. */
  autoApprove: AutoApproveBarState | undefined;
  /** The first-run welcome shows instead of the chat while the host sends one. */
  welcome: WelcomeInfo | undefined;
}

export interface InputRequest {
  id: number;
  /** Text to add to what the user has typed; absent for a plain focus. */
  append?: string;
}

/**
 * Applies the host's deltas. A streamed token costs the same however long the task is: items are
 * found by id through an index and replaced in place, never by copying the list. Listeners run at
 * most once per animation frame, so a burst of tokens costs one render.
 */
export class ChatStore {
  private readonly list = new ItemList();
  private state: ChatState = {
    items: this.list.items,
    version: 0,
    busy: false,
    provider: undefined,
    connected: false,
    task: undefined,
    retrying: undefined,
    waitingCard: undefined,
    queued: [],
    queuePaused: false,
    inputRequest: undefined,
    welcome: undefined,
    autoApprove: undefined,
  };
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
    let s = this.state;
    // Anything new from the model means the retry went out.
    if (s.retrying && message.type !== "chat/retrying" && message.type !== "chat/task") s = { ...s, retrying: undefined };
    const list = this.list;
    switch (message.type) {
      case "chat/snapshot":
        list.reset(message.items);
        s = { ...s, busy: message.busy, provider: message.provider, connected: true, task: message.task, retrying: undefined, welcome: message.welcome };
        break;
      case "chat/appended":
        list.append(message.item);
        break;
      case "chat/textDelta":
        list.update(message.id, (item) => (item.role === "assistant" ? { ...item, [message.field]: (item[message.field] ?? "") + message.delta } : item));
        break;
      case "chat/itemChanged":
        list.update(message.item.id, () => message.item);
        break;
      case "chat/itemRemoved":
        list.remove(message.id);
        break;
      case "chat/busy":
        s = { ...s, busy: message.busy };
        break;
      case "chat/cleared":
        list.reset([]);
        s = { ...s, busy: false };
        break;
      case "chat/retrying":
        s = { ...s, retrying: { attempt: message.attempt, of: message.of, reason: message.reason, at: this.now() + message.delayMs } };
        break;
      case "chat/task":
        s = { ...s, task: message.task };
        break;
      case "chat/pickers":
        // A profile or mode change: the header and the input's image support follow the new model.
        if (message.pickers.provider) s = { ...s, provider: message.pickers.provider };
        break;
      case "chat/autoApprove":
        s = { ...s, autoApprove: message.state };
        break;
      case "chat/queue":
        s = { ...s, queued: message.messages, queuePaused: message.paused };
        break;
      case "chat/addToInput":
        s = { ...s, inputRequest: { id: (s.inputRequest?.id ?? 0) + 1, append: message.text } };
        break;
      case "chat/focusInput":
        s = { ...s, inputRequest: { id: (s.inputRequest?.id ?? 0) + 1 } };
        break;
    }
    this.state = { ...s, items: list.items, version: s.version + 1, waitingCard: list.waitingCard };
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
