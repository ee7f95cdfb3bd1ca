import { z } from "zod";
import type { HistoryEntry } from "../historyEntry";

/** The history view's messages, part of the chat page's protocol (messages.ts joins them in). */

const taskId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/);

export const HISTORY_MESSAGES = [
  /** The page shows the history view: the host sends history/state now and after each change. */
  z.object({ type: z.literal("history/open") }).strict(),
  /** Reopens a saved task in this chat, where it can be resumed. */
  z.object({ type: z.literal("history/resume"), id: taskId }).strict(),
  z.object({ type: z.literal("history/delete"), id: taskId }).strict(),
  z.object({ type: z.literal("history/favorite"), id: taskId, favorite: z.boolean() }).strict(),
  /** Saves the task as a Markdown file the user picks. */
  z.object({ type: z.literal("history/export"), id: taskId }).strict(),
] as const;
export type HistoryToHost = z.infer<(typeof HISTORY_MESSAGES)[number]>;

export interface HistoryViewState {
  entries: HistoryEntry[];
  /** Files that could not be read (each moved aside, never deleted). */
  problems: string[];
  /** The open folder, whose tasks are listed first. */
  currentWorkspace?: string;
  /** The task this chat shows now. */
  currentTaskId?: string;
}

export type HostToHistoryView =
  | { type: "history/state"; state: HistoryViewState }
  /** Kiln: Task History: the page switches to the history view. */
  | { type: "history/show" };
