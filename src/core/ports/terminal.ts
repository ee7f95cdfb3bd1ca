/**
 * Running shell commands. Two layers, so the bookkeeping is written once:
 * - `ProcessLauncher` is what a host implements: start one command somewhere (a child process, a
 *   VS Code terminal) and report its output and its end.
 * - `Terminal` is what the tools use: run with a timeout, leave a command running in the
 *   background, read its later output by id. `CommandPool` (commandPool.ts) builds one from a launcher.
 */

export interface LaunchOptions {
  cwd: string;
  /** Added to the host's base environment, which never holds Kiln's own keys (see cleanEnv). */
  env?: Record<string, string>;
  /** Each piece of output as it arrives: stdout and stderr together, in arrival order. */
  onOutput(chunk: string): void;
}

export interface ProcessExit {
  /** Undefined when the process ended by a signal, or when the host could not learn the code. */
  exitCode?: number;
  signal?: string;
}

export interface LaunchedProcess {
  /** How it runs, in words for the model and the tests: "child process", "shell integration", … */
  readonly via: string;
  /** Set when it runs in the command sandbox: what it could not reach, in words for the model. */
  readonly sandbox?: string;
  /** Settles once the process has ended and its output was delivered. Never rejects. */
  readonly exited: Promise<ProcessExit>;
  /** Ends the process and what it started (its process group); safe to call more than once. */
  kill(): void;
}

export interface ProcessLauncher {
  launch(command: string, options: LaunchOptions): Promise<LaunchedProcess>;
}

export interface RunOptions {
  cwd: string;
  /** After this long `run` returns with the command still running in the background. */
  timeoutMs: number;
  /** Stops the wait and kills the command (the task was cancelled). */
  signal?: AbortSignal;
  env?: Record<string, string>;
  /** Live output, for a host that shows it while the command runs. */
  onOutput?(chunk: string): void;
  /** Returns now, the command going on in the background (the user's Continue while running). */
  detach?: AbortSignal;
  /** Ends the command and returns once it has ended; the task goes on (the user's Stop). */
  stop?: AbortSignal;
}

export interface ReadOptions {
  /** Wait up to this long for the command to end before answering (0: answer at once). */
  waitMs?: number;
  signal?: AbortSignal;
  /** End the command, then answer. */
  stop?: boolean;
}

export type CommandState = "running" | "exited" | "killed";

/** Where a command stands, and the output the caller has not been given yet. */
export interface CommandStatus {
  /** Stable within the terminal; the model passes it to read_command_output. */
  id: string;
  command: string;
  via: string;
  /** Set when it ran in the command sandbox: what it could not reach, in words for the model. */
  sandbox?: string;
  state: CommandState;
  exitCode?: number;
  signal?: string;
  /** Output since the last status of this command was returned (all of it the first time). */
  output: string;
  /** Characters of output so far, all told. */
  totalChars: number;
  /** A file holding the whole output, written once it grew past what the model is shown. */
  logFile?: string;
}

export interface Terminal {
  /** Runs `command` until it ends, `timeoutMs` passes (it goes on in the background) or `signal` aborts (killed). */
  run(command: string, options: RunOptions): Promise<CommandStatus>;
  /** A command run earlier: its new output; undefined for an id this terminal does not know. */
  read(id: string, options?: ReadOptions): Promise<CommandStatus | undefined>;
  /** Everything a command printed so far (its middle dropped past a few MB; the log file has it all). */
  fullOutput(id: string): string | undefined;
  /** Kills every command still running. */
  dispose(): void;
}
