import * as l10n from "@vscode/l10n";
import { McpRequestRefused, type ElicitationAnswer, type ElicitationRequest, type McpClientRequests, type SamplingAnswer, type SamplingRequest } from "../../../core/mcp/requests";
import { runSampling, shownSampling } from "../../../core/mcp/sampling";
import type { Provider } from "../../../core/llm/types";
import type { Logger } from "../../../core/ports";
import type { ChatItem } from "../../../shared/protocol/chat";
import { checkFormAnswer, type FormContent, type McpAnswer, type McpRequestItem, type McpRequestStatus } from "../../../shared/protocol/mcpRequests";

/** Requests waiting in one chat at most; more are refused, so a looping server cannot flood it. */
const MAX_WAITING = 5;
const SUMMARY_CHARS = 2_000;

export interface ChatMcpRequestsDeps {
  logger: Logger;
  /** The chat's current task: the card goes into its log. */
  task(): { showItem(item: ChatItem): void };
  /** The provider the chat's task uses now (its profile), for sampling. */
  provider(): Promise<Provider>;
}

interface Card {
  readonly item: McpRequestItem;
  update(status: McpRequestStatus, result?: string): void;
}

interface Waiting {
  card: Card;
  /** undefined: the task was cancelled or replaced. */
  settle(answer: McpAnswer | undefined): void;
}

/**
 * MCP servers' sampling and elicitation requests, asked in one chat: a card in the current task's
 * log, answered from the webview by the card's id (ChatSession passes `chat/mcpAnswer` here).
 */
export class ChatMcpRequests implements McpClientRequests {
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;
  private disposed = false;

  constructor(private readonly deps: ChatMcpRequestsDeps) {}

  async sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingAnswer> {
    const card = this.show(request.server, shownSampling(request));
    const answer = await this.ask(card, signal);
    if (answer?.kind !== "sampling" || !answer.approved) {
      card.update("declined", answer ? l10n.t("Declined.") : l10n.t("Declined: the task was cancelled."));
      throw new McpRequestRefused(answer ? "The user declined the sampling request." : "The task was cancelled, so the sampling request was declined.");
    }
    card.update("approved");
    try {
      const result = await runSampling(await this.deps.provider(), request, signal);
      card.update("answered", result.text);
      return result;
    } catch (err) {
      card.update("failed", signal.aborted ? reasonOf(signal) : errorText(err));
      throw err;
    }
  }

  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const card = this.show(request.server, { kind: "elicitation", message: request.message, fields: request.fields });
    const answer = await this.ask(card, signal);
    if (answer?.kind === "elicitation" && answer.action === "accept") {
      // answer() let it through only after checking it against the fields.
      const content: FormContent = answer.content ?? {};
      card.update("answered", summary(content));
      return { action: "accept", content };
    }
    const action = answer?.kind === "elicitation" && answer.action === "decline" ? "decline" : "cancel";
    card.update("declined", !answer ? l10n.t("Cancelled: the task was cancelled.") : action === "decline" ? l10n.t("Declined.") : l10n.t("Cancelled."));
    return { action };
  }

  /** The user's answer from the chat; ignored (and logged) when it does not fit what waits. */
  answer(id: string, answer: McpAnswer): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return this.deps.logger.warn(`MCP answer for ${id} ignored: nothing is waiting for it`);
    const request = waiting.card.item.request;
    if (answer.kind !== request.kind) return this.deps.logger.warn(`MCP answer for ${id} ignored: it answers ${answer.kind}, the card asks for ${request.kind}`);
    if (answer.kind === "elicitation" && answer.action === "accept" && request.kind === "elicitation") {
      const check = checkFormAnswer(request.fields, answer.content ?? {});
      if (!check.ok) return this.deps.logger.warn(`MCP answer for ${id} ignored: ${check.errors.join("; ")}`);
      answer = { ...answer, content: check.content };
    }
    this.waiting.delete(id);
    waiting.settle(answer);
  }

  /** Everything waiting is declined: the task was cancelled or replaced. */
  declineAll(): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of all) waiting.settle(undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.declineAll();
  }

  get pending(): number {
    return this.waiting.size;
  }

  private show(server: string, request: McpRequestItem["request"]): Card {
    if (this.disposed) throw new McpRequestRefused("The chat that ran the tool is closed.");
    if (this.waiting.size >= MAX_WAITING) throw new McpRequestRefused(`${MAX_WAITING} requests already wait for the user in this chat.`);
    // The card stays in the task it was shown in, even when the chat moves on to a new task.
    const task = this.deps.task();
    let item: McpRequestItem = { id: `mcp-${++this.next}`, role: "mcpRequest", server, status: "waiting", request };
    task.showItem(item);
    return {
      get item() {
        return item;
      },
      update(status, result) {
        item = { ...item, status, ...(result !== undefined ? { result } : {}) };
        task.showItem(item);
      },
    };
  }

  /** Waits for the user's answer; rejects when the server withdraws the request or its time is up. */
  private ask(card: Card, signal: AbortSignal): Promise<McpAnswer | undefined> {
    const id = card.item.id;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        card.update("failed", reasonOf(signal));
        // The server reads English; the card above is the user's.
        reject(signal.reason instanceof Error ? signal.reason : new McpRequestRefused("The request was withdrawn."));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        card,
        settle: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
    });
  }
}

/**
 * Sends each request to the chat whose tool call it belongs to (its tools tag their calls with the
 * chat's ChatMcpRequests, see withCaller); one that comes outside any call goes to `fallback`.
 */
export function routeMcpRequests(fallback: () => ChatMcpRequests): McpClientRequests {
  const pick = (caller: unknown) => (caller instanceof ChatMcpRequests ? caller : fallback());
  return {
    sample: (request, signal) => pick(request.caller).sample(request, signal),
    elicit: (request, signal) => pick(request.caller).elicit(request, signal),
  };
}

/** What the user submitted, one field a line, for the card. */
function summary(content: FormContent): string {
  const lines = Object.entries(content).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`);
  const text = lines.length ? lines.join("\n") : "(nothing filled in)";
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text;
}

function reasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : l10n.t("The request was withdrawn.");
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
