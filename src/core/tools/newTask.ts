import { parseTodos, type TodoItem } from "../ports/taskControls";
import { defineTool } from "./defineTool";
import { p } from "./params";

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
  async execute(args, context) {
    const task = context.task;
    if (!task) return { kind: "result", text: "Error: subtasks are not available here." };
    const mode = task.modes().find((m) => m.slug === args.mode);
    if (!mode) return { kind: "result", text: `Error: there is no mode "${args.mode}". Modes: ${task.modes().map((m) => m.slug).join(", ")}.` };
    if (args.message.trim() === "") return { kind: "result", text: "Error: message is empty; say what the subtask must do." };
    let todos: TodoItem[] = [];
    if (args.todos?.trim()) {
      const parsed = parseTodos(args.todos);
      if (!parsed.ok) return { kind: "result", text: `Error: todos: ${parsed.error}.` };
      todos = parsed.todos;
    }
    const outcome = await task.runSubtask(mode, args.message.trim(), todos);
    if (!outcome.ok) return { kind: "result", text: `Error: the subtask did not complete: ${outcome.reason}` };
    return { kind: "result", text: `The subtask (${mode.name} mode) completed with this result:\n${outcome.result}` };
  },
});
