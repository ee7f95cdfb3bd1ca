import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Reading and writing the config files Kiln edits for the user (modes, MCP servers): whole or not
 * at all, one edit at a time.
 */

/** The file's text, or undefined when it does not exist. */
export async function readIfAny(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** Temp file + rename: a reader sees the old file or the new one, and a failed write leaves the old. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, "utf8");
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw new Error(`${path}: could not be written (${(err as NodeJS.ErrnoException).code ?? String(err)}); it is unchanged`);
  }
}

// One edit at a time: two quick clicks would otherwise both read the old file and one would be lost.
let queue: Promise<unknown> = Promise.resolve();
export function serially<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}
