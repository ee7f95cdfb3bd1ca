import * as vscode from "vscode";
import type { ProcessExit } from "../../../core/ports/terminal";

/** What told Kiln that a command in a shell-integration terminal returned. */
export type EndSignal = "end event" | "terminal closed" | "output ended" | "shell idle";

export interface CommandEndTiming {
  /** After the output stream ends, how long the end event (which has the exit code) gets to come first. */
  outputGraceMs: number;
  /** How often the shell's processes are looked at. */
  pollMs: number;
  /** How long the command must have printed nothing before an idle shell counts as returned. */
  quietMs: number;
}

export const COMMAND_END_TIMING: CommandEndTiming = { outputGraceMs: 1_500, pollMs: 1_000, quietMs: 5_000 };

export interface CommandEndSources {
  terminal: vscode.Terminal;
  /** VS Code's end events (a test may withhold them). */
  onEnd: vscode.Event<vscode.TerminalShellExecutionEndEvent>;
  /** Settles once the execution's output stream has ended. */
  outputEnded: Promise<void>;
  /** When output last arrived (Date.now()), or when the command started. */
  lastOutputAt(): number;
  /** Whether a process has children; undefined where the platform cannot tell. */
  hasChildren(pid: number): Promise<boolean | undefined>;
  timing?: CommandEndTiming;
}

export interface CommandEnd {
  exit: ProcessExit;
  by: EndSignal;
}

/**
 * Waits for a command run through shell integration to return, by whichever signal comes first.
 * VS Code's end event alone is not enough: in code-server about one run in seven never got it and
 * the command stayed "running" for good. So also:
 * - an end event for any execution in this terminal (VS Code makes a new execution object when the
 *   shell reports a command line other than the one sent, and the terminal runs one command at a time);
 * - the end of the execution's output stream;
 * - the shell itself: no child process, and no output for a while.
 * Only the end event and a closed terminal know the exit code.
 */
export function watchCommandEnd(sources: CommandEndSources): { ended: Promise<CommandEnd>; dispose(): void } {
  const timing = sources.timing ?? COMMAND_END_TIMING;
  const { terminal } = sources;
  const disposables: vscode.Disposable[] = [];
  let settled = false;
  let resolveEnd!: (end: CommandEnd) => void;
  const ended = new Promise<CommandEnd>((resolve) => (resolveEnd = resolve));
  const finish = (end: CommandEnd) => {
    if (settled) return;
    settled = true;
    dispose();
    resolveEnd(end);
  };
  const dispose = () => {
    for (const d of disposables.splice(0)) d.dispose();
  };

  disposables.push(
    sources.onEnd((e) => e.terminal === terminal && finish({ exit: { exitCode: e.exitCode }, by: "end event" })),
    // `exit 3` ends the shell itself: its exit status is the command's.
    vscode.window.onDidCloseTerminal((t) => t === terminal && finish({ exit: { exitCode: t.exitStatus?.code }, by: "terminal closed" })),
  );
  void sources.outputEnded.then(() => {
    const timer = setTimeout(() => finish({ exit: {}, by: "output ended" }), timing.outputGraceMs);
    disposables.push({ dispose: () => clearTimeout(timer) });
  });
  void watchShell();
  return { ended, dispose };

  async function watchShell(): Promise<void> {
    const pid = await terminal.processId;
    if (pid === undefined) return;
    let idleLooks = 0;
    let wake: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    disposables.push({ dispose: () => (clearTimeout(timer), wake?.()) });
    while (!settled) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, timing.pollMs);
      });
      if (settled) return;
      const quiet = Date.now() - sources.lastOutputAt() >= timing.quietMs;
      const busy = quiet ? await sources.hasChildren(pid) : true;
      if (busy === undefined) return;
      // Twice in a row: between a command's own steps the shell is briefly without a child.
      idleLooks = busy ? 0 : idleLooks + 1;
      if (idleLooks >= 2) finish({ exit: {}, by: "shell idle" });
    }
  }
}
