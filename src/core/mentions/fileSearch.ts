import type { FileSystem } from "../ports/fileSystem";
import { WorkspaceIgnore, type IgnoreRules } from "../workspace/ignore";

export interface PathEntry {
  /** Relative to the workspace root, with `/`. */
  path: string;
  kind: "file" | "folder";
}

/** Results the picker shows for one query. */
export const SEARCH_LIMIT = 50;
/** Entries gathered from the workspace; a larger tree is searched in its nearest part. */
export const INDEX_LIMIT = 20_000;
/** A typing burst reuses one walk; a file made a few seconds ago shows on the next burst. */
const INDEX_TTL_MS = 5_000;
/** Never walked into: noise in a picker, whatever .gitignore says. */
const SKIPPED = new Set([".git", "node_modules", ".hg", ".svn"]);

/**
 * The workspace's files and folders for the @ picker, honouring .gitignore and .kilocodeignore,
 * breadth first (so near entries survive the cap), searched by a fuzzy match of the typed text.
 */
export class FileSearch {
  private index: { at: number; entries: PathEntry[] } | undefined;
  private walking: Promise<PathEntry[]> | undefined;

  constructor(
    private readonly root: string,
    private readonly fs: FileSystem,
    private readonly ignore: IgnoreRules = new WorkspaceIgnore(root),
    private readonly now: () => number = Date.now,
  ) {}

  async search(query: string, limit = SEARCH_LIMIT): Promise<PathEntry[]> {
    const entries = await this.entries();
    const q = query.trim().replace(/^\/+/, "").toLowerCase();
    if (q === "") return entries.slice(0, limit);
    const scored: { entry: PathEntry; score: number }[] = [];
    for (const entry of entries) {
      const score = fuzzyScore(q, entry.path.toLowerCase());
      if (score !== undefined) scored.push({ entry, score });
    }
    scored.sort((a, b) => b.score - a.score || a.entry.path.length - b.entry.path.length || (a.entry.path < b.entry.path ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.entry);
  }

  private async entries(): Promise<PathEntry[]> {
    if (this.index && this.now() - this.index.at < INDEX_TTL_MS) return this.index.entries;
    this.walking ??= this.walk().finally(() => (this.walking = undefined));
    const entries = await this.walking;
    this.index = { at: this.now(), entries };
    return entries;
  }

  private async walk(): Promise<PathEntry[]> {
    const out: PathEntry[] = [];
    const queue: string[] = [""];
    for (let q = 0; q < queue.length && out.length < INDEX_LIMIT; q++) {
      const rel = queue[q]!;
      const folder = rel ? `${this.root}/${rel}` : this.root;
      let listing: { name: string; type: string }[];
      try {
        listing = await this.fs.readDirectory(folder);
      } catch {
        // A folder removed or unreadable since it was listed: its entries just do not show.
        continue;
      }
      listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of listing) {
        const isFolder = entry.type === "directory";
        if (isFolder && SKIPPED.has(entry.name)) continue;
        const absolute = `${folder}/${entry.name}`;
        if (this.ignore.isIgnored(absolute, isFolder)) continue;
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        out.push({ path, kind: isFolder ? "folder" : "file" });
        if (isFolder) queue.push(path);
        if (out.length >= INDEX_LIMIT) break;
      }
    }
    return out;
  }
}

/**
 * Higher is better; undefined when the letters of `query` do not all appear in order in `path`.
 * Matches at the start of a name part, runs of letters, and matches in the file name count most.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const nameStart = path.lastIndexOf("/") + 1;
  let score = 0;
  let at = 0;
  let previous = -2;
  for (const ch of query) {
    const found = path.indexOf(ch, at);
    if (found < 0) return undefined;
    score += 1;
    if (found === previous + 1) score += 4;
    if (found === 0 || "/._-".includes(path[found - 1]!)) score += 3;
    if (found >= nameStart) score += 2;
    previous = found;
    at = found + 1;
  }
  const name = path.slice(nameStart);
  if (name.startsWith(query)) score += 30;
  else if (name.includes(query)) score += 20;
  else if (path.includes(query)) score += 10;
  return score;
}
