import * as vscode from "vscode";
import type { Logger } from "../../../core/ports";
import { CommandPool, type CommandPoolOptions } from "../../../platform/node/commandPool";
import { launchChild } from "../../../platform/node/nodeTerminal";
import { commandLine, type CommandSandbox } from "../../../core/sandbox";
import type { LaunchedProcess, LaunchOptions, ProcessExit, ProcessLauncher } from "../../../core/ports/terminal";
import { cleanEnv, SECRET_ENV } from "../../../core/process/commandEnv";
import { hasChildProcesses } from "../../../platform/node/childProcesses";
import { watchCommandEnd, type CommandEndTiming } from "./commandEnd";

export const TERMINAL_NAME = "Kiln";
const ICON = new vscode.ThemeIcon("flame");
/** How long a new terminal gets to report shell integration before Kiln stops waiting for it. */
const INTEGRATION_WAIT_MS = 3_000;
/** After ^C, how long a command in a shell-integration terminal gets before its terminal is closed. */
const INTERRUPT_GRACE_MS = 3_000;
/** After the end event, how long the output stream gets to deliver its last data. */
const STREAM_GRACE_MS = 1_000;
/** Output kept for a pseudoterminal that has not opened yet. */
const PENDING_MAX_CHARS = 1_000_000;

export interface VsCodeLauncherOptions {
  logger?: Logger;
  /** false: always the pseudoterminal path (a setting, or a test of that path). */
  shellIntegration?: boolean;
  integrationWaitMs?: number;
  /** Asked at each launch: the sandbox to run the command in (kiln.commands.sandbox), or undefined. */
  sandbox?: (cwd: string) => CommandSandbox | undefined;
  /**
   * Where a shell-integration command's end and output come from: VS Code's, unless a test
   * withholds the end event or the stream's end to show the other signals still end the command.
   */
  shellSignals?: ShellSignals;
}

export interface ShellSignals {
  onEnd: vscode.Event<vscode.TerminalShellExecutionEndEvent>;
  read(execution: vscode.TerminalShellExecution): AsyncIterable<string>;
  timing?: CommandEndTiming;
}

const VSCODE_SIGNALS: ShellSignals = {
  onEnd: (listener, thisArg, disposables) => vscode.window.onDidEndTerminalShellExecution(listener, thisArg, disposables),
  read: (execution) => execution.read(),
};

/** Shells that read a single-quoted bwrap line as written; fish, PowerShell and cmd quote otherwise. */
const POSIX_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]);

function posixShell(): string | undefined {
  const shell = vscode.env.shell;
  return shell && POSIX_SHELLS.has(shell.slice(shell.lastIndexOf("/") + 1)) ? shell : undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Variables a terminal's shell must not inherit (null removes one): Kiln's keys, as cleanEnv drops them. */
function secretsRemoved(extra: Record<string, string> | undefined): Record<string, string | null> {
  const removed: Record<string, string | null> = {};
  for (const name of Object.keys(process.env)) if (SECRET_ENV.test(name)) removed[name] = null;
  return { ...removed, ...cleanEnv(extra ?? {}) };
}

/**
 * Runs commands where the user sees them, in terminals named "Kiln".
 * - With shell integration (VS Code's marks around each command) the command runs in a real shell
 *   terminal; its output comes from `execution.read()` and its exit code from the end event.
 * - Without it within a few seconds (a shell VS Code cannot hook, integration turned off), the
 *   command runs as a child process here in the extension host, and a Kiln pseudoterminal shows its
 *   output. Peers that only waited for integration lost the output of such commands entirely.
 */
export class VsCodeLauncher implements ProcessLauncher, vscode.Disposable {
  /** Shell-integration terminals Kiln made that have no command running, for reuse. */
  private readonly idle = new Set<vscode.Terminal>();
  private readonly ptys = new Set<PtyTerminal>();
  private integrationFailed = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: VsCodeLauncherOptions = {}) {
    this.disposables.push(
      vscode.window.onDidCloseTerminal((t) => {
        this.idle.delete(t);
        for (const pty of this.ptys) if (pty.terminal === t) this.ptys.delete(pty);
      }),
    );
  }

  async launch(command: string, options: LaunchOptions): Promise<LaunchedProcess> {
    const enabled = this.options.shellIntegration !== false && vscode.workspace.getConfiguration("terminal.integrated").get<boolean>("shellIntegration.enabled", true);
    const sandbox = this.options.sandbox?.(options.cwd);
    // Sandboxed, the terminal's shell runs one bwrap line (ending in the command as written), which
    // only a POSIX shell reads as meant; under another shell the command runs in the pseudoterminal.
    const shell = sandbox ? posixShell() : undefined;
    if (enabled && !this.integrationFailed && (!sandbox || shell)) {
      const terminal = await this.integratedTerminal(options);
      if (terminal && sandbox) return this.runIntegrated(terminal, commandLine(sandbox.wrap(command, options.cwd, shell)), options, sandbox.description);
      if (terminal) return this.runIntegrated(terminal, command, options);
    }
    return this.runInPty(command, options, sandbox);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    for (const t of this.idle) t.dispose();
    for (const pty of this.ptys) pty.terminal.dispose();
    this.idle.clear();
    this.ptys.clear();
  }

  /** An idle Kiln terminal in `cwd`, or a new one once its shell integration is up; undefined if it never comes. */
  private async integratedTerminal(options: LaunchOptions): Promise<vscode.Terminal | undefined> {
    if (!options.env) {
      for (const t of this.idle) {
        if (t.exitStatus === undefined && t.shellIntegration?.cwd?.fsPath === options.cwd) {
          this.idle.delete(t);
          return t;
        }
      }
    }
    const terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd: options.cwd, env: secretsRemoved(options.env), iconPath: ICON });
    terminal.show(true);
    if (terminal.shellIntegration) return terminal;
    const waitMs = this.options.integrationWaitMs ?? INTEGRATION_WAIT_MS;
    let listener: vscode.Disposable | undefined;
    const ready = await Promise.race([
      new Promise<boolean>((resolve) => (listener = vscode.window.onDidChangeTerminalShellIntegration((e) => e.terminal === terminal && resolve(true)))),
      delay(waitMs).then(() => false),
    ]);
    listener?.dispose();
    if (ready && terminal.shellIntegration) return terminal;
    // Its shell never reported in: running the command there would capture nothing. Do not wait again.
    this.integrationFailed = true;
    this.options.logger?.info(`terminal shell integration did not start within ${waitMs / 1000} s; commands run in Kiln's own pseudoterminal`);
    terminal.dispose();
    return undefined;
  }

  private runIntegrated(terminal: vscode.Terminal, command: string, options: LaunchOptions, sandbox?: string): LaunchedProcess {
    terminal.show(true);
    const signals = this.options.shellSignals ?? VSCODE_SIGNALS;
    const execution = terminal.shellIntegration!.executeCommand(command);
    // read() only sees data written after its first call: call it at once.
    const stream = signals.read(execution);
    let lastOutputAt = Date.now();
    const reading = (async () => {
      try {
        for await (const data of stream) {
          lastOutputAt = Date.now();
          options.onOutput(data);
        }
      } catch (err) {
        this.options.logger?.warn(`reading the output of "${command}" failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    })();
    const watch = watchCommandEnd({
      terminal,
      onEnd: signals.onEnd,
      outputEnded: reading,
      lastOutputAt: () => lastOutputAt,
      hasChildren: hasChildProcesses,
      ...(signals.timing && { timing: signals.timing }),
    });
    const exited = (async (): Promise<ProcessExit> => {
      const ended = await watch.ended;
      let exit = ended.exit;
      await Promise.race([reading, delay(STREAM_GRACE_MS)]);
      // An `exit` in the command ends the execution without a code; the shell's own code follows.
      if (exit.exitCode === undefined && terminal.exitStatus === undefined) await delay(200);
      if (exit.exitCode === undefined && terminal.exitStatus?.code !== undefined) exit = { exitCode: terminal.exitStatus.code };
      if (ended.by === "output ended" || ended.by === "shell idle") {
        // Its shell never said the command ended: the terminal stays for the user, not for the next command.
        this.options.logger?.info(`"${command}" returned without VS Code's end event (seen by: ${ended.by}); its terminal is not reused`);
      } else if (terminal.exitStatus === undefined) {
        this.idle.add(terminal);
      }
      return exit;
    })();
    let interrupted = false;
    return {
      via: "shell integration",
      ...(sandbox && { sandbox }),
      exited,
      kill: () => {
        if (interrupted) return;
        interrupted = true;
        terminal.sendText("\x03", false);
        // A command that ignores ^C goes with its terminal: closing it hangs up the shell's jobs.
        void Promise.race([exited.then(() => true), delay(INTERRUPT_GRACE_MS).then(() => false)]).then((ended) => ended || terminal.dispose());
      },
    };
  }

  private runInPty(command: string, options: LaunchOptions, sandbox?: CommandSandbox): LaunchedProcess {
    let pty = [...this.ptys].find((p) => !p.busy);
    if (!pty) {
      pty = new PtyTerminal();
      this.ptys.add(pty);
    }
    return pty.run(command, options, sandbox);
  }
}

/**
 * A Kiln terminal that only displays: the command runs as a child process in the extension host,
 * its output is echoed here, ^C or closing the terminal kills it. Reused once its command ended.
 */
class PtyTerminal {
  readonly terminal: vscode.Terminal;
  busy = false;
  private readonly write = new vscode.EventEmitter<string>();
  private opened = false;
  /** Writes before the terminal opens are lost, so they wait here. */
  private pending: string[] = [];
  private pendingChars = 0;
  private current?: LaunchedProcess;

  constructor() {
    const kill = () => this.current?.kill();
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      open: () => {
        this.opened = true;
        for (const text of this.pending) this.write.fire(text);
        this.pending = [];
        this.pendingChars = 0;
      },
      close: () => {
        kill();
        this.write.dispose();
      },
      handleInput: (data) => {
        if (data === "\x03") kill();
      },
    };
    this.terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, pty, iconPath: ICON });
  }

  run(command: string, options: LaunchOptions, sandbox?: CommandSandbox): LaunchedProcess {
    this.busy = true;
    this.terminal.show(true);
    const where = sandbox ? " \x1b[2m(in the sandbox)\x1b[0m" : "";
    this.show(`\x1b[1m${options.cwd}$ ${command}\x1b[0m${where}\r\n`);
    const onOutput = (chunk: string) => {
      this.show(chunk.replace(/\r?\n/g, "\r\n"));
      options.onOutput(chunk);
    };
    const child = launchChild(command, { ...options, onOutput }, cleanEnv(process.env), sandbox);
    this.current = child;
    void child.exited.then((exit) => {
      const how = exit.exitCode !== undefined ? `exit code ${exit.exitCode}` : exit.signal ? `ended by ${exit.signal}` : "ended";
      this.show(`\r\n\x1b[2m[${how}]\x1b[0m\r\n\r\n`);
      this.current = undefined;
      this.busy = false;
    });
    return { via: "pseudoterminal", ...(child.sandbox && { sandbox: child.sandbox }), exited: child.exited, kill: () => child.kill() };
  }

  private show(text: string): void {
    if (this.opened) return this.write.fire(text);
    this.pending.push(text);
    this.pendingChars += text.length;
    // A terminal nobody opens must not hold a chatty command's output forever: keep the recent part.
    while (this.pendingChars > PENDING_MAX_CHARS && this.pending.length > 1) this.pendingChars -= this.pending.shift()!.length;
  }
}

/** The Terminal port of the extension: one per task, over the window's shared Kiln terminals. */
export function createVsCodeTerminal(launcher: ProcessLauncher, options: CommandPoolOptions = {}): CommandPool {
  return new CommandPool(launcher, options);
}
