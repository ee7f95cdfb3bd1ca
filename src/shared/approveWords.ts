/**
 * The words hosts use for categories (the `kiln.autoApprove` setting, `--approve`). Tool groups
 * keep their names (read, edit, command…); the rest name the extra gates and task tools.
 */
export const APPROVE_WORDS = ["read", "edit", "command", "browser", "mcp", "delete", "read-outside", "write-outside", "write-protected", "mode", "subtask", "todo"] as const;
export type ApproveWord = (typeof APPROVE_WORDS)[number];

export function isApproveWord(word: string): word is ApproveWord {
  return (APPROVE_WORDS as readonly string[]).includes(word);
}
