import * as l10n from "@vscode/l10n";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { markdown, said, view } from "./present";

export const condenseTool = defineTool({
  name: "condense",
  group: "always",
  description: "Summarise the conversation so far into one message to free context, keeping what matters for the rest of the task. Say in context what the summary must keep.",
  params: {
    context: p.string("What the summary must keep (decisions, files, open work)", { raw: true }),
  },
  present(args, status) {
    // Also the card of the task's own condensing (the context guard's), which starts running.
    return view(
      {
        icon: "fold",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to condense the conversation"),
          doing: () => l10n.t("Kiln is condensing the conversation"),
          did: () => l10n.t("Kiln condensed the conversation"),
          denied: () => l10n.t("Kiln was not allowed to condense the conversation"),
          failed: () => l10n.t("Kiln could not condense the conversation"),
        }),
      },
      markdown(args.context),
    );
  },
  async execute(args, context) {
    const task = context.task;
    if (!task) return toolError("unavailable", "condensing is not available here.");
    const summary = await task.condense(args.context.trim());
    return { kind: "result", text: `The conversation before this call is now replaced by this summary:\n${summary}` };
  },
});
