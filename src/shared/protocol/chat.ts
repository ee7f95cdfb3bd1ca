import { z } from "zod";
import { McpRequestItemSchema } from "./mcpRequests";
import { CheckpointItemSchema } from "./checkpoints";
import { ToolViewSchema } from "../toolView";

/** Why a request failed, in words a user can act on; drives the retry button and the message. */
export const ErrorKindSchema = z.enum([
  "no_key",
  "auth",
  /** The key is good but may not use this model (or this region, or this feature). */
  "no_access",
  "model_not_found",
  "rate_limit",
  /** The provider is busy for everyone (Anthropic's 529, Bedrock's ServiceUnavailable); retried like a rate limit. */
  "overloaded",
  /** The request is longer than the model's window. */
  "context_too_long",
  /** The provider's content filter refused the request or the reply. */
  "refused",
  "server",
  "network",
  "bad_request",
  "config",
  "stream",
  "unknown",
  /** The task stopped before a request that would cross one of its budgets (`limit`). */
  "budget",
]);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

export const ChatErrorSchema = z.object({
  kind: ErrorKindSchema,
  message: z.string(),
  retryable: z.boolean(),
  /** With kind budget: which limit stopped the task, so the chat can offer to raise it. */
  limit: z.enum(["maxTokens", "maxCost", "maxInputPerRequest"]).optional(),
});
export type ChatError = z.infer<typeof ChatErrorSchema>;

export const ToolStatusSchema = z.enum(["streaming", "waiting", "running", "done", "denied", "error"]);
/** A button on a running call's card: "continue" lets the model go on while it runs, "stop" ends the call alone. */
export const CallControlSchema = z.enum(["continue", "stop"]);
export type CallControl = z.infer<typeof CallControlSchema>;
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

export const ChatItemSchema = z.discriminatedUnion("role", [
  /** `images`: what the user attached, as data: URLs, shown with the message. */
  z.object({ id: z.string(), role: z.literal("user"), text: z.string(), images: z.array(z.string()).optional() }),
  z.object({
    id: z.string(),
    role: z.literal("assistant"),
    text: z.string(),
    reasoning: z.string().optional(),
    partial: z.boolean(),
  }),
  z.object({ id: z.string(), role: z.literal("error"), error: ChatErrorSchema }),
  z.object({
    id: z.string(),
    role: z.literal("tool"),
    name: z.string(),
    params: z.record(z.string(), z.string()),
    status: ToolStatusSchema,
    /** How the call looks, as its tool presents it (absent on cards saved by older versions). */
    view: ToolViewSchema.optional(),
    /** What the model was told: the result, the error, or the denial. */
    result: z.string().optional(),
    /** Why Kiln did not run it, in a sentence for a person (a mode or a rule refused it); `result` keeps the model's longer text. */
    note: z.string().optional(),
    /** While it runs: the latest progress the tool reported ("3/5 — indexing"). */
    progress: z.string().optional(),
    /** While it runs: its output so far (a command's first and latest lines). */
    output: z.string().optional(),
    /** While it runs: what the user may do to it from its card (go on without waiting, end it). */
    controls: z.array(CallControlSchema).optional(),
    /** Set while the call waits for the user's Approve / Reject: what it will do. */
    approval: z
      .object({
        summary: z.string(),
        diff: z.string().optional(),
        reason: z.string().optional(),
        outsideWorkspace: z.boolean(),
        protectedPaths: z.array(z.string()).optional(),
        /** The diff is open in VS Code's diff editor: the card sums it up and keeps it folded. */
        inEditor: z.boolean().optional(),
      })
      .optional(),
  }),
  z.object({
    id: z.string(),
    role: z.literal("question"),
    question: z.string(),
    suggestions: z.array(z.object({ text: z.string(), mode: z.string().optional() })),
  }),
  z.object({ id: z.string(), role: z.literal("completion"), result: z.string(), command: z.string().optional() }),
  McpRequestItemSchema,
  CheckpointItemSchema,
]);
export type ChatItem = z.infer<typeof ChatItemSchema>;
export type AssistantItem = Extract<ChatItem, { role: "assistant" }>;
export type ToolItem = Extract<ChatItem, { role: "tool" }>;
