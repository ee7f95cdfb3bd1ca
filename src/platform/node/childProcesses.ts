import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/**
 * Whether process `pid` has children now: true, false, or undefined where this platform cannot
 * tell. Linux reads /proc (no process spawned); macOS and the BSDs ask `pgrep -P`.
 */
export async function hasChildProcesses(pid: number): Promise<boolean | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === "linux") {
    try {
      const threads = await readdir(`/proc/${pid}/task`);
      for (const thread of threads) {
        const children = await readFile(`/proc/${pid}/task/${thread}/children`, "utf8").catch(() => "");
        if (children.trim() !== "") return true;
      }
      return false;
    } catch {
      return undefined;
    }
  }
  if (process.platform === "win32") return undefined;
  return new Promise((resolve) => {
    // pgrep exits 0 when it finds one, 1 when none, more on an error.
    execFile("pgrep", ["-P", String(pid)], { timeout: 2_000 }, (err) => {
      const code = (err as (Error & { code?: number | string }) | null)?.code;
      resolve(err === null ? true : code === 1 ? false : undefined);
    });
  });
}
