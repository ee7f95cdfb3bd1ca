import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

export interface ResolvedPath {
  absolute: string;
  /** As shown to the model and the user: relative to the workspace when inside it. */
  display: string;
  outsideWorkspace: boolean;
}

export function resolvePath(cwd: string, path: string): ResolvedPath {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  const outsideWorkspace = rel === ".." || rel.startsWith(`..${"/"}`) || rel.startsWith("..\\") || isAbsolute(rel);
  return { absolute, display: outsideWorkspace ? absolute : rel === "" ? "." : rel.split("\\").join("/"), outsideWorkspace };
}

/**
 * Follows symbolic links: a link inside the workspace that points outside it counts as outside.
 * The part of the path that does not exist yet (a file about to be created) is taken as written.
 */
export async function resolveRealPath(cwd: string, path: string): Promise<ResolvedPath> {
  const given = resolvePath(cwd, path);
  if (given.outsideWorkspace) return given;
  const realRoot = await realpathOrSelf(cwd);
  let existing = given.absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      const target = rest.length ? join(real, ...rest.reverse()) : real;
      const resolved = resolvePath(realRoot, target);
      return resolved.outsideWorkspace ? { absolute: given.absolute, display: `${given.display} (a link to ${target})`, outsideWorkspace: true } : given;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return given;
      const parent = dirname(existing);
      if (parent === existing) return given;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

async function realpathOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // A workspace folder that is gone: compare against the path as given.
    return path;
  }
}
