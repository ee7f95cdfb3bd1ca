import { Emitter, type Disposable } from "../../shared/disposable";
import type { AssistantItem, ChatItem } from "../../shared/protocol/chat";
import { CancelledError, ProviderError, toProviderError } from "../llm/errors";
import type { LlmMessage, Provider } from "../llm/types";
import type { Logger } from "../ports";

export interface TaskOptions {
  /** Resolved per request, so a key or setting changed after an error is picked up by Retry. */
  getProvider(): Promise<Provider>;
  logger: Logger;
  systemPrompt?: string;
}

export type TaskEvent =
  | { type: "appended"; item: ChatItem }
  | { type: "textDelta"; id: string; delta: string; field: "text" | "reasoning" }
  | { type: "itemChanged"; item: ChatItem }
  | { type: "itemRemoved"; id: string }
  | { type: "busy"; busy: boolean };

const DEFAULT_SYSTEM_PROMPT =
  "You are Kiln, an AI coding assistant inside VS Code. Answer clearly and concisely; use Markdown for code.";

/**
 * One conversation with the model. For now a turn is one streamed reply; the tool loop builds on
 * this. The Task owns the chat items and the API history and reports every change as an event.
 */
export class Task implements Disposable {
  private readonly items: ChatItem[] = [];
  private readonly history: LlmMessage[] = [];
  private readonly events = new Emitter<TaskEvent>();
  readonly onDidChange = this.events.event;
  private controller: AbortController | undefined;
  private nextId = 1;

  constructor(private readonly options: TaskOptions) {}

  get busy(): boolean {
    return this.controller !== undefined;
  }

  snapshot(): ChatItem[] {
    return this.items.map((item) => ({ ...item }));
  }

  async send(text: string): Promise<void> {
    if (this.busy) throw new Error("a reply is still streaming; wait for it or cancel it first");
    this.append({ id: this.newId(), role: "user", text });
    const last = this.history.at(-1);
    if (last?.role === "user") {
      // The previous request failed and the user moved on: APIs want turns to alternate.
      last.content += `\n\n${text}`;
    } else {
      this.history.push({ role: "user", content: text });
    }
    await this.runTurn();
  }

  /** Drops the failed attempt (error and any partial reply) and asks the model again. */
  async retry(): Promise<void> {
    if (this.busy) return;
    if (this.history.at(-1)?.role !== "user") {
      this.options.logger.warn("retry ignored: the last turn did not fail");
      return;
    }
    while (this.items.length > 0) {
      const last = this.items[this.items.length - 1]!;
      if (last.role === "user") break;
      this.items.pop();
      this.events.fire({ type: "itemRemoved", id: last.id });
    }
    await this.runTurn();
  }

  cancel(): void {
    this.controller?.abort();
  }

  dispose(): void {
    this.cancel();
    this.events.dispose();
  }

  private async runTurn(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.events.fire({ type: "busy", busy: true });
    let reply: AssistantItem | undefined;
    try {
      const provider = await this.options.getProvider();
      const stream = provider.stream({
        system: this.options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        messages: this.history,
        signal: controller.signal,
      });
      for await (const event of stream) {
        if (event.type === "text" || event.type === "reasoning") {
          if (!reply) {
            reply = { id: this.newId(), role: "assistant", text: "", partial: true };
            this.append(reply);
          }
          const field = event.type === "text" ? "text" : "reasoning";
          reply[field] = (reply[field] ?? "") + event.text;
          this.events.fire({ type: "textDelta", id: reply.id, delta: event.text, field });
        }
      }
      if (!reply || reply.text.length === 0) {
        throw new ProviderError("stream", `${provider.model || "The model"} returned an empty reply.`);
      }
      this.finish(reply);
      this.history.push({ role: "assistant", content: reply.text });
    } catch (raw) {
      const err = toProviderError(raw, "The provider");
      if (reply) this.finish(reply);
      if (err instanceof CancelledError) {
        this.append({ id: this.newId(), role: "error", error: { kind: "unknown", message: "Cancelled. Retry to ask again.", retryable: true } });
      } else {
        this.options.logger.warn(`request failed (${err.kind}${err.status ? ` ${err.status}` : ""}): ${err.message}`);
        this.append({ id: this.newId(), role: "error", error: err.toChatError() });
      }
    } finally {
      this.controller = undefined;
      this.events.fire({ type: "busy", busy: false });
    }
  }

  private finish(reply: AssistantItem): void {
    reply.partial = false;
    this.events.fire({ type: "itemChanged", item: { ...reply } });
  }

  private append(item: ChatItem): void {
    this.items.push(item);
    this.events.fire({ type: "appended", item: { ...item } });
  }

  private newId(): string {
    return `m${this.nextId++}`;
  }
}
