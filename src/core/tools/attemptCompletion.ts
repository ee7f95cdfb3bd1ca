import * as l10n from "@vscode/l10n";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { beforeRun, markdown, said, view } from "./present";

export const attemptCompletionTool = defineTool({
  name: "attempt_completion",
  group: "always",
  description: "Say the task is done, with a short account of the result. Use it only after the work is finished and checked; do not end with a question.",
  params: {
    result: p.string("What was done", { raw: true }),
    command: p.string("A command the user can run to see the result", { optional: true }),
  },
  present(args, status) {
    // Its own chat item shows the result once the call has run; until then the card previews it.
    return view(
      {
        icon: "pass",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to finish the task"),
          doing: () => l10n.t("Kiln is finishing the task"),
          did: () => l10n.t("Kiln finished the task"),
          denied: () => l10n.t("Kiln was not allowed to finish the task"),
          failed: () => l10n.t("Kiln could not finish the task"),
        }),
      },
      beforeRun(status) ? markdown(args.result) : undefined,
    );
  },
  async execute(args, context) {
    const open = context.task?.requireTodosDone ? context.task.todos().filter((t) => t.status !== "completed") : [];
    if (open.length > 0) {
      return toolError(
        "conflict",
        `${open.length} todo item(s) are still open (${open.map((t) => t.text).join("; ")}). Finish them, or update the list with update_todo_list if they are no longer needed, then complete.`,
      );
    }
    return { kind: "completion", result: args.result.trim(), command: args.command };
  },
});
