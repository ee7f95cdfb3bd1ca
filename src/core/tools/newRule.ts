import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { defineTool, toolError } from "./defineTool";
import { isOutcome, proposeEdit, readTextFile } from "./fileEdit";
import { p } from "./params";
import { linkTo, said, view } from "./present";
import { resolvePath } from "./paths";
import { RULES_FOLDER, ruleFileName } from "../../shared/ruleName";

// The name rules live with the rule loader; re-exported for the tool's callers and tests.
export { RULES_FOLDER, ruleFileName };

export const newRuleTool = defineTool({
  name: "new_rule",
  group: "edit",
  description: `Save a project rule (a convention for future tasks) as a Markdown file in ${RULES_FOLDER}/, the folder of project rules, named after the rule. Use it when the user asks you to remember a convention or preference. The user always reviews a new rule.`,
  params: {
    name: p.string('Short name of the rule, e.g. "testing-conventions" (becomes the file name; .md is added)'),
    content: p.string("The rule in Markdown: what to do, and why", { raw: true }),
  },
  approval(args) {
    const file = ruleFileName(args.name);
    // An invalid name asks nothing: execute refuses it before anything is proposed.
    return { summary: file.ok ? l10n.t("New rule {0}", `${RULES_FOLDER}/${file.file}`) : l10n.t("New rule"), paths: file.ok ? [`${RULES_FOLDER}/${file.file}`] : [], reviewed: true };
  },
  present(args, status) {
    const file = args.name === undefined ? undefined : ruleFileName(args.name);
    const path = file?.ok ? `${RULES_FOLDER}/${file.file}` : args.name;
    return view(
      {
        icon: "law",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to add the rule {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is adding the rule {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln added the rule {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to add the rule {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not add the rule {0}", TARGET_SLOT),
        }),
        target: path,
        link: file?.ok ? linkTo(path) : undefined,
      },
      args.content === undefined ? undefined : { kind: "file", path: path ?? "", content: args.content },
    );
  },
  async execute(args, context) {
    const file = ruleFileName(args.name);
    if (!file.ok) return toolError("invalid_args", file.error);
    if (args.content.trim() === "") return toolError("invalid_args", "content is empty; write the rule itself in Markdown.");
    const target = resolvePath(context.cwd, `${RULES_FOLDER}/${file.file}`);
    const before = await readTextFile(context, target);
    if (isOutcome(before)) return before;
    if (before) {
      return toolError("conflict", `a rule named ${target.display} already exists. Choose another name, or read it and change it with apply_diff if the new rule belongs there.`);
    }
    const content = args.content.endsWith("\n") ? args.content : `${args.content}\n`;
    const edit = await proposeEdit(context, { target, before: undefined, after: content, tool: "new_rule" });
    if (!edit.applied) return edit.outcome;
    return { kind: "result", text: `Saved the rule as ${target.display}.` };
  },
});
