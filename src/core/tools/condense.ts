import { defineTool } from "./defineTool";
import { p } from "./params";

export const condenseTool = defineTool({
  name: "condense",
  group: "always",
  description:
    "Summarise the conversation so far into one message to free context, keeping what matters for the rest of the task. Say in context what the summary must keep.",
  params: {
    context: p.string("What the summary must keep (decisions, files, open work)", { raw: true }),
  },
  async execute(args, context) {
    const task = context.task;
    if (!task) return { kind: "result", text: "Error: condensing is not available here." };
    const summary = await task.condense(args.context.trim());
    return { kind: "result", text: `The conversation before this call is now replaced by this summary:\n${summary}` };
  },
});
