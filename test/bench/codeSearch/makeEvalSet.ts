/**
 * Writes evalSet.json: query → expected file and symbol pairs over real code (corpus.ts), made from
 * the code itself so that no one's judgement picks easy ones. Two kinds of query per definition:
 * - "doc": the first sentence of its doc comment, as a person says what they look for;
 * - "name": its name split into words ("wait for selector"), as a person half remembers it.
 * Only definitions whose name is defined once in the whole corpus (distractors included) are
 * asked about, so each query has one right answer. Run again after the packages change:
 * `npm run bench -- make-eval-set`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { chunkFile } from "../../../src/core/codeIndex/chunker";
import { ASKED, DISTRACTORS, versionOf } from "./corpus";

export interface EvalQuery {
  kind: "doc" | "name";
  query: string;
  /** Workspace-relative, as the bench's workspace lays the packages out. */
  path: string;
  symbol: string;
}

export interface EvalSet {
  packages: Record<string, string>;
  queries: EvalQuery[];
}

const PER_KIND = 150;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

/** The doc comment's first sentence, without markup; undefined when it says too little to ask with. */
function firstSentence(comment: string): string | undefined {
  const text = comment
    .replace(/^\s*\/\*\*|\*\/\s*$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*\s?/, ""))
    .filter((line) => !line.trim().startsWith("@"))
    .join(" ")
    .replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, "$1")
    .replace(/[`*_#>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  const words = sentence.split(" ").filter(Boolean);
  return words.length >= 5 && words.length <= 30 && !/^(deprecated|internal|see|@)/i.test(sentence) ? sentence : undefined;
}

function nameWords(name: string): string | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$#]+/g, " ")
    .trim()
    .toLowerCase()
    .split(/\s+/);
  return words.length >= 2 ? words.join(" ") : undefined;
}

/** Every n-th of a sorted list: spread over the packages and files rather than the first few. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}

export async function makeEvalSet(root: string): Promise<void> {
  const defined = new Map<string, number>();
  const candidates: { path: string; symbol: string; doc?: string }[] = [];
  for (const [name, folder] of [...ASKED, ...DISTRACTORS]) {
    const asked = ASKED.some(([n]) => n === name);
    const base = join(root, "node_modules", name);
    for (const file of sourceFiles(join(base, folder))) {
      const path = `${name}/${relative(base, file).split("\\").join("/")}`;
      const source = readFileSync(file, "utf8");
      for (const chunk of await chunkFile(path, source)) {
        if (chunk.kind !== "function" && chunk.kind !== "method") continue;
        const symbol = chunk.symbols[0];
        if (!symbol || symbol.includes(".")) continue;
        defined.set(symbol, (defined.get(symbol) ?? 0) + 1);
        if (!asked) continue;
        const comment = /^\s*(\/\*\*[\s\S]*?\*\/)/.exec(chunk.text)?.[1];
        candidates.push({ path, symbol, ...(comment && { doc: firstSentence(comment) }) });
      }
    }
  }
  const unique = candidates.filter((c) => defined.get(c.symbol) === 1);
  const docs = spread(
    unique.filter((c) => c.doc),
    PER_KIND,
  ).map((c): EvalQuery => ({ kind: "doc", query: c.doc!, path: c.path, symbol: c.symbol }));
  const names = spread(
    unique.filter((c) => nameWords(c.symbol)),
    PER_KIND,
  ).map((c): EvalQuery => ({ kind: "name", query: nameWords(c.symbol)!, path: c.path, symbol: c.symbol }));
  const set: EvalSet = {
    packages: Object.fromEntries([...ASKED, ...DISTRACTORS].map(([name]) => [name, versionOf(root, name)])),
    queries: [...docs, ...names],
  };
  writeFileSync(join(root, "test/bench/codeSearch/evalSet.json"), `${JSON.stringify(set, null, 1)}\n`);
  console.log(`${docs.length} doc queries, ${names.length} name queries, from ${unique.length} uniquely named definitions`);
}
