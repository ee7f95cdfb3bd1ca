import * as l10n from "@vscode/l10n";
import { formatTodos, parseTodos } from "./todoList";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { checklistItems, said, view } from "./present";

export const updateTodoListTool = defineTool({
  name: "update_todo_list",
  group: "always",
  description: "Replace the task's todo list with this markdown checklist: one item a line, '- [ ] pending', '- [-] in progress', '- [x] done'. Keep it current as you work; the user sees it live.",
  params: {
    todos: p.string("The whole checklist", { raw: true }),
  },
  present(args, status) {
    return view(
      {
        icon: "checklist",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to update the todo list"),
          doing: () => l10n.t("Kiln is updating the todo list"),
          did: () => l10n.t("Kiln updated the todo list"),
          denied: () => l10n.t("Kiln was not allowed to update the todo list"),
          failed: () => l10n.t("Kiln could not update the todo list"),
        }),
      },
      args.todos === undefined ? undefined : { kind: "checklist", items: checklistItems(args.todos) },
    );
  },
  async execute(args, context) {
    const task = context.task;
    if (!task) return toolError("unavailable", "a todo list is not available here.");
    const parsed = parseTodos(args.todos);
    if (!parsed.ok) return toolError("invalid_args", `${parsed.error}.`);
    if (parsed.todos.length === 0) return toolError("invalid_args", "the checklist is empty; give at least one item.");
    task.setTodos(parsed.todos);
    const open = parsed.todos.filter((t) => t.status !== "completed").length;
    return { kind: "result", text: `Todo list updated (${parsed.todos.length} items, ${open} open):\n${formatTodos(parsed.todos)}` };
  },
});
