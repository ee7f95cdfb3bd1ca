import { z } from "zod";
import { APPROVE_WORDS, type ApproveWord } from "../approveWords";

/**
 * The auto-approve bar above the chat input, part of the chat page's protocol (messages.ts joins
 * it in): the switch and the categories, as the kiln.autoApprove* settings hold them. The page
 * shows them and asks for changes; the host writes the settings, and every chat follows.
 */

export interface AutoApproveBarState {
  /** kiln.autoApproveEnabled: off, every call asks whatever the categories say. */
  enabled: boolean;
  /** kiln.autoApprove: the categories that run unasked while the switch is on. */
  words: ApproveWord[];
}

export const AUTO_APPROVE_BAR_MESSAGES = [
  /** The switch or the categories as the user set them on the bar; one or both. */
  z
    .object({
      type: z.literal("chat/setAutoApprove"),
      enabled: z.boolean().optional(),
      words: z
        .array(z.enum(APPROVE_WORDS))
        .max(APPROVE_WORDS.length * 2)
        .optional(),
    })
    .strict(),
] as const;

/** What the bar calls each category, in the order it shows them: the everyday ones first. */
export const APPROVE_LABELS: Record<ApproveWord, string> = {
  read: "Read files",
  edit: "Edit files",
  command: "Run commands",
  browser: "Use the browser",
  mcp: "MCP tools",
  todo: "Update todos",
  mode: "Switch modes",
  subtask: "Start subtasks",
  delete: "Delete files",
  "read-outside": "Read outside the workspace",
  "write-outside": "Edit outside the workspace",
  "write-protected": "Edit protected files",
};
