import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { markdown, said, view } from "./present";

export const reportBugTool = defineTool({
  name: "report_bug",
  group: "always",
  description: "Prepare a bug report about Kiln for the user to file. Nothing is sent: the user reads it and decides.",
  params: {
    title: p.string("One-line title"),
    description: p.string("What happened, what was expected, steps to reproduce", { raw: true }),
  },
  present(args, status) {
    return view({ icon: "bug", title: said(status, { wants: "report a bug:", doing: "reporting a bug:", did: "reported a bug:" }), target: args.title }, markdown(args.description));
  },
  async execute(args) {
    if (args.title.trim() === "" || args.description.trim() === "") return toolError("invalid_args", "give both a title and a description.");
    const body = `## ${args.title.trim()}\n\n${args.description.trim()}`;
    // Shown on the tool card for the user to copy; the model only learns that it was prepared.
    return { kind: "result", text: `Prepared this bug report for the user; nothing was sent. Tell the user where it is and go on.\n\n${body}` };
  },
});
