import { randomBytes } from "node:crypto";
import type { ChatItem } from "../../shared/protocol/chat";
import { mendInterrupted } from "../history/resume";
import { redactSecrets } from "../llm/redact";
import type { HistoryEntry, SavedTask } from "../history/types";
import type { TodoItem } from "../ports/taskControls";
import type { TaskStatus } from "./ChatLog";
import { Conversation } from "./Conversation";
import type { UsageMeter } from "./usage";

/** Who a task is in the history: its id, when it began, and the folder it works in. */
export interface TaskIdentity {
  id: string;
  createdAt: number;
  workspace: string;
  /** A task `kiln import` brought over stays marked with its source after it is resumed. */
  importedFrom?: HistoryEntry["importedFrom"];
}

export interface TaskParts {
  identity: TaskIdentity;
  conversation: Conversation;
  items: ChatItem[];
  usage: UsageMeter;
  todos: TodoItem[];
  requests: number;
  status: TaskStatus;
  mode: string;
  protocol: "xml" | "native";
  model: string;
  provider?: ProviderRecord;
}

/** The provider a task ran with, as history keeps it. */
export interface ProviderRecord {
  kind: string;
  /** Absent for the provider's default endpoint. */
  baseUrl?: string;
}

/** A base URL as history may keep it: no user name or password (http://user:pass@host), no key that was registered as secret. */
export function storableUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return redactSecrets(parsed.toString().replace(/\/$/, ""));
  } catch {
    return undefined;
  }
}

const TITLE_CHARS = 200;

/** A reopened task keeps its place in history; a new one gets a sortable, file-name-safe id. */
export function identityFor(saved: SavedTask | undefined, workspace: string): TaskIdentity {
  if (saved) return { id: saved.entry.id, createdAt: saved.entry.createdAt, workspace: saved.entry.workspace, ...(saved.entry.importedFrom && { importedFrom: saved.entry.importedFrom }) };
  return { id: `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`, createdAt: Date.now(), workspace };
}

/** The task as history saves it. */
export function recordOf(parts: TaskParts): SavedTask {
  const { conversation: _c, ...rest } = parts;
  const saved = parts.conversation.save();
  const total = parts.usage.total();
  const cost = parts.usage.totalCost();
  const first = parts.items.find((item) => item.role === "user");
  return {
    entry: {
      id: rest.identity.id,
      title: first?.role === "user" ? first.text.split("\n")[0]!.slice(0, TITLE_CHARS) : "",
      workspace: rest.identity.workspace,
      mode: rest.mode,
      model: rest.model,
      ...(rest.provider && { provider: rest.provider.kind }),
      ...(rest.provider?.baseUrl && storableUrl(rest.provider.baseUrl) && { baseUrl: storableUrl(rest.provider.baseUrl) }),
      protocol: rest.protocol,
      tokensIn: total.inputTokens,
      tokensOut: total.outputTokens,
      cacheRead: total.cacheReadTokens,
      cacheWrite: total.cacheWriteTokens,
      ...(cost === undefined ? {} : { cost }),
      createdAt: rest.identity.createdAt,
      updatedAt: Date.now(),
      favorite: false,
      status: rest.status,
      ...(rest.identity.importedFrom && { importedFrom: rest.identity.importedFrom }),
    },
    api: saved.messages,
    // A card's view is made again when the task is loaded: saved, it would only double its size.
    ui: parts.items.map((item) => (item.role === "tool" && item.view ? withoutView(item) : item)),
    resume: {
      ...(saved.pending && { pending: saved.pending }),
      ...(saved.condensed && { condensed: saved.condensed }),
      ...(saved.hidden && { hidden: saved.hidden }),
      todos: rest.todos,
      requests: rest.requests,
    },
  };
}

/**
 * A saved task made ready to go on. A task saved while running (a crash, a reload) comes back
 * stopped, with its unfinished calls marked interrupted, so Resume continues it and nothing that
 * was half done runs again on its own.
 */
export function restoreParts(saved: SavedTask, usage: UsageMeter): Omit<TaskParts, "usage" | "identity" | "mode"> {
  const e = saved.entry;
  usage.restore({ inputTokens: e.tokensIn, outputTokens: e.tokensOut, cacheReadTokens: e.cacheRead, cacheWriteTokens: e.cacheWrite }, e.cost);
  const { items, interrupted } = mendInterrupted(saved.ui);
  const wasRunning = saved.entry.status === "running" || interrupted > 0;
  const known: TaskStatus[] = ["idle", "answering", "completed", "failed", "stopped"];
  const status = wasRunning ? "stopped" : (known.find((s) => s === saved.entry.status) ?? "stopped");
  return {
    conversation: Conversation.restore({
      messages: saved.api,
      ...(saved.resume?.pending && { pending: { ...saved.resume.pending, id: saved.resume.pending.id } }),
      ...(saved.resume?.condensed && { condensed: saved.resume.condensed }),
      ...(saved.resume?.hidden && { hidden: saved.resume.hidden }),
    }),
    items,
    todos: saved.resume?.todos ?? [],
    requests: saved.resume?.requests ?? 0,
    status,
    protocol: saved.entry.protocol,
    model: saved.entry.model,
    ...(e.provider && { provider: { kind: e.provider, ...(e.baseUrl && { baseUrl: e.baseUrl }) } }),
  };
}

function withoutView({ view: _, ...item }: Extract<ChatItem, { role: "tool" }>): ChatItem {
  return item;
}
