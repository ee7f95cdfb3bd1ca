import { createHash } from "node:crypto";
import { lstat, readdir, readFile } from "node:fs/promises";
import type { IgnoreRules } from "../workspace/ignore";

/**
 * Folders that hold what a build or a package manager made, never the project's own code, left out
 * whatever .gitignore says (a fresh clone has built nothing yet, a forgotten rule should not bring
 * node_modules into every search).
 */
const BUILD_FOLDERS = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".cache",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".gradle",
  "Pods",
  "vendor",
]);

/** Files that are text but no one's code: generated lock files, maps and minified bundles. */
const NOT_SOURCE = /(?:^|\/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb|Cargo\.lock|poetry\.lock|composer\.lock|Gemfile\.lock|go\.sum)$|\.(?:min\.(?:js|css)|map)$/;

/** Larger files are generated or vendored more often than not; their chunks would crowd out the code. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Bytes looked at for a NUL, which text never has and nearly every binary format does. */
const BINARY_SNIFF_BYTES = 8000;

export interface WalkedFile {
  /** Workspace-relative, "/" separators. */
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The workspace's files worth indexing: not ignored by .gitignore or .kilocodeignore, not in a
 * build folder, not a lock file. Links are not followed: a link to a folder above would loop, and
 * one to a folder elsewhere would index files outside the workspace.
 */
export async function walkWorkspace(root: string, ignore: IgnoreRules, signal?: AbortSignal): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  const pending: string[] = [""];
  while (pending.length > 0) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("cancelled");
    const rel = pending.pop()!;
    const folder = rel ? `${root}/${rel}` : root;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      // Removed or unreadable since its parent was listed: what is in it cannot be indexed.
      continue;
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const absolute = `${root}/${path}`;
      if (entry.isDirectory()) {
        if (!BUILD_FOLDERS.has(entry.name) && !ignore.isIgnored(absolute, true)) pending.push(path);
        continue;
      }
      if (!entry.isFile() || NOT_SOURCE.test(path) || ignore.isIgnored(absolute, false)) continue;
      const stat = await lstat(absolute).catch(() => undefined);
      if (stat?.isFile()) out.push({ path, size: stat.size, mtimeMs: stat.mtimeMs });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether a path is one the walk would index, by its name alone (for a watcher's events). */
export function isIndexablePath(path: string): boolean {
  return !NOT_SOURCE.test(path) && !path.split("/").some((part) => BUILD_FOLDERS.has(part));
}

/** A file's lines as the index counts them (a BOM dropped, CRLF or LF), or undefined where it cannot be read. */
export async function readLines(absolute: string): Promise<string[] | undefined> {
  const text = await readFile(absolute, "utf8").catch(() => undefined);
  return text?.replace(/^\uFEFF/, "").split(/\r?\n/);
}

/**
 * A file's text and the sha256 of its bytes, or undefined where it is not to be indexed: larger than
 * `maxBytes`, binary (a NUL in its first bytes), or unreadable.
 */
export async function readIndexable(root: string, path: string, size: number, maxBytes = MAX_FILE_BYTES): Promise<{ text: string; hash: string } | undefined> {
  if (size > maxBytes) return undefined;
  const bytes = await readFile(`${root}/${path}`).catch(() => undefined);
  if (!bytes || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  return { text: new TextDecoder().decode(bytes), hash: createHash("sha256").update(bytes).digest("hex") };
}

/** A regular file's size and time, or undefined where it is not one (gone, a folder, a link). */
export async function statFile(absolute: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  // lstat, not open: opening a FIFO waits for a writer that may never come.
  const stat = await lstat(absolute).catch(() => undefined);
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
}
