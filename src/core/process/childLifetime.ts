/**
 * Child processes that must not outlive Kiln: a search blocked on a FIFO, or a command, once left
 * behind by a killed CLI, ran on for good.
 */
import { spawn, spawnSync } from "node:child_process";
import type { Socket } from "node:net";

/** util-linux's setpriv, where it can set the parent-death signal; null where it cannot. */
let setpriv: string | null | undefined;

function pdeathsigLauncher(): string | undefined {
  if (setpriv === undefined) {
    setpriv = null;
    if (process.platform === "linux") {
      for (const candidate of ["/usr/bin/setpriv", "/bin/setpriv"]) {
        // Older util-linux (before 2.33) has setpriv without --pdeathsig: tried once, not assumed.
        if (spawnSync(candidate, ["--pdeathsig", "KILL", "--", "true"], { stdio: "ignore", timeout: 5_000 }).status === 0) {
          setpriv = candidate;
          break;
        }
      }
    }
  }
  return setpriv ?? undefined;
}

/**
 * The command line that starts `file` so that the kernel kills it when this process dies, however
 * it dies — SIGKILL included — through `setpriv --pdeathsig KILL`, which sets the signal and then
 * becomes `file` (same pid). Elsewhere (macOS, Windows, no setpriv) `file` as it is: endOnExit and
 * the CLI's signal handlers end it then. The signal reaches only `file`, not processes it starts
 * (see killGroupWhenThisProcessDies for those).
 */
export function diesWithThisProcess(file: string, args: readonly string[]): { file: string; args: string[] } {
  const launcher = pdeathsigLauncher();
  return launcher ? { file: launcher, args: ["--pdeathsig", "KILL", "--", file, ...args] } : { file, args: [...args] };
}

const liveKills = new Set<() => void>();
let exitHooked = false;

/**
 * Runs `kill` when this process exits (also after Ctrl+C or SIGTERM, which the CLI turns into a
 * clean exit), unless the returned function was called first: when the child ended on its own.
 */
export function endOnExit(kill: () => void): () => void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const end of liveKills) end();
    });
  }
  liveKills.add(kill);
  return () => liveKills.delete(kill);
}

/**
 * Kills process group `group` when this process dies without ending it first, SIGKILL included: a
 * small shell of its own session waits on a pipe from this process, which the kernel closes however
 * this process ends, and end-of-file there kills the group. (setpriv's signal would reach only the
 * group's shell, not what the shell started.) POSIX only. Returns the call that lets the watcher go
 * once the group is done.
 */
export function killGroupWhenThisProcessDies(group: number): () => void {
  const watcher = spawn("/bin/sh", ["-c", `read -r _ || kill -s KILL -- -${group} 2>/dev/null`], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  watcher.on("error", () => undefined);
  // EPIPE where the watcher is already gone.
  watcher.stdin?.on("error", () => undefined);
  // Neither the watcher nor its pipe keeps this process alive.
  watcher.unref();
  (watcher.stdin as Partial<Socket> | null)?.unref?.();
  return () => watcher.stdin?.end("done\n");
}
