import * as l10n from "@vscode/l10n";
import type { CommandStatus } from "../ports/terminal";
import { destructiveReason } from "../approval/commandSafety";
import { defineTool, toolError } from "./defineTool";
import { OUTPUT_MAX_CHARS } from "../../shared/limits";
import { plural } from "../../shared/plural";
import { p } from "./params";
import { commandTarget, fieldsBody, running, said, view } from "./present";
import { fields } from "../../shared/toolView";
import { resolvePath } from "./paths";

export const DEFAULT_TIMEOUT_S = 120;
/** The end of a build or test run says most (the failures, the summary): it gets the larger share. */
const HEAD_SHARE = 0.4;

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Head and tail of `text` within `max` characters (kiln.terminal.outputMaxChars), cut at line ends
 * where one is near; the rest stays readable by page with read_command_output. `firstLine` is the
 * line number of text's first line in the whole output, so the note can say where to page from.
 */
export function headAndTail(text: string, status: CommandStatus, firstLine = 1, max = OUTPUT_MAX_CHARS.default): string {
  if (text.length <= max) return text;
  let headEnd = Math.floor(max * HEAD_SHARE);
  let tailStart = text.length - (max - headEnd);
  const nl = text.lastIndexOf("\n", headEnd);
  if (nl > headEnd / 2) headEnd = nl + 1;
  const nextNl = text.indexOf("\n", tailStart);
  if (nextNl !== -1 && nextNl - tailStart < (text.length - tailStart) / 2) tailStart = nextNl + 1;
  const cutFrom = firstLine + countLines(text.slice(0, headEnd));
  const cutTo = cutFrom + countLines(text.slice(headEnd, tailStart)) - 1;
  const saved = status.logFile ? ` It is also saved in full at ${status.logFile}.` : "";
  const note =
    `[… ${plural(tailStart - headEnd, "character")} cut from the middle of the output (lines ${cutFrom}-${cutTo}). ` +
    `Page through them with read_command_output, id ${status.id}, start_line ${cutFrom}.${saved} …]`;
  return `${text.slice(0, headEnd)}${text[headEnd - 1] === "\n" ? "" : "\n"}${note}\n${text.slice(tailStart)}`;
}

/** What the user did from the command's card: let the model go on while it runs, or end it. */
export type UserControl = "continued" | "stopped";

/** The state line the model reads first: how the command ended, or how to follow it. */
export function describeState(status: CommandStatus, waitedS?: number, user?: UserControl): string {
  if (status.state === "killed" && user === "stopped") return "The user stopped the command; its output until then is below.";
  if (status.state === "running") {
    const waited = user === "continued" ? " (the user chose to go on without waiting for it)" : waitedS === undefined ? "" : ` after ${waitedS} s`;
    return (
      `Still running${waited}; it goes on in the background as command ${status.id}. ` +
      `Read its later output with read_command_output (id ${status.id}; wait: seconds to wait for it to finish), or end it with stop true.`
    );
  }
  if (status.state === "killed") return `Stopped: the command was killed${status.signal ? ` (${status.signal})` : ""}.`;
  if (status.exitCode !== undefined) return `Exit code: ${status.exitCode}`;
  if (status.signal) return `Ended by signal ${status.signal}.`;
  return "It ended; the exit code is unknown (the terminal did not report it).";
}

export function formatOutput(status: CommandStatus, firstLine = 1, max = OUTPUT_MAX_CHARS.default): string {
  if (status.output.trim() === "") return "(no output)";
  return headAndTail(status.output.replace(/\n$/, ""), status, firstLine, max);
}

export const executeCommandTool = defineTool({
  name: "execute_command",
  group: "command",
  description:
    "Run a shell command and get its output and exit code. It runs in the user's terminal shell in the editor, else in sh (cmd.exe on Windows). " +
    `Nobody answers prompts: pass flags such as --yes instead. Long output is shown as its head and tail; ` +
    "page through the rest with read_command_output. A command still running at its timeout (a dev server, a watcher) goes on in the background; follow it with read_command_output.",
  params: {
    command: p.string("The command line to run"),
    cwd: p.string("Folder to run it in, relative to the workspace (default: the workspace root)", { optional: true }),
    timeout: p.integer(`Seconds to wait before leaving the command running in the background (default ${DEFAULT_TIMEOUT_S})`, { optional: true, min: 1, max: 3600 }),
  },
  approval: (args) => ({
    summary: args.cwd ? l10n.t("Run {0} in {1}", args.command, args.cwd) : l10n.t("Run {0}", args.command),
    // Listing cwd lets the pipeline ask when it is outside the workspace or hidden from Kiln.
    paths: args.cwd ? [args.cwd] : [],
    // The tool asks itself, so a destructive command can insist on asking despite auto-approval.
    reviewed: true,
  }),
  present(args, status) {
    const rows: [string, string | undefined][] = [
      [l10n.t("in"), args.cwd],
      [l10n.t("timeout"), args.timeout && l10n.t("{0} s", args.timeout)],
    ];
    const heading = {
      icon: "terminal" as const,
      title: said(status, running()),
      target: commandTarget(args.command),
      code: true,
    };
    if (args.command === undefined) return view(heading, fieldsBody(rows));
    const shown = fields(rows);
    return view(heading, { kind: "command", command: args.command, ...(shown.length > 0 && { fields: shown }) });
  },
  async execute(args, context) {
    if (!context.terminal) return toolError("unavailable", "this host cannot run commands (it has no terminal).");
    const reason = destructiveReason(args.command);
    if (reason && !context.approve) return toolError("unavailable", `this command is never run without the user's approval (${reason}), and no one can approve it here.`);
    const decision = context.approve ? await context.approve(reason ? { alwaysAsk: true, reason: `This command is potentially destructive: ${reason}.` } : {}) : { approved: true as const };
    if (!decision.approved) return { kind: "denied", feedback: decision.feedback };

    const cwd = resolvePath(context.cwd, args.cwd ?? ".");
    const stat = await context.fs.stat(cwd.absolute);
    if (stat?.type !== "directory") return toolError(stat ? "wrong_type" : "not_found", `${cwd.display} is ${stat ? "not a folder" : "missing"}; give cwd as an existing folder.`);
    const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
    let status: CommandStatus;
    let user: UserControl | undefined;
    try {
      const controls = context.cardControls?.();
      status = await context.terminal.run(args.command, {
        cwd: cwd.absolute,
        timeoutMs: timeoutS * 1000,
        signal: context.signal,
        ...(context.output && { onOutput: context.output }),
        ...(controls && { detach: controls.continued, stop: controls.stopped }),
      });
      user = controls?.stopped.aborted ? "stopped" : controls?.continued.aborted ? "continued" : undefined;
    } catch (err) {
      return toolError("failed", `the command could not be started: ${err instanceof Error ? err.message : String(err)}`);
    }
    const where = args.cwd ? ` (in ${cwd.display})` : "";
    // The model should read "Read-only file system" or a failed connection as the sandbox's doing.
    const sandbox = status.sandbox ? `${status.sandbox}\n` : "";
    return { kind: "result", text: `Command: ${args.command}${where}\n${describeState(status, timeoutS, user)}\n${sandbox}Output:\n${formatOutput(status, 1, context.outputMaxChars)}` };
  },
});
