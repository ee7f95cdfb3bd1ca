import * as l10n from "@vscode/l10n";
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

/** The categories in the order the bar shows them: the everyday ones first. */
export const APPROVE_ORDER: readonly ApproveWord[] = ["read", "edit", "command", "browser", "mcp", "todo", "mode", "subtask", "delete", "read-outside", "write-outside", "write-protected"];

/** What the bar calls a category, as a toggle's label ("Read files"). */
export function approveLabel(word: ApproveWord): string {
  switch (word) {
    case "read":
      return l10n.t("Read files");
    case "edit":
      return l10n.t("Edit files");
    case "command":
      return l10n.t("Run commands");
    case "browser":
      return l10n.t("Use the browser");
    case "mcp":
      return l10n.t("MCP tools");
    case "todo":
      return l10n.t("Update todos");
    case "mode":
      return l10n.t("Switch modes");
    case "subtask":
      return l10n.t("Start subtasks");
    case "delete":
      return l10n.t("Delete files");
    case "read-outside":
      return l10n.t("Read outside the workspace");
    case "write-outside":
      return l10n.t("Edit outside the workspace");
    case "write-protected":
      return l10n.t("Edit protected files");
  }
}

/** A category inside the bar's one-line summary ("read files, edit files"). */
export function approvePhrase(word: ApproveWord): string {
  switch (word) {
    case "read":
      return l10n.t("read files");
    case "edit":
      return l10n.t("edit files");
    case "command":
      return l10n.t("run commands");
    case "browser":
      return l10n.t("use the browser");
    case "mcp":
      return l10n.t({ message: "MCP tools", comment: ['a category in the one-line summary, beside "read files"'] });
    case "todo":
      return l10n.t("update todos");
    case "mode":
      return l10n.t("switch modes");
    case "subtask":
      return l10n.t("start subtasks");
    case "delete":
      return l10n.t("delete files");
    case "read-outside":
      return l10n.t("read outside the workspace");
    case "write-outside":
      return l10n.t("edit outside the workspace");
    case "write-protected":
      return l10n.t("edit protected files");
  }
}
