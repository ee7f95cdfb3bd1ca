import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { realTargetSync } from "./realPath";

/** What tools ask about a path before showing it to the model. */
export interface IgnoreRules {
  /** Left out of listings and searches: by a .gitignore (root or nested) or by .kilocodeignore. */
  isIgnored(absolutePath: string, isDirectory?: boolean): boolean;
  /** .kilocodeignore only: no tool may read, list, search or change the path. */
  isHiddenFromAgent(absolutePath: string, isDirectory?: boolean): boolean;
}

export const KILOCODE_IGNORE = ".kilocodeignore";
const GITIGNORE = ".gitignore";

interface LoadedRules {
  mtimeMs: number;
  size: number;
  ino: number;
  rules: Ignore;
}

/**
 * The workspace's ignore rules, read from disk on demand. Each rules file is stat'ed when a query
 * needs it and re-read when its mtime, size or inode changed, so edits (by the user or an atomic
 * rename) apply on the next call without a file watcher.
 */
export class WorkspaceIgnore implements IgnoreRules {
  private readonly loaded = new Map<string, LoadedRules>();

  constructor(readonly root: string) {}

  /** The .kilocodeignore file to hand to other programs (ripgrep), when there is one. */
  kilocodeIgnoreFile(): string | undefined {
    const file = join(this.root, KILOCODE_IGNORE);
    return this.rulesAt(file) ? file : undefined;
  }

  isHiddenFromAgent(absolutePath: string, isDirectory?: boolean): boolean {
    const rules = this.rulesAt(join(this.root, KILOCODE_IGNORE));
    if (!rules) return false;
    // `ignore` checks the parent folders itself: `secret/` hides secret/a/b.txt too.
    const segments = this.segmentsOf(absolutePath);
    if (segments && rules.ignores(asRulePath(segments, this.directoryFlag(absolutePath, isDirectory)))) return true;
    // What a link leads to is hidden however the link is named: `env_link -> .env` hides as .env does,
    // and so does anything under a linked folder (`cfg_link/mcp.json` with `cfg_link -> .kilocode`).
    const real = this.underRoot(realTargetSync(absolutePath));
    if (real === undefined || real === absolutePath) return false;
    const realSegments = this.segmentsOf(real);
    // The link's own type says nothing of its target's: the target is stat'ed for `folder/` rules.
    return realSegments !== undefined && rules.ignores(asRulePath(realSegments, this.directoryFlag(real, undefined)));
  }

  isIgnored(absolutePath: string, isDirectory?: boolean): boolean {
    return this.isGitIgnored(absolutePath, isDirectory) || this.isHiddenFromAgent(absolutePath, isDirectory);
  }

  /**
   * As git decides: a folder ignored anywhere above the path ignores it, and for each folder or file
   * on the way down the deepest .gitignore with a matching rule (ignore or `!` re-include) wins.
   */
  isGitIgnored(absolutePath: string, isDirectory?: boolean): boolean {
    const segments = this.segmentsOf(absolutePath);
    if (!segments) return false;
    const lastIsDirectory = this.directoryFlag(absolutePath, isDirectory);
    const rulesByDepth: (Ignore | undefined)[] = [];
    for (let depth = 0; depth < segments.length; depth++) {
      rulesByDepth.push(this.rulesAt(join(this.root, ...segments.slice(0, depth), GITIGNORE)));
    }
    for (let end = 1; end <= segments.length; end++) {
      const isDir = end < segments.length || lastIsDirectory;
      for (let depth = end - 1; depth >= 0; depth--) {
        const rules = rulesByDepth[depth];
        if (!rules) continue;
        const verdict = rules.test(asRulePath(segments.slice(depth, end), isDir));
        if (verdict.ignored) return true;
        if (verdict.unignored) break;
      }
    }
    return false;
  }

  /** A real path expressed under the root as given (which may itself be reached through a link); undefined outside it. */
  private underRoot(realPath: string): string | undefined {
    const rel = relative(realTargetSync(this.root), realPath);
    if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
    return join(this.root, rel);
  }

  /** Path segments below the root, or undefined for the root itself and paths outside it. */
  private segmentsOf(absolutePath: string): string[] | undefined {
    const rel = relative(this.root, absolutePath);
    if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
    return rel.split(sep).filter((s) => s !== "" && s !== ".");
  }

  private directoryFlag(absolutePath: string, isDirectory: boolean | undefined): boolean {
    if (isDirectory !== undefined) return isDirectory;
    return statSync(absolutePath, { throwIfNoEntry: false })?.isDirectory() ?? false;
  }

  private rulesAt(file: string): Ignore | undefined {
    let stat;
    try {
      stat = statSync(file, { throwIfNoEntry: false });
    } catch (err) {
      // A path component that is a file (ENOTDIR) or unreadable: there are no rules to apply there.
      if (isMissing(err)) return undefined;
      throw err;
    }
    if (!stat?.isFile()) {
      this.loaded.delete(file);
      return undefined;
    }
    const cached = this.loaded.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size && cached.ino === stat.ino) return cached.rules;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    // Case-insensitive on purpose, whatever the file system: on macOS and Windows `.ENV` is the same file
    // as `.env`, and on Linux hiding a look-alike costs less than showing the real one.
    const rules = ignore({ ignorecase: true }).add(text);
    this.loaded.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, rules });
    return rules;
  }
}

function asRulePath(segments: readonly string[], isDirectory: boolean): string {
  return `${segments.join("/")}${isDirectory ? "/" : ""}`;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EACCES";
}

/** The host's rules when it gave some (one cache for the session); else read fresh for this call. */
export function ignoreRulesOf(context: { cwd: string; ignore?: IgnoreRules }): IgnoreRules {
  return context.ignore ?? new WorkspaceIgnore(context.cwd);
}
