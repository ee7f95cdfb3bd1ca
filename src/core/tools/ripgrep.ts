import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { diesWithThisProcess, endOnExit } from "../process/childLifetime";
import { ensureExecutable, findAsset } from "./bundledAssets";

const BINARY = process.platform === "win32" ? "rg.exe" : "rg";

let cachedPath: string | undefined;

/** The rg binary: dist/bin/rg beside the bundle, else @vscode/ripgrep's platform package. */
export function ripgrepPath(): string | undefined {
  if (cachedPath) return cachedPath;
  const found = findAsset(`bin/${BINARY}`, `@vscode/ripgrep-${process.platform}-${process.arch}/bin/${BINARY}`);
  if (found && ensureExecutable(found)) cachedPath = found;
  return cachedPath;
}

/** One line of `rg --json` output, the kinds we use. */
export type RgMessage =
  { type: "begin" | "end"; data: { path: RgText } } | { type: "match" | "context"; data: { path: RgText; lines: RgText; line_number: number | null } } | { type: "summary"; data: unknown };

export type RgText = { text: string } | { bytes: string };

export function rgText(value: RgText): string {
  return "text" in value ? value.text : Buffer.from(value.bytes, "base64").toString("utf8");
}

export interface RgRun {
  /** rg's exit code: 0 matches, 1 none, 2 an error (possibly alongside results); null when stopped. */
  code: number | null;
  stderr: string;
  /** Stopped by `onMessage` returning false or by the signal, before rg finished. */
  stopped: boolean;
  /** Stopped because rg waited to open a FIFO (see waitsOnFifo), with what it had found by then. */
  stuckOnFifo: boolean;
}

/** How often rg is checked for a FIFO it waits on, and how many checks in a row make it stuck. */
const FIFO_CHECK_MS = 500;
const FIFO_CHECKS = 2;

/**
 * rg skips FIFOs, devices and sockets as it walks, but it opens every .gitignore, .ignore and
 * .rgignore it meets to read its rules, and opening a FIFO waits until someone writes to it: forever.
 * On Linux the kernel says so: a thread's wchan is "wait_for_partner" (or "fifo_open" where the compiler
 * inlined it). Elsewhere this finds nothing.
 */
const FIFO_OPEN_WAIT = /^(?:wait_for_partner|fifo_open)$/;

function waitsOnFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => FIFO_OPEN_WAIT.test(readFileSync(`/proc/${pid}/task/${tid}/wchan`, "utf8").trim()));
  } catch {
    return false;
  }
}

/**
 * Runs `rg --json …` and hands each message over as it arrives; `onMessage` returns false to stop rg
 * (enough results), which keeps a search over a large tree from reading everything.
 */
export function runRipgrep(rg: string, args: readonly string[], options: { cwd: string; signal: AbortSignal; onMessage(message: RgMessage): boolean }): Promise<RgRun> {
  return new Promise((resolve, reject) => {
    // Killed with Kiln, however Kiln dies: a killed CLI once left rg waiting on a FIFO for good.
    const command = diesWithThisProcess(rg, ["--json", ...args]);
    const child = spawn(command.file, command.args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const forget = endOnExit(() => child.kill("SIGKILL"));
    let stopped = false;
    let stuckOnFifo = false;
    let pending = "";
    let stderr = "";
    let failure: Error | undefined;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill();
    };
    const onAbort = () => stop();
    options.signal.addEventListener("abort", onAbort, { once: true });
    let sightings = 0;
    const fifoWatch =
      process.platform === "linux" && child.pid !== undefined
        ? setInterval(() => {
            sightings = waitsOnFifo(child.pid!) ? sightings + 1 : 0;
            if (sightings < FIFO_CHECKS) return;
            stuckOnFifo = true;
            stop();
          }, FIFO_CHECK_MS)
        : undefined;
    if (options.signal.aborted) stop();
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let start = 0;
      for (let nl = pending.indexOf("\n", start); nl !== -1; nl = pending.indexOf("\n", start)) {
        const line = pending.slice(start, nl);
        start = nl + 1;
        if (line.length === 0) continue;
        let message: RgMessage;
        try {
          message = JSON.parse(line) as RgMessage;
        } catch (err) {
          // Thrown here it would escape the stream handler and take the whole process down.
          failure = new Error(`ripgrep wrote a line that is not JSON (${(err as Error).message}): ${line.slice(0, 120)}`);
          stop();
          break;
        }
        if (!options.onMessage(message)) {
          stop();
          break;
        }
      }
      pending = pending.slice(start);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    child.on("error", (err) => {
      forget();
      clearInterval(fifoWatch);
      options.signal.removeEventListener("abort", onAbort);
      reject(err);
    });
    child.on("close", (code) => {
      forget();
      clearInterval(fifoWatch);
      options.signal.removeEventListener("abort", onAbort);
      if (failure) reject(failure);
      else resolve({ code: stopped ? null : code, stderr: stderr.trim(), stopped, stuckOnFifo });
    });
  });
}
