import type { ChatItem } from "../../src/shared/protocol/chat";

/**
 * The chat items with an id -> position index, so a delta finds its item without a scan. Items
 * themselves are replaced, never mutated: a row can tell it changed by identity.
 */
export class ItemList {
  readonly items: ChatItem[] = [];
  private readonly positions = new Map<string, number>();
  private waiting: string | undefined;

  get waitingCard(): string | undefined {
    return this.waiting;
  }

  reset(items: readonly ChatItem[]): void {
    this.items.length = 0;
    this.positions.clear();
    this.waiting = undefined;
    for (const item of items) this.append(item);
  }

  append(item: ChatItem): void {
    this.positions.set(item.id, this.items.length);
    this.items.push(item);
    this.track(item);
  }

  update(id: string, change: (item: ChatItem) => ChatItem): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    const next = change(this.items[at]!);
    this.items[at] = next;
    this.track(next);
  }

  /** Rare (a failed attempt taken back): rebuilding the index is fine here. */
  remove(id: string): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    this.items.splice(at, 1);
    this.positions.clear();
    this.items.forEach((item, i) => this.positions.set(item.id, i));
    if (this.waiting === id) this.waiting = undefined;
  }

  private track(item: ChatItem): void {
    if (item.role !== "tool") return;
    if (item.status === "waiting" && item.approval) this.waiting = item.id;
    else if (this.waiting === item.id) this.waiting = undefined;
  }
}
