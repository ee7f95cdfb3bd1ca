import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import type { CommandSandbox } from "../../core/sandbox";
import { endOnExit, killGroupWhenThisProcessDies } from "../../core/process/childLifetime";
import { CommandPool, type CommandPoolOptions } from "./commandPool";
import type { LaunchedProcess, LaunchOptions, ProcessExit, ProcessLauncher } from "../../core/ports/terminal";
import { cleanEnv } from "../../core/process/commandEnv";

const WINDOWS = process.platform === "win32";
/** After SIGTERM, how long a process group gets before SIGKILL. */
const TERM_GRACE_MS = 2_000;
/**
 * After the shell exits, how long to wait for the pipes to close. A command that starts a server
 * with `&` leaves it holding stdout: the command still counts as done, and later output is drained.
 */
const CLOSE_GRACE_MS = 300;

function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (WINDOWS) {
      // taskkill /T takes the children cmd.exe started; Windows has no process groups to signal.
      spawn("taskkill", ["/pid", String(child.pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on("error", () => child.kill());
    } else {
      // Negative pid: the whole process group, which `detached` made the child the leader of.
      process.kill(-child.pid, signal);
    }
  } catch (err) {
    // ESRCH: the group is already gone, which is what we wanted. Otherwise (EPERM) at least end the shell.
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") child.kill(signal);
  }
}

export interface NodeLauncherOptions {
  /** The environment commands start from; this process's, without Kiln's keys, when absent. */
  baseEnv?: Record<string, string | undefined>;
  /** Asked at each launch: a sandbox to run the command in, or undefined to run it as it is. */
  sandbox?: () => CommandSandbox | undefined;
}

/**
 * Runs commands as child processes through the system shell (`/bin/sh -c`, `cmd.exe /d /s /c`), in
 * their own process group so a cancel or stop ends everything they started. stdin is closed: a
 * command that waits for input gets end-of-file instead of hanging until its timeout.
 */
export class NodeProcessLauncher implements ProcessLauncher {
  private readonly env: Record<string, string>;

  constructor(private readonly options: NodeLauncherOptions = {}) {
    this.env = cleanEnv(options.baseEnv ?? process.env);
  }

  async launch(command: string, options: LaunchOptions): Promise<LaunchedProcess> {
    return launchChild(command, options, this.env, this.options.sandbox?.());
  }
}

/** Runs `command` through the system shell, inside `sandbox` when one is given. */
export function launchChild(command: string, options: LaunchOptions, baseEnv: Record<string, string>, sandbox?: CommandSandbox): LaunchedProcess {
  const shell = WINDOWS ? (process.env.ComSpec ?? "cmd.exe") : "/bin/sh";
  const direct = { file: shell, args: WINDOWS ? ["/d", "/s", "/c", `"${command}"`] : ["-c", command] };
  const { file, args } = sandbox ? sandbox.wrap(command, options.cwd) : direct;
  // The extra variables could name a key again; they come from Kiln's code, but check anyway.
  const env = cleanEnv({ ...baseEnv, ...options.env });
  const child = spawn(file, args, { cwd: options.cwd, env, detached: !WINDOWS, stdio: ["ignore", "pipe", "pipe"], windowsHide: true, windowsVerbatimArguments: WINDOWS });
  // No command outlives Kiln: its whole group is ended when Kiln exits, and on POSIX even when Kiln is
  // killed outright (a killed CLI once left a command running for good).
  const forgetOnExit = endOnExit(() => signalTree(child, "SIGKILL"));
  const releaseWatcher = !WINDOWS && child.pid !== undefined ? killGroupWhenThisProcessDies(child.pid) : () => undefined;
  // A command left in the background must not keep the CLI alive after the task ends (the exit hook
  // then ends it); while a tool waits on the command, the wait's own timer keeps the process up.
  child.unref();
  for (const pipe of [child.stdout, child.stderr]) (pipe as Partial<Socket> | null)?.unref?.();
  let delivering = true;
  const deliver = (data: string) => {
    if (delivering) options.onOutput(data);
  };
  child.stdout?.setEncoding("utf8").on("data", deliver);
  child.stderr?.setEncoding("utf8").on("data", deliver);

  const exited = new Promise<ProcessExit>((resolve) => {
    const finish = (exit: ProcessExit) => {
      forgetOnExit();
      releaseWatcher();
      delivering = false;
      resolve(exit);
    };
    child.once("error", (err) => {
      deliver(`${err.message}\n`);
      finish({});
    });
    child.once("exit", (code, signal) => {
      const exit: ProcessExit = { exitCode: code ?? undefined, signal: signal ?? undefined };
      const grace = setTimeout(() => finish(exit), CLOSE_GRACE_MS);
      child.once("close", () => {
        clearTimeout(grace);
        finish(exit);
      });
    });
  });

  let killed = false;
  return {
    via: "child process",
    ...(sandbox && { sandbox: sandbox.description }),
    exited,
    kill() {
      if (killed) return;
      killed = true;
      signalTree(child, "SIGTERM");
      // Runs even after the shell is gone: a grandchild that ignores SIGTERM is still in the group.
      setTimeout(() => signalTree(child, "SIGKILL"), TERM_GRACE_MS).unref();
    },
  };
}

/** The Terminal port for a Node host (the CLI): child processes, ids and background output. */
export function createNodeTerminal(options: NodeLauncherOptions & CommandPoolOptions = {}): CommandPool {
  return new CommandPool(new NodeProcessLauncher(options), options);
}
