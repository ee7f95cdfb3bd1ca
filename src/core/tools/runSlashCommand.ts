import * as l10n from "@vscode/l10n";
import { join } from "node:path";
import { COMMANDS_DIR, COMMAND_NAME, fillArguments, readWorkflow, workflowNames } from "../commands/workflows";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { fieldsBody, running, said, view } from "./present";

export const runSlashCommandTool = defineTool({
  name: "run_slash_command",
  group: "always",
  description: "Run a workflow the user keeps in .kilocode/commands/<command>.md: you get its instructions (with args filled in) and follow them.",
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
    const dir = join(context.cwd, COMMANDS_DIR);
    const workflow = await readWorkflow(context.fs, dir, name);
    if (!workflow) {
      const names = await workflowNames(context.fs, dir);
      const list = names.length ? `Commands: ${names.map((n) => `/${n}`).join(", ")}.` : `There are no commands in ${COMMANDS_DIR}.`;
      return toolError("not_found", `there is no command /${name}. ${list}`);
    }
    const filled = fillArguments(workflow.body, args.args ?? "");
    return { kind: "result", text: `Workflow /${name}; follow these instructions:\n<workflow>\n${filled}\n</workflow>` };
  },
});
