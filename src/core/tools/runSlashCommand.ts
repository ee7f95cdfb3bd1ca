import * as l10n from "@vscode/l10n";
import { join } from "node:path";
import { COMMAND_NAME, fillArguments, findWorkflow, WORKFLOW_DIRS, workflowNames } from "../commands/workflows";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { fieldsBody, running, said, view } from "./present";

export const runSlashCommandTool = defineTool({
  name: "run_slash_command",
  group: "always",
  description:
    "Run a workflow the user keeps in .kilocode/commands/<command>.md (or .kilocode/workflows/, .roo/commands/, .clinerules/workflows/): you get its instructions (with args filled in) and follow them.",
  params: {
    command: p.string("Command name, without the slash"),
    args: p.string("Arguments for the workflow", { optional: true, raw: true }),
  },
  present(args, status) {
    return view(
      {
        icon: "zap",
        title: said(status, running()),
        target: args.command && `/${args.command}`,
      },
      fieldsBody([[l10n.t("arguments"), args.args]]),
    );
  },
  async execute(args, context) {
    const name = args.command.replace(/^\//, "");
    if (!COMMAND_NAME.test(name)) return toolError("invalid_args", `"${args.command}" is not a command name (letters, digits, . _ - only).`);
    const dirs = WORKFLOW_DIRS.map((dir) => join(context.cwd, dir));
    const found = await findWorkflow(context.fs, dirs, name);
    if (!found) {
      const names = [...new Set((await Promise.all(dirs.map((dir) => workflowNames(context.fs, dir)))).flat())].sort();
      const list = names.length ? `Commands: ${names.map((n) => `/${n}`).join(", ")}.` : `There are no commands in ${WORKFLOW_DIRS.join(", ")}.`;
      return toolError("not_found", `there is no command /${name}. ${list}`);
    }
    const filled = fillArguments(found.workflow.body, args.args ?? "");
    return { kind: "result", text: `Workflow /${name}; follow these instructions:\n<workflow>\n${filled}\n</workflow>` };
  },
});
