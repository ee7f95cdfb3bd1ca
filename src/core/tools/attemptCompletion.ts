import { defineTool } from "./defineTool";
import { p } from "./params";

export const attemptCompletionTool = defineTool({
  name: "attempt_completion",
  group: "always",
  description: "Say the task is done, with a short account of the result. Use it only after the work is finished and checked; do not end with a question.",
  params: {
    result: p.string("What was done", { raw: true }),
    command: p.string("A command the user can run to see the result", { optional: true }),
  },
  async execute(args) {
    return { kind: "completion", result: args.result.trim(), command: args.command };
  },
});
