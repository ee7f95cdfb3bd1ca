import { z } from "zod";

/**
 * A checkpoint in the chat: the workspace saved (in a shadow git repository) just before a reply's
 * first edit. Without `commit` no checkpoint was taken and `note` says why (turned off, a nested
 * repository, the time budget); shown once per task, and the edit went ahead all the same.
 */
export const CheckpointItemSchema = z.object({
  id: z.string(),
  role: z.literal("checkpoint"),
  /** What it was taken before ("Before write_to_file src/a.ts"). */
  message: z.string(),
  commit: z.string().optional(),
  /**
   * The length of the task's conversation when it was taken: "Restore files and task" keeps that
   * much. Absent for a subtask's checkpoint, whose conversation is not the chat's.
   */
  apiIndex: z.number().int().nonnegative().optional(),
  /** Why none was taken, or what it left out (files over the size cap). */
  note: z.string().optional(),
});
export type CheckpointItem = z.infer<typeof CheckpointItemSchema>;

export const CHECKPOINT_ACTIONS = ["restoreFiles", "restoreTask", "diff"] as const;
export type CheckpointAction = (typeof CHECKPOINT_ACTIONS)[number];

/** A button on a checkpoint row, by the row's id: the host looks the commit up in the task itself. */
export const CheckpointMessageSchema = z.object({ type: z.literal("chat/checkpoint"), id: z.string().min(1).max(200), action: z.enum(CHECKPOINT_ACTIONS) }).strict();
export type CheckpointMessage = z.infer<typeof CheckpointMessageSchema>;
