import { z } from "zod";
import type { ChatItem } from "./chat";

/**
 * Webview -> host. Everything here crosses a trust boundary (the webview renders model output),
 * so the host parses each message with these schemas and drops what does not fit.
 */
export const MAX_USER_TEXT = 200_000;

export const WebviewToHostSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("view/ready") }).strict(),
  z.object({ type: z.literal("chat/send"), text: z.string().trim().min(1).max(MAX_USER_TEXT) }).strict(),
  z.object({ type: z.literal("chat/retry") }).strict(),
  z.object({ type: z.literal("chat/cancel") }).strict(),
  z.object({ type: z.literal("chat/newTask") }).strict(),
  /** Approve / Reject on a tool card; feedback goes to the model with a rejection. */
  z
    .object({
      type: z.literal("chat/approval"),
      id: z.string().min(1).max(200),
      approved: z.boolean(),
      feedback: z.string().max(MAX_USER_TEXT).optional(),
    })
    .strict(),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

/**
 * Host -> webview. Deltas while a task runs; a snapshot only when a view (re)connects, so the cost
 * of a streamed token does not grow with the length of the task.
 */
export type HostToWebview =
  | { type: "chat/snapshot"; items: ChatItem[]; busy: boolean; provider: ProviderSummary; task?: TaskInfo }
  | { type: "chat/appended"; item: ChatItem }
  | { type: "chat/textDelta"; id: string; delta: string; field: "text" | "reasoning" }
  | { type: "chat/itemChanged"; item: ChatItem }
  | { type: "chat/itemRemoved"; id: string }
  | { type: "chat/busy"; busy: boolean }
  | { type: "chat/cleared" }
  /** A request failed for a passing reason and goes out again after delayMs. */
  | { type: "chat/retrying"; attempt: number; of: number; delayMs: number; reason: string }
  /** Tokens, cost, todos or mode changed. Small, so sent whole. */
  | { type: "chat/task"; task: TaskInfo };

export interface TaskInfo {
  mode: string;
  tokensIn: number;
  tokensOut: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD; absent when the model's prices are unknown. */
  cost?: number;
  todos: { text: string; status: "pending" | "in_progress" | "completed" }[];
}

export interface ProviderSummary {
  kind: string;
  model: string;
}

export type ParseResult = { ok: true; message: WebviewToHost } | { ok: false; reason: string };

export function parseWebviewMessage(raw: unknown): ParseResult {
  const result = WebviewToHostSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const type = typeof raw === "object" && raw !== null && "type" in raw ? String((raw as { type: unknown }).type) : typeof raw;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return { ok: false, reason: `invalid webview message (${type.slice(0, 60)}): ${issue?.message ?? "no detail"}${where}` };
}
