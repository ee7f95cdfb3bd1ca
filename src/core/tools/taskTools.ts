import { condenseTool } from "./condense";
import type { AnyTool } from "./defineTool";
import { newTaskTool } from "./newTask";
import { reportBugTool } from "./reportBug";
import { runSlashCommandTool } from "./runSlashCommand";
import { switchModeTool } from "./switchMode";
import { updateTodoListTool } from "./updateTodoList";

/** The always-available tools that act on the task itself rather than the workspace. */
export const TASK_TOOLS: readonly AnyTool[] = [switchModeTool, newTaskTool, updateTodoListTool, condenseTool, runSlashCommandTool, reportBugTool];
