import { isAbsolute, relative, resolve } from "node:path";
import { realTargetSync } from "../workspace/realPath";

export interface ResolvedPath {
  absolute: string;
  /** As shown to the model and the user: relative to the workspace when inside it. */
  display: string;
  outsideWorkspace: boolean;
  /**
   * Where the path leads once links are followed (resolveRealPath sets it), under the workspace root
   * as the caller names it when inside: `env_link -> .env` gives `.env`. Ignore and protection rules
   * are checked on it as well as on the path as given, so no link spells its way past them.
   */
  real?: { absolute: string; display: string };
}

export function resolvePath(cwd: string, path: string): ResolvedPath {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  const outsideWorkspace = rel === ".." || rel.startsWith(`..${"/"}`) || rel.startsWith("..\\") || isAbsolute(rel);
  return { absolute, display: outsideWorkspace ? absolute : rel === "" ? "." : rel.split("\\").join("/"), outsideWorkspace };
}

/**
 * Follows symbolic links: a link inside the workspace that points outside it counts as outside, and
 * `real` says where the path leads. The part of the path that does not exist yet (a file about to be
 * created) is taken as written. The displayed path stays as given.
 */
export async function resolveRealPath(cwd: string, path: string): Promise<ResolvedPath> {
  const given = resolvePath(cwd, path);
  if (given.outsideWorkspace) return given;
  const target = realTargetSync(given.absolute);
  // A workspace folder that is gone resolves to itself: the comparison is then against the path as given.
  const inRealRoot = resolvePath(realTargetSync(cwd), target);
  if (inRealRoot.outsideWorkspace) return { absolute: given.absolute, display: `${given.display} (a link to ${target})`, outsideWorkspace: true, real: { absolute: target, display: target } };
  const real = resolvePath(cwd, inRealRoot.display);
  return { ...given, real: { absolute: real.absolute, display: real.display } };
}
