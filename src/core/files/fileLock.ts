import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lock } from "proper-lockfile";

/**
 * One writer at a time for a file, across Kiln's processes (two `kiln run`s, the CLI beside an editor
 * window): re-reading a file, checking it is still what an edit was made from and renaming the new
 * content over it happen as one step, so an edit made meanwhile by another task is never overwritten.
 *
 * The lock is a folder in the temp directory named after the path, not beside the file: it must not
 * show in the user's tree or git status, and the file's folder may not be writable by a lock's rules.
 * A process killed while holding it leaves a lock that goes stale after STALE_MS.
 */
const STALE_MS = 10_000;

/** Waiters in this process, by path: proper-lockfile would make them poll the lock folder instead. */
const inProcess = new Map<string, Promise<unknown>>();

function lockFolder(): string {
  const user = typeof process.getuid === "function" ? String(process.getuid()) : "user";
  return join(tmpdir(), `kiln-file-locks-${user}`);
}

export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const key = process.platform === "win32" || process.platform === "darwin" ? path.toLowerCase() : path;
  const previous = inProcess.get(key) ?? Promise.resolve();
  const run = async (): Promise<T> => {
    const folder = lockFolder();
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const release = await lock(key, {
      realpath: false,
      lockfilePath: join(folder, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.lock`),
      stale: STALE_MS,
      retries: { retries: 400, minTimeout: 5, maxTimeout: 100, factor: 1.3, randomize: true },
    });
    try {
      return await work();
    } finally {
      await release().catch(() => undefined);
    }
  };
  const result = previous.then(run, run);
  const settled = result.catch(() => undefined);
  inProcess.set(key, settled);
  void settled.then(() => {
    if (inProcess.get(key) === settled) inProcess.delete(key);
  });
  return result;
}
