import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { defineTool, toolError } from "./defineTool";
import { describeState, formatOutput } from "./executeCommand";
import { OUTPUT_MAX_CHARS } from "../../shared/limits";
import { p } from "./params";
import { fieldsBody, said, view } from "./present";

const MAX_WAIT_S = 600;
const PAGE_LINES = 500;

/** Lines start_line.. of the whole output, as many as fit in `max` characters. */
function page(full: string, startLine: number, max: number): string {
  const lines = full.replace(/\n$/, "").split("\n");
  if (startLine > lines.length) return `Error: the output has ${lines.length} lines; line ${startLine} does not exist.`;
  const shown: string[] = [];
  let size = 0;
  for (let i = startLine - 1; i < lines.length && shown.length < PAGE_LINES; i++) {
    const line = lines[i]!;
    if (size + line.length + 1 > max && shown.length > 0) break;
    shown.push(line.length > max ? `${line.slice(0, max)} [line cut]` : line);
    size += line.length + 1;
  }
  const end = startLine + shown.length - 1;
  const more = end < lines.length ? ` Read on with start_line ${end + 1}.` : "";
  return `${shown.join("\n")}\n[Showing lines ${startLine}-${end} of ${lines.length}.${more}]`;
}

/**
 * The follow-up to execute_command: a command left running in the background (or one whose output
 * was cut) is read here by the id execute_command gave. Without start_line it answers with what
 * arrived since the model last looked; with start_line it pages through the whole output.
 */
export const readCommandOutputTool = defineTool({
  name: "read_command_output",
  group: "command",
  description:
    "Read the output of a command started with execute_command, by its id: the output that arrived since you last looked (and whether it is still running), " +
    "or, with start_line, a page of its whole output. wait: seconds to wait for it to finish first. stop: end it.",
  params: {
    id: p.string("The command's id, as execute_command reported it"),
    wait: p.integer(`Seconds to wait for the command to finish before answering (default 0, at most ${MAX_WAIT_S})`, { optional: true, min: 0, max: MAX_WAIT_S }),
    stop: p.boolean("End the command (and what it started) before reading", { optional: true }),
    start_line: p.integer("Page through the whole output from this line (1-based) instead of reading what is new", { optional: true, min: 1 }),
  },
  // No approval: it only reads what a command the user approved printed, or stops that command.
  present(args, status) {
    const verbs = {
      wants: () => l10n.t("Kiln wants to read the output of command {0}", TARGET_SLOT),
      doing: () => l10n.t("Kiln is reading the output of command {0}", TARGET_SLOT),
      did: () => l10n.t("Kiln read the output of command {0}", TARGET_SLOT),
      denied: () => l10n.t("Kiln was not allowed to read the output of command {0}", TARGET_SLOT),
      failed: () => l10n.t("Kiln could not read the output of command {0}", TARGET_SLOT),
    };
    return view(
      { icon: "output", title: said(status, verbs), target: args.id },
      fieldsBody([
        [l10n.t("wait"), args.wait && l10n.t("{0} s", args.wait)],
        [l10n.t("stop"), args.stop === "true" ? l10n.t("yes") : undefined],
        [l10n.t("from line"), args.start_line],
      ]),
    );
  },
  async execute(args, context) {
    if (!context.terminal) return toolError("unavailable", "this host cannot run commands (it has no terminal).");
    const id = args.id.replace(/^#/, "");
    const status = await context.terminal.read(id, { waitMs: (args.wait ?? 0) * 1000, stop: args.stop, signal: context.signal });
    if (!status) return toolError("not_found", `there is no command with id ${args.id} in this task; execute_command gives the id when a command goes on in the background.`);
    const full = context.terminal.fullOutput(id) ?? "";
    const header = `Command ${status.id}: ${status.command}\n${describeState(status)}`;
    if (args.start_line !== undefined) {
      if (full.trim() === "") return { kind: "result", text: `${header}\nOutput: (none yet)` };
      return { kind: "result", text: `${header}\nOutput:\n${page(full, args.start_line, context.outputMaxChars ?? OUTPUT_MAX_CHARS.default)}` };
    }
    if (status.output === "") return { kind: "result", text: `${header}\nNo new output since you last looked (${status.totalChars.toLocaleString("en-US")} characters in all).` };
    // The new output is the end of the whole: number its lines as lines of the whole output.
    const before = full.length >= status.output.length ? full.slice(0, full.length - status.output.length) : "";
    const firstLine = before.split("\n").length;
    return { kind: "result", text: `${header}\nNew output:\n${formatOutput(status, firstLine, context.outputMaxChars)}` };
  },
});
