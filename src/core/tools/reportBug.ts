import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
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
    return view(
      {
        icon: "bug",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to report a bug: {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is reporting a bug: {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln reported a bug: {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to report a bug: {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not report a bug: {0}", TARGET_SLOT),
        }),
        target: args.title,
      },
      markdown(args.description),
    );
  },
  async execute(args) {
    if (args.title.trim() === "" || args.description.trim() === "") return toolError("invalid_args", "give both a title and a description.");
    const body = `## ${args.title.trim()}\n\n${args.description.trim()}`;
    // Shown on the tool card for the user to copy; the model only learns that it was prepared.
    return { kind: "result", text: `Prepared this bug report for the user; nothing was sent. Tell the user where it is and go on.\n\n${body}` };
  },
});
