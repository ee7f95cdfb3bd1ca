import { isAbsolute, relative, resolve } from "node:path";

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
