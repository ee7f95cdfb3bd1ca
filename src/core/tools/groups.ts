// A leaf module: modes, the approval port and the policy need these names without the tool machinery.

/**
 * Calls approved on their own terms, apart from their tool's group: deleting (an edit tool, but
 * riskier) and the task tools a user may want to confirm (switch_mode, new_task, update_todo_list).
 */
export type ApprovalCategory = "delete" | "mode" | "subtask" | "todo";

/** The group a tool belongs to; a mode allows some groups ("always": the task tools every mode has). */
export type ToolGroup = "read" | "edit" | "command" | "browser" | "mcp" | "always";
