import { z } from "zod";

/**
 * The files of a task as Kilo (v5), Roo, Zoo and Cline write them, as far as the import reads them.
 * Each agent adds fields over the years; those are let through, and only what is read is checked.
 */

/** One message of `ui_messages.json` (the chat as the user saw it; "ClineMessage" in their code). */
export const SourceUiMessageSchema = z
  .object({
    ts: z.number(),
    type: z.enum(["ask", "say"]),
    ask: z.string().nullish(),
    say: z.string().nullish(),
    text: z.string().nullish(),
    /** data: URLs the user attached. */
    images: z.array(z.string()).nullish(),
    partial: z.boolean().nullish(),
    /** Roo keeps a reply's reasoning on the message in some versions. */
    reasoning: z.string().nullish(),
  })
  .passthrough();
export type SourceUiMessage = z.infer<typeof SourceUiMessageSchema>;
export const SourceUiMessagesSchema = z.array(SourceUiMessageSchema);

/** A content block of `api_conversation_history.json` (Anthropic's message format); its fields are checked by type below. */
const SourceBlockSchema = z.object({ type: z.string() }).passthrough();
export type SourceBlock = z.infer<typeof SourceBlockSchema>;

export const SourceApiMessageSchema = z
  .object({
    role: z.enum(["user", "assistant"]),
    content: z.union([z.string(), z.array(SourceBlockSchema)]),
    // Roo's non-destructive condense and truncation: a message tagged with the id of a summary (or
    // truncation marker) that is in the history was replaced by it, and is not sent to the model.
    condenseId: z.string().optional().catch(undefined),
    condenseParent: z.string().optional().catch(undefined),
    truncationId: z.string().optional().catch(undefined),
    truncationParent: z.string().optional().catch(undefined),
  })
  .passthrough();
export type SourceApiMessage = z.infer<typeof SourceApiMessageSchema>;
export const SourceApiMessagesSchema = z.array(SourceApiMessageSchema);

export const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ImageBlockSchema = z.object({
  type: z.literal("image"),
  source: z.union([z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }), z.object({ type: z.literal("url"), url: z.string() })]),
});
export const ToolUseBlockSchema = z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
export const ToolResultBlockSchema = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(SourceBlockSchema)]).nullish(),
  is_error: z.boolean().nullish(),
});

/** `tasks/<id>/history_item.json` (Roo and Zoo since 2025): the task's line in their history list. */
export const SourceHistoryItemSchema = z
  .object({
    id: z.string().nullish(),
    ts: z.number().nullish(),
    task: z.string().nullish(),
    tokensIn: z.number().nullish(),
    tokensOut: z.number().nullish(),
    cacheWrites: z.number().nullish(),
    cacheReads: z.number().nullish(),
    totalCost: z.number().nullish(),
    workspace: z.string().nullish(),
    mode: z.string().nullish(),
    /** Cline's list (state/taskHistory.json) says where the task started and with which model. */
    cwdOnTaskInitialization: z.string().nullish(),
    modelId: z.string().nullish(),
  })
  .passthrough();
export type SourceHistoryItem = z.infer<typeof SourceHistoryItemSchema>;

/** Cline's `state/taskHistory.json`: every task's line. */
export const ClineTaskHistorySchema = z.array(SourceHistoryItemSchema);

/** `tasks/<id>/task_metadata.json`: Cline records the model and its plan/act mode per request. */
export const SourceTaskMetadataSchema = z
  .object({
    model_usage: z.array(z.object({ model_id: z.string().nullish(), mode: z.string().nullish() }).passthrough()).nullish(),
  })
  .passthrough();
export type SourceTaskMetadata = z.infer<typeof SourceTaskMetadataSchema>;

/** The text of a `say: "api_req_started"` message: one request's tokens and cost. */
export const ApiRequestInfoSchema = z
  .object({
    tokensIn: z.number().nullish(),
    tokensOut: z.number().nullish(),
    cacheWrites: z.number().nullish(),
    cacheReads: z.number().nullish(),
    cost: z.number().nullish(),
  })
  .passthrough();

/** The text of an `ask: "tool"` (or Cline's `say: "tool"`) message: which tool, on what. */
export const SourceToolSchema = z.object({ tool: z.string() }).passthrough();

/** The text of an `ask: "followup"` message in Roo (`suggest`) and Cline (`options`); older versions sent the bare question. */
export const SourceFollowupSchema = z
  .object({
    question: z.string(),
    suggest: z.array(z.union([z.string(), z.object({ answer: z.string(), mode: z.string().nullish() }).passthrough()])).nullish(),
    options: z.array(z.string()).nullish(),
  })
  .passthrough();

/** The text of an `ask: "use_mcp_server"` message. */
export const SourceMcpUseSchema = z
  .object({
    serverName: z.string(),
    type: z.string().nullish(),
    toolName: z.string().nullish(),
    arguments: z.string().nullish(),
    uri: z.string().nullish(),
  })
  .passthrough();

/** The text of a `say: "browser_action_result"` message (its screenshot is not carried over). */
export const SourceBrowserResultSchema = z.object({ currentUrl: z.string().nullish(), logs: z.string().nullish() }).passthrough();

/** Any JSON object, for message texts read field by field. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());

/** Reads JSON text with a schema; undefined when it is not JSON or does not match. */
export function parseJsonAs<T>(text: string | null | undefined, schema: z.ZodType<T>): T | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A zod failure as one line naming where in the file it is: "[3].ts: Expected number, received string". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unexpected content";
  const path = issue.path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
  return `${path || "the file"}: ${issue.message}`;
}
