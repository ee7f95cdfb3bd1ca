import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { capText, fillTemplate, MAX_CONTEXT_CHARS } from "../../../core/prompts/templates";
import type { Logger } from "../../../core/ports";
import { PlainTextDecoder } from "../../../core/process/plainText";
import type { ChatSession } from "../chat/ChatSession";
import { askChat, promptTemplate } from "./editorActions";

export const TERMINAL_COMMANDS = {
  addToContext: "kiln.terminal.addToContext",
  fix: "kiln.terminal.fixCommand",
  explain: "kiln.terminal.explainCommand",
} as const;
type TerminalAction = keyof typeof TERMINAL_COMMANDS;

interface LastCommand {
  command: string;
  output: string;
  /** Settles when the output stream has ended: its last data can arrive after the command ended. */
  read: Promise<void>;
}

/** How long the chat waits for the rest of a command's output before taking what has come. */
const READ_WAIT_MS = 1_000;

/**
 * The last command and its output in each terminal with shell integration, so the terminal
 * actions have something to send when nothing is selected. Reading has to start when the command
 * does: an execution's stream only carries what is written after it is first read.
 */
export class TerminalOutputs implements vscode.Disposable {
  private readonly last = new WeakMap<vscode.Terminal, LastCommand>();
  private readonly listener: vscode.Disposable;

  constructor(private readonly logger: Logger) {
    this.listener = vscode.window.onDidStartTerminalShellExecution((e) => this.follow(e.terminal, e.execution));
  }

  lastOf(terminal: vscode.Terminal): LastCommand | undefined {
    return this.last.get(terminal);
  }

  dispose(): void {
    this.listener.dispose();
  }

  private follow(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const entry: LastCommand = { command: execution.commandLine.value, output: "", read: Promise.resolve() };
    this.last.set(terminal, entry);
    const decoder = new PlainTextDecoder();
    const stream = execution.read();
    entry.read = (async () => {
      for await (const data of stream) {
        entry.output += decoder.push(data);
        // Only the tail is ever sent; a chatty command must not grow this without end.
        if (entry.output.length > 2 * MAX_CONTEXT_CHARS) entry.output = entry.output.slice(-MAX_CONTEXT_CHARS - 1);
      }
    })().catch((err: unknown) => this.logger.warn(`reading terminal output for the chat failed: ${err instanceof Error ? err.message : String(err)}`));
  }
}

/**
 * Shell integration does not always deliver a command's output: then it is read off the terminal's
 * screen, what follows the command line, less the next prompt.
 */
async function outputOnScreen(command: string, logger: Logger): Promise<string> {
  try {
    await vscode.commands.executeCommand("workbench.action.terminal.selectAll");
    const screen = await terminalSelection(logger);
    const at = screen.lastIndexOf(command);
    if (at === -1) return "";
    const lines = screen
      .slice(at + command.length)
      .trimEnd()
      .split(/\r?\n/);
    if (lines.length > 1 && /[$#>%]\s*$/.test(lines.at(-1)!)) lines.pop();
    return lines.join("\n").trim();
  } finally {
    await vscode.commands.executeCommand("workbench.action.terminal.clearSelection").then(undefined, (err: unknown) => logger.warn(`could not clear the terminal selection: ${String(err)}`));
  }
}

/**
 * The terminal's selection. The stable API has no way to read it, so it goes through the clipboard
 * (copy, read), and the user's clipboard text is put back after.
 */
async function terminalSelection(logger: Logger): Promise<string> {
  const clipboard = vscode.env.clipboard;
  try {
    const saved = await clipboard.readText();
    await clipboard.writeText("");
    try {
      await vscode.commands.executeCommand("workbench.action.terminal.copySelection");
      return await clipboard.readText();
    } finally {
      await clipboard.writeText(saved);
    }
  } catch (err) {
    logger.warn(`could not read the terminal selection: ${err instanceof Error ? err.message : String(err)}`);
    return "";
  }
}

/**
 * What an action is about: text passed by whoever runs the command (automation, tests), else the
 * terminal's selection, else its last command (with its output, except for Explain).
 */
async function terminalContent(action: TerminalAction, arg: unknown, outputs: TerminalOutputs, logger: Logger): Promise<string | undefined> {
  if (typeof arg === "string" && arg.trim() !== "") return arg;
  const selection = await terminalSelection(logger);
  if (selection.trim() !== "") return selection;
  const terminal = vscode.window.activeTerminal;
  const last = terminal && outputs.lastOf(terminal);
  if (!last) return undefined;
  if (action === "explain") return last.command;
  // A command still running (a server) never ends its stream: take what it printed so far.
  await Promise.race([last.read, new Promise((resolve) => setTimeout(resolve, READ_WAIT_MS))]);
  const output = last.output.trimEnd() || (await outputOnScreen(last.command, logger));
  return `$ ${last.command}\n${output}`;
}

const TEMPLATE = { addToContext: "terminalAddToContext", fix: "terminalFix", explain: "terminalExplain" } as const;

export function terminalPrompt(action: TerminalAction, content: string): string {
  return fillTemplate(promptTemplate(TEMPLATE[action]), { terminalContent: capText(content, "terminal output", "end"), userInput: "" });
}

/** The terminal's right-click actions: Add Output to Context, Fix Command, Explain Command. */
export function registerTerminalActions(session: ChatSession, logger: Logger): vscode.Disposable {
  const outputs = new TerminalOutputs(logger);
  const commands = (Object.keys(TERMINAL_COMMANDS) as TerminalAction[]).map((action) =>
    vscode.commands.registerCommand(TERMINAL_COMMANDS[action], async (arg?: unknown) => {
      const content = await terminalContent(action, arg, outputs, logger);
      if (content === undefined) {
        void vscode.window.showInformationMessage(l10n.t("Kiln: select some text in the terminal first (or run a command in a terminal with shell integration)."));
        return;
      }
      await askChat(session, terminalPrompt(action, content), action === "addToContext" ? "input" : "task");
    }),
  );
  return vscode.Disposable.from(outputs, ...commands);
}
