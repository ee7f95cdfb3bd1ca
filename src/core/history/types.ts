import { z } from "zod";
import { ChatItemSchema } from "../../shared/protocol/chat";
import { HistoryEntrySchema, type HistoryEntry } from "../../shared/historyEntry";

/**
 * What task history keeps. Files written by another version of Kiln, another window or a crash
 * are read through these schemas, so a damaged file is reported instead of breaking the list.
 */
// The entry lives in shared: the history view reads the same shape.
export { HistoryEntrySchema, type HistoryEntry } from "../../shared/historyEntry";

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
