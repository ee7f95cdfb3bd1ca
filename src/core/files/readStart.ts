import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/**
 * Reads at most `max` bytes of a file, synchronously (rules and skills are read while the system
 * prompt is built); `size` is the file's own, to say whether and how much was cut.
 */
export function readStart(path: string, max: number): { text: string; size: number } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, max));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, read).toString("utf8"), size };
  } finally {
    closeSync(fd);
  }
}
