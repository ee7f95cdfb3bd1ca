import { readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** More links than this in a row is a loop (the kernel's own limit on Linux is 40). */
const MAX_LINKS = 40;

/**
 * Where `path` leads once every link on the way is followed: the real path of its deepest existing
 * part, plus the rest as written (a file about to be created). A dangling link is followed to its
 * target too, since writing through it would create the target. Synchronous because ignore checks
 * are (they run once per entry in listings); each call is a few system calls.
 */
export function realTargetSync(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  let links = 0;
  for (;;) {
    try {
      const real = realpathSync.native(existing);
      return rest.length ? join(real, ...[...rest].reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A loop or an unreadable folder: nothing can be written through it either; judge it as written.
      if (code !== "ENOENT" && code !== "ENOTDIR") return rest.length ? join(existing, ...[...rest].reverse()) : existing;
    }
    const link = linkTarget(existing);
    if (link !== undefined && links++ < MAX_LINKS) {
      existing = resolve(dirname(existing), link);
      continue;
    }
    const parent = dirname(existing);
    if (parent === existing) return rest.length ? join(existing, ...[...rest].reverse()) : existing;
    rest.push(basename(existing));
    existing = parent;
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    // Not a link (EINVAL), or not there at all.
    return undefined;
  }
}
