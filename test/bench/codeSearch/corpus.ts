/**
 * The code the codebase-search bench indexes: real TypeScript that ships in npm packages this repo
 * already installs (pinned by package-lock.json), copied into a temporary workspace because the
 * index, like a user's, leaves node_modules out. The evaluation set (evalSet.json) asks about the
 * first packages; the others are there as distractors: real code with the same words in it.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Package → the folder of its sources; the first ones hold the evaluation set's answers. */
export const ASKED = [
  ["puppeteer-core", "src"],
  ["openai", "src"],
] as const;
export const DISTRACTORS = [
  ["@anthropic-ai/sdk", "src"],
  ["zod", "src"],
  ["happy-dom", "src"],
] as const;

export function versionOf(root: string, name: string): string {
  return (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** A temporary workspace with each package's sources under its name (`puppeteer-core/src/…`). */
export function copyCorpus(root: string, packages: readonly (readonly [string, string])[]): string {
  const workspace = mkdtempSync(join(tmpdir(), "kiln-code-search-bench-"));
  for (const [name, folder] of packages) {
    const from = join(root, "node_modules", name, folder);
    if (!existsSync(from)) throw new Error(`${from} is missing: run npm ci`);
    cpSync(from, join(workspace, name, folder), { recursive: true });
  }
  return workspace;
}
