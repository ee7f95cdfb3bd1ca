import { join } from "node:path";
import { defineTool, type ToolContext } from "./defineTool";
import { p } from "./params";

const COMMANDS_DIR = join(".kilocode", "commands");
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

async function available(context: ToolContext): Promise<string[]> {
  const dir = join(context.cwd, COMMANDS_DIR);
  if ((await context.fs.stat(dir))?.type !== "directory") return [];
  const entries = await context.fs.readDirectory(dir);
  return entries.filter((e) => e.type === "file" && e.name.endsWith(".md")).map((e) => e.name.slice(0, -3));
}

/** Front matter (`---` … `---`) describes the command for pickers; the model gets the body. */
function body(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return (match ? text.slice(match[0].length) : text).trim();
}

export const runSlashCommandTool = defineTool({
  name: "run_slash_command",
  group: "always",
  description: "Run a workflow the user keeps in .kilocode/commands/<command>.md: you get its instructions (with args filled in) and follow them.",
  params: {
    command: p.string("Command name, without the slash"),
    args: p.string("Arguments for the workflow", { optional: true, raw: true }),
  },
  async execute(args, context) {
    const name = args.command.replace(/^\//, "");
    if (!NAME.test(name)) return { kind: "result", text: `Error: "${args.command}" is not a command name (letters, digits, . _ - only).` };
    const file = join(context.cwd, COMMANDS_DIR, `${name}.md`);
    if ((await context.fs.stat(file))?.type !== "file") {
      const names = await available(context);
      const list = names.length ? `Commands: ${names.map((n) => `/${n}`).join(", ")}.` : `There are no commands in ${COMMANDS_DIR}.`;
      return { kind: "result", text: `Error: there is no command /${name}. ${list}` };
    }
    const text = body(new TextDecoder().decode(await context.fs.readFile(file)));
    const given = args.args?.trim() ?? "";
    const filled = text.includes("$ARGUMENTS") ? text.split("$ARGUMENTS").join(given) : given ? `${text}\n\nArguments: ${given}` : text;
    return { kind: "result", text: `Workflow /${name}; follow these instructions:\n<workflow>\n${filled}\n</workflow>` };
  },
});
