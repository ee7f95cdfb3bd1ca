import { AUTO_APPROVE_BAR_MESSAGES, type AutoApproveBarState } from "./autoApproveBar";
import { SettingsSectionSchema, type ModelListAnswer } from "./settings";
import { WELCOME_REQUESTS, type WelcomeInfo } from "./welcome";
import { z } from "zod";
import { parseMessage, type ParsedMessage } from "./parse";
import { CallControlSchema, type ChatItem } from "./chat";
import { McpAnswerSchema } from "./mcpRequests";
import { MCP_MESSAGES, MCP_REQUESTS, type HostToMcpView } from "./mcp";
import { method, RequestEnvelopeSchema, type Done, type ResponseEnvelope } from "./requests";
import { HISTORY_MESSAGES, type HostToHistoryView } from "./history";
import { CheckpointMessageSchema } from "./checkpoints";

/**
 * Webview -> host. Everything here crosses a trust boundary (the webview renders model output),
 * so the host parses each message with these schemas and drops what does not fit.
 */
export const MAX_USER_TEXT = 200_000;
export const MAX_LINK_URL = 8_192;
export const MAX_FILE_PATH = 4_096;
/** Images attached to one message, and the size of each (base64 of a 5 MB file). */
export const MAX_IMAGES = 5;
export const MAX_IMAGE_BASE64 = 7_000_000;

export const ImageSchema = z
  .object({
    mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
    data: z
      .string()
      .min(1)
      .max(MAX_IMAGE_BASE64)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, "not base64"),
  })
  .strict();
export type AttachedImage = z.infer<typeof ImageSchema>;
export const MAX_RUN_COMMAND = 10_000;
export const MAX_MENTION_QUERY = 500;
/** A model id, as long as a profile's model field takes (profiles.ts). */
export const MAX_MODEL_ID = 200;

export const WebviewToHostSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("view/ready") }).strict(),
  /** A message for the task: text, images (for models that take them), or both. */
  z
    .object({ type: z.literal("chat/send"), text: z.string().trim().max(MAX_USER_TEXT), images: z.array(ImageSchema).max(MAX_IMAGES).optional() })
    .strict()
    .refine((m) => m.text !== "" || (m.images?.length ?? 0) > 0, { message: "a message needs text or an image", path: ["text"] }),
  z.object({ type: z.literal("chat/retry") }).strict(),
  z.object({ type: z.literal("chat/cancel") }).strict(),
  /** Goes on with a task that was cancelled or stopped at a limit. */
  z.object({ type: z.literal("chat/resume") }).strict(),
  /** The Condense button: summarise the conversation now. */
  z.object({ type: z.literal("chat/condense") }).strict(),
  /** Raise budget on a budget stop: opens the setting of the limit that stopped the task. */
  z.object({ type: z.literal("chat/raiseBudget"), limit: z.enum(["maxTokens", "maxCost", "maxInputPerRequest"]) }).strict(),
  /** Opens the review of the files the task changed. */
  z.object({ type: z.literal("chat/reviewChanges") }).strict(),
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
  /** The user's answer to an MCP server's sampling request or form, by the card's id (mcpRequests.ts). */
  z.object({ type: z.literal("chat/mcpAnswer"), id: z.string().min(1).max(200), answer: McpAnswerSchema }).strict(),
  /** A link in model output the user clicked; the host opens http(s) URLs only. */
  z.object({ type: z.literal("chat/openLink"), url: z.string().min(1).max(MAX_LINK_URL) }).strict(),
  /** Continue while running / Stop on a running call's card (ToolItem.controls), by the card's id. */
  z.object({ type: z.literal("chat/callControl"), id: z.string().min(1).max(200), control: CallControlSchema }).strict(),
  /** Set API key on a no-key or unauthorized error: the host asks for the active profile's key, then retries. */
  z.object({ type: z.literal("chat/setApiKey") }).strict(),
  /** Open settings on such an error: Kiln's settings, at the providers. */
  z.object({ type: z.literal("chat/openSettings"), section: SettingsSectionSchema.optional() }).strict(),
  /** Show terminal on a command's card: the terminal the command runs in. */
  z.object({ type: z.literal("chat/showTerminal") }).strict(),
  /** A path on a tool card the user clicked: the host opens it (at the line) if it is in the workspace. */
  z.object({ type: z.literal("chat/openFile"), path: z.string().min(1).max(MAX_FILE_PATH), line: z.number().int().min(1).max(10_000_000).optional() }).strict(),
  /** Run on a completion's proposed command: the user's own click, so it runs in a visible terminal. */
  z.object({ type: z.literal("chat/runCommand"), command: z.string().trim().min(1).max(MAX_RUN_COMMAND) }).strict(),
  /** A queued message: removed, or (send) sent now; the index is into the last `chat/queue` list. */
  z.object({ type: z.literal("chat/unqueue"), index: z.number().int().min(0).max(1000), send: z.boolean() }).strict(),
  /** Ctrl+. (Cmd+.) in the chat input: the next mode, as Kiln: Cycle Mode. */
  z.object({ type: z.literal("chat/cycleMode") }).strict(),
  /** Mode picker: the current task goes on in this mode, and the chat's new tasks start in it. */
  z.object({ type: z.literal("chat/setMode"), slug: z.string().min(1).max(100) }).strict(),
  /** Profile picker: the current task's requests use this profile, which also becomes the active one. */
  z.object({ type: z.literal("chat/setProfile"), name: z.string().trim().min(1).max(64) }).strict(),
  /** A request that expects an answer: its method and params are in CHAT_REQUESTS (requests.ts). */
  RequestEnvelopeSchema,
  /** The / picker opened: the host answers `commands/list` with the built-ins and workflows. */
  z.object({ type: z.literal("commands/list") }).strict(),
  /** Restore files, restore files and task, or diff since, on a checkpoint row (checkpoints.ts). */
  CheckpointMessageSchema,
  /** The MCP view (mcp.ts). */
  ...MCP_MESSAGES,
  /** The history view (history.ts). */
  ...HISTORY_MESSAGES,
  /** The auto-approve bar (autoApproveBar.ts). */
  ...AUTO_APPROVE_BAR_MESSAGES,
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export interface MentionMatch {
  path: string;
  kind: "file" | "folder";
}

/** The chat page's requests (requests.ts): the host checks the params against these schemas. */
export const CHAT_REQUESTS = {
  /** The @ picker's search: files and folders matching the query, best first. */
  "mentions/search": method<{ items: MentionMatch[] }>()(z.object({ query: z.string().max(MAX_MENTION_QUERY) }).strict()),
  /** The chat's model picker: the models of the provider of the profile the chat's next request uses (with its key). */
  "chat/listModels": method<ModelListAnswer>()(z.object({ refresh: z.boolean().optional() }).strict()),
  /** The chat's model picker: that profile's model becomes this one (its settings entry is saved). */
  "chat/setModel": method<Done>()(z.object({ model: z.string().trim().min(1).max(MAX_MODEL_ID) }).strict()),
  /** The MCP view's actions (mcp.ts). */
  ...MCP_REQUESTS,
  /** The first-run welcome (welcome.ts). */
  ...WELCOME_REQUESTS,
};
export type ChatRequests = typeof CHAT_REQUESTS;

/**
 * Host -> webview. Deltas while a task runs; a snapshot only when a view (re)connects, so the cost
 * of a streamed token does not grow with the length of the task.
 */
export type HostToWebview =
  /** welcome: the chat opens on the first-run welcome (welcome.ts) instead. */
  | { type: "chat/snapshot"; items: ChatItem[]; busy: boolean; provider: ProviderSummary; task?: TaskInfo; welcome?: WelcomeInfo }
  | { type: "chat/appended"; item: ChatItem }
  | { type: "chat/textDelta"; id: string; delta: string; field: "text" | "reasoning" }
  | { type: "chat/itemChanged"; item: ChatItem }
  | { type: "chat/itemRemoved"; id: string }
  | { type: "chat/busy"; busy: boolean }
  | { type: "chat/cleared" }
  /** A request failed for a passing reason and goes out again after delayMs. */
  | { type: "chat/retrying"; attempt: number; of: number; delayMs: number; reason: string }
  /** The auto-approve bar's switch and categories; sent after a snapshot and on each change. */
  | { type: "chat/autoApprove"; state: AutoApproveBarState }
  /** Tokens, cost, todos or mode changed. Small, so sent whole. */
  | { type: "chat/task"; task: TaskInfo }
  /** What the chat input's mode and profile pickers offer and show; sent after a snapshot and on change. */
  | { type: "chat/pickers"; pickers: Pickers }
  /**
   * Messages sent while the task was busy, to go to it in order once it can take them; `paused`
   * after a cancel (then the user sends or removes each one).
   */
  | { type: "chat/queue"; messages: string[]; paused: boolean }
  /** The answer to a request (CHAT_REQUESTS). */
  | ResponseEnvelope
  /** What the / picker offers. */
  | { type: "commands/list"; commands: SlashCommandInfo[] }
  /** Add to Context (editor or terminal): appended to the input, not sent; the user adds their words. */
  | { type: "chat/addToInput"; text: string }
  /** The focus-input keybinding: the cursor goes to the chat input. */
  | { type: "chat/focusInput" }
  | HostToMcpView
  | HostToHistoryView;

export interface Pickers {
  /** The current task's modes; empty when the chat has no tools (no folder open). */
  /** description: one line on what the mode is for. */
  modes: { slug: string; name: string; description?: string }[];
  mode?: string;
  profiles: { name: string; kind: string; model: string }[];
  /** The profile the current task's next request uses. */
  profile?: string;
  /** Its kind and model, as in the snapshot (which is not sent again when they change). */
  provider?: ProviderSummary;
}

export interface TaskInfo {
  mode: string;
  tokensIn: number;
  tokensOut: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD; absent when the model's prices are unknown. */
  cost?: number;
  /** The last request's share of the model's window; absent before the first answer. */
  context?: { used: number; window: number; reserved: number };
  /** running, stopped (cancelled or a limit), failed…: a stopped or failed task can be resumed. */
  status?: string;
  /** Files the task changed so far (its subtasks' too), for the end-of-task review. */
  changedFiles?: number;
  todos: { text: string; status: "pending" | "in_progress" | "completed" }[];
}

export interface ProviderSummary {
  kind: string;
  model: string;
  /** Whether the model takes images; the input offers image paste and drop only then. */
  images?: boolean;
}

export type ParseResult = ParsedMessage<WebviewToHost>;

export function parseWebviewMessage(raw: unknown): ParseResult {
  return parseMessage(WebviewToHostSchema, raw, "webview");
}

export interface SlashCommandInfo {
  name: string;
  description: string;
  argumentHint?: string;
  source: "builtin" | "project" | "global" | "skill";
}
