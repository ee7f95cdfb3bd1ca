import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { CommandState, CommandStatus, LaunchedProcess, ProcessExit, ProcessLauncher, ReadOptions, RunOptions, Terminal } from "../../core/ports/terminal";
import { OutputBuffer } from "../../core/process/outputBuffer";
import { PlainTextDecoder } from "../../core/process/plainText";

export interface CommandPoolOptions {
  /**
   * The folder for a command's whole output once it grows past `logAfterChars` (none: memory only).
   * Called at the first such command, so a task that never needs one creates no folder.
   */
  logDir?(): string;
  logAfterChars?: number;
  /** Memory kept per command: the first `keepHeadChars` and the last `keepTailChars`. */
  keepHeadChars?: number;
  keepTailChars?: number;
}

const KILL_WAIT_MS = 5_000;

class Command {
  /** Set right after launch; output may arrive before launch returns, so the entry exists first. */
  process!: LaunchedProcess;
  /** Settles once the exit is recorded and the log flushed. */
  done!: Promise<void>;
  readonly decoder = new PlainTextDecoder();
  /** Characters already handed to the caller. */
  seen = 0;
  exit?: ProcessExit;
  killed = false;
  log?: WriteStream;
  logFile?: string;
  readonly listeners = new Set<(chunk: string) => void>();
  constructor(
    readonly id: string,
    readonly command: string,
    readonly output: OutputBuffer,
  ) {}
}

/**
 * The Terminal port on top of any launcher: ids, timeouts, background commands and their output.
 * A command that outlives its timeout keeps running and keeps filling its buffer; the model reads
 * what came since with `read(id)` (the read_command_output tool).
 */
export class CommandPool implements Terminal {
  private readonly commands = new Map<string, Command>();
  private next = 0;
  private disposed = false;
  private logFolder?: string;

  constructor(
    private readonly launcher: ProcessLauncher,
    private readonly options: CommandPoolOptions = {},
  ) {}

  async run(command: string, options: RunOptions): Promise<CommandStatus> {
    if (this.disposed) throw new Error("the terminal was closed");
    if (options.signal?.aborted) throw new Error("the task was cancelled before the command started");
    const id = String(++this.next);
    const entry = new Command(id, command, new OutputBuffer(this.options.keepHeadChars ?? 1_000_000, this.options.keepTailChars ?? 3_000_000));
    if (options.onOutput) entry.listeners.add(options.onOutput);
    entry.process = await this.launcher.launch(command, { cwd: options.cwd, env: options.env, onOutput: (chunk) => this.append(entry, entry.decoder.push(chunk)) });
    this.commands.set(id, entry);
    entry.done = entry.process.exited.then(async (exit) => {
      this.append(entry, entry.decoder.end());
      // The log is complete on disk before anyone hears the command ended.
      const log = entry.log;
      if (log) await new Promise<void>((resolve) => log.end(resolve));
      entry.exit = exit;
      entry.listeners.clear();
    });
    const onAbort = () => this.kill(entry);
    const ending = [options.signal, options.stop].filter((s) => s !== undefined);
    for (const signal of ending) signal.addEventListener("abort", onAbort, { once: true });
    // Cancelled while the launcher was still starting it (waiting for a terminal, say).
    if (ending.some((s) => s.aborted)) onAbort();
    try {
      await this.settle(entry, options.timeoutMs, ...ending, ...(options.detach ? [options.detach] : []));
      // A cancelled or stopped command is waited for, so the model never hears "still running".
      if (ending.some((s) => s.aborted)) await this.settle(entry, KILL_WAIT_MS);
    } finally {
      for (const signal of ending) signal.removeEventListener("abort", onAbort);
      entry.listeners.delete(options.onOutput as (chunk: string) => void);
    }
    return this.status(entry);
  }

  async read(id: string, options: ReadOptions = {}): Promise<CommandStatus | undefined> {
    const entry = this.commands.get(id);
    if (!entry) return undefined;
    const signals = options.signal ? [options.signal] : [];
    if (options.stop) {
      this.kill(entry);
      await this.settle(entry, KILL_WAIT_MS, ...signals);
    } else if (options.waitMs) {
      await this.settle(entry, options.waitMs, ...signals);
    }
    return this.status(entry);
  }

  fullOutput(id: string): string | undefined {
    return this.commands.get(id)?.output.since(0);
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.commands.values()) if (!entry.exit) this.kill(entry);
  }

  private append(entry: Command, text: string): void {
    if (text === "") return;
    entry.output.append(text);
    for (const listener of entry.listeners) listener(text);
    this.writeLog(entry, text);
  }

  /** The log starts only once the output is too long to show whole; it then holds all of it. */
  private writeLog(entry: Command, text: string): void {
    const { logDir, logAfterChars = 10_000 } = this.options;
    if (!logDir) return;
    if (!entry.log) {
      if (entry.output.total <= logAfterChars || entry.exit) return;
      try {
        this.logFolder ??= logDir();
        mkdirSync(this.logFolder, { recursive: true });
      } catch {
        // No log then: the output stays readable from memory, which is what the model pages through.
        return;
      }
      entry.logFile = join(this.logFolder, `command-${entry.id}.log`);
      entry.log = createWriteStream(entry.logFile);
      // Reported, not thrown: the output stays readable from memory if the disk write fails.
      entry.log.on("error", () => (entry.logFile = undefined));
      entry.log.write(entry.output.since(0));
      return;
    }
    entry.log.write(text);
  }

  private kill(entry: Command): void {
    if (entry.exit) return;
    entry.killed = true;
    entry.process.kill();
  }

  /** Waits for the exit, the time limit or an abort of any of the signals, whichever comes first. */
  private async settle(entry: Command, timeoutMs: number, ...signals: AbortSignal[]): Promise<void> {
    if (entry.exit || signals.some((s) => s.aborted)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      entry.done,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      new Promise<void>((resolve) => {
        onAbort = () => resolve();
        for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    for (const s of signals) if (onAbort) s.removeEventListener("abort", onAbort);
  }

  private status(entry: Command): CommandStatus {
    const state: CommandState = !entry.exit ? "running" : entry.killed ? "killed" : "exited";
    const output = entry.output.since(entry.seen);
    entry.seen = entry.output.total;
    return {
      id: entry.id,
      command: entry.command,
      via: entry.process.via,
      ...(entry.process.sandbox && { sandbox: entry.process.sandbox }),
      state,
      exitCode: entry.exit?.exitCode,
      signal: entry.exit?.signal,
      output,
      totalChars: entry.output.total,
      logFile: entry.logFile,
    };
  }
}
