import { promises as fs } from "node:fs";
import { join } from "node:path";

/** Build output and dependency folders: large, regenerated, and never what a user wants rolled back. */
export const DEFAULT_EXCLUDES = [
  "node_modules/",
  ".git/",
  "dist/",
  "out/",
  "build/",
  "target/",
  ".next/",
  ".nuxt/",
  ".turbo/",
  ".cache/",
  "coverage/",
  ".venv/",
  "venv/",
  "__pycache__/",
  ".gradle/",
  ".idea/",
  "vendor/bundle/",
  "*.log",
  "*.tmp",
  ".DS_Store",
];

/**
 * Looks for git repositories inside the workspace (below its root): the shadow repository would
 * record them as gitlinks, not their files, so a restore could not bring their content back.
 */
export async function findNestedRepository(root: string, maxDirs = 20_000): Promise<string | undefined> {
  const skip = new Set(DEFAULT_EXCLUDES.filter((e) => e.endsWith("/")).map((e) => e.slice(0, -1)));
  const queue = [""];
  let seen = 0;
  while (queue.length > 0 && seen < maxDirs) {
    const rel = queue.shift()!;
    seen++;
    let entries;
    try {
      entries = await fs.readdir(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name === ".git" && rel !== "") return rel;
      if (entry.isDirectory() && !skip.has(entry.name)) queue.push(rel ? `${rel}/${entry.name}` : entry.name);
    }
  }
  return undefined;
}
