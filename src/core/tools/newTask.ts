import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { TodoItem } from "../ports/taskControls";
import { parseTodos } from "./todoList";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { checklistItems, markdown, said, view } from "./present";

export const newTaskTool = defineTool({
  name: "new_task",
  group: "always",
  description:
    "Start a subtask in a mode with its own instructions. This task waits until the subtask completes and then gets its result. Give the subtask everything it needs: it does not see this conversation.",
  params: {
    mode: p.string("Slug of the subtask's mode"),
    message: p.string("The subtask's instructions", { raw: true }),
    todos: p.string("Optional starting checklist for the subtask ('- [ ] item' lines)", { optional: true, raw: true }),
  },
  present(args, status) {
    const heading = {
      icon: "zap" as const,
      title: said(status, {
        wants: () => l10n.t("Kiln wants to start a subtask in {0} mode", TARGET_SLOT),
        doing: () => l10n.t("Kiln is running a subtask in {0} mode", TARGET_SLOT),
        did: () => l10n.t("Kiln ran a subtask in {0} mode", TARGET_SLOT),
        denied: () => l10n.t("Kiln was not allowed to start a subtask in {0} mode", TARGET_SLOT),
        failed: () => l10n.t("Kiln could not start a subtask in {0} mode", TARGET_SLOT),
      }),
      target: args.mode,
    };
    if (args.todos === undefined) return view(heading, markdown(args.message));
    return view(heading, { kind: "checklist", ...(args.message && { text: args.message }), items: checklistItems(args.todos) });
  },
  async execute(args, context) {
    const task = context.task;
    if (!task) return toolError("unavailable", "subtasks are not available here.");
    const mode = task.modes().find((m) => m.slug === args.mode);
    if (!mode)
      return toolError(
        "not_found",
        `there is no mode "${args.mode}". Modes: ${task
          .modes()
          .map((m) => m.slug)
          .join(", ")}.`,
      );
    if (args.message.trim() === "") return toolError("invalid_args", "message is empty; say what the subtask must do.");
    let todos: TodoItem[] = [];
    if (args.todos?.trim()) {
      const parsed = parseTodos(args.todos);
      if (!parsed.ok) return toolError("invalid_args", `todos: ${parsed.error}.`);
      todos = parsed.todos;
    }
    const outcome = await task.runSubtask(mode, args.message.trim(), todos);
    if (!outcome.ok) return toolError("failed", `the subtask did not complete: ${outcome.reason}`);
    return { kind: "result", text: `The subtask (${mode.name} mode) completed with this result:\n${outcome.result}` };
  },
});
