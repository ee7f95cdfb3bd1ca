import { z } from "zod";
import { ChatItemSchema } from "../../shared/protocol/chat";

/**
 * What task history keeps. Files written by another version of Kiln, another window or a crash
 * are read through these schemas, so a damaged file is reported instead of breaking the list.
 */
export const HistoryEntrySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  title: z.string().max(500),
  /** The workspace folder the task ran in; the history view groups by it. */
  workspace: z.string().max(4_096),
  mode: z.string().max(100),
  model: z.string().max(300),
  protocol: z.enum(["xml", "native"]),
  tokensIn: z.number().nonnegative(),
  tokensOut: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cost: z.number().nonnegative().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  favorite: z.boolean(),
  /** The task's last status (running, completed, stopped…); "running" after a crash means interrupted. */
  status: z.string().max(50),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

const ImageSchema = z.object({ mediaType: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]), data: z.string() });
const ContentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  ImageSchema.extend({ type: z.literal("image") }),
  z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }),
  z.object({
    type: z.literal("tool_result"),
    toolUseId: z.string(),
    content: z.string(),
    isError: z.boolean().optional(),
    images: z.array(ImageSchema).optional(),
  }),
]);
export const LlmMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(ContentSchema)]),
});

/** What a resumed task needs beyond its messages: a question it was waiting on, a condense, its todos. */
export const ResumeStateSchema = z.object({
  pending: z
    .object({
      name: z.string(),
      id: z.string().optional(),
      results: z.array(ContentSchema),
      texts: z.array(z.string()),
      images: z.array(ImageSchema),
    })
    .optional(),
  condensed: z.object({ from: z.number().int().nonnegative(), summary: z.string() }).optional(),
  /** Messages the sliding window leaves out of requests (kept, never deleted). */
  hidden: z.number().int().nonnegative().optional(),
  todos: z.array(z.object({ text: z.string(), status: z.enum(["pending", "in_progress", "completed"]) })),
  requests: z.number().int().nonnegative(),
});
export type ResumeState = z.infer<typeof ResumeStateSchema>;

/** The metadata file: the index line plus what resuming needs. */
export const MetadataSchema = HistoryEntrySchema.extend({ resume: ResumeStateSchema.optional() });

export const IndexSchema = z.object({ version: z.literal(1), tasks: z.array(HistoryEntrySchema) });
export type HistoryIndex = z.infer<typeof IndexSchema>;

export const UiMessagesSchema = z.array(ChatItemSchema);
export const ApiMessagesSchema = z.array(LlmMessageSchema);

export interface SavedTask {
  entry: HistoryEntry;
  /** The conversation as sent to the model. */
  api: z.infer<typeof ApiMessagesSchema>;
  /** The chat as the user saw it. */
  ui: z.infer<typeof UiMessagesSchema>;
  resume?: ResumeState;
}
