import { readFile } from "node:fs/promises";
import type { Language, Parser, Query } from "web-tree-sitter";
import { findAsset } from "../bundledAssets";
import { grammarWasm } from "./languages";
import { QUERIES, type Grammar } from "./queries";

export interface Definition {
  /** 1-based. */
  line: number;
  /** The definition's first line, as written. */
  text: string;
}

interface Loaded {
  parser: Parser;
  query: Query;
}

type TreeSitter = typeof import("web-tree-sitter");

// Parsers are wasm instances: loading one costs milliseconds and memory, so each grammar is loaded
// once per process, on first use, and kept. Promises (not values) so concurrent calls share a load.
let runtime: Promise<TreeSitter> | undefined;
const grammars = new Map<Grammar, Promise<Loaded>>();

function wasmPath(file: string, packagePath: string): string {
  const path = findAsset(`wasm/${file}`, packagePath);
  if (!path) throw new Error(`${file} is missing from this installation (looked beside the bundle and in node_modules)`);
  return path;
}

function loadRuntime(): Promise<TreeSitter> {
  runtime ??= (async () => {
    const treeSitter = await import("web-tree-sitter");
    const wasmBinary = await readFile(wasmPath("web-tree-sitter.wasm", "web-tree-sitter/web-tree-sitter.wasm"));
    // Handing over the bytes keeps emscripten from guessing a location from the bundle's URL.
    await treeSitter.Parser.init({ wasmBinary });
    return treeSitter;
  })();
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

export function loadGrammar(grammar: Grammar): Promise<Loaded> {
  let loaded = grammars.get(grammar);
  if (!loaded) {
    loaded = (async () => {
      const { Language, Parser, Query } = await loadRuntime();
      const file = grammarWasm(grammar);
      const language: Language = await Language.load(await readFile(wasmPath(file, `@vscode/tree-sitter-wasm/wasm/${file}`)));
      const parser = new Parser();
      parser.setLanguage(language);
      return { parser, query: new Query(language, QUERIES[grammar]) };
    })();
    grammars.set(grammar, loaded);
    // A failed load is not cached: the next call tries again (and reports the same error if it stays).
    loaded.catch(() => grammars.delete(grammar));
  }
  return loaded;
}

const MAX_TEXT = 200;

/** The definitions in one file's text, in line order, one per line. */
export async function findDefinitions(grammar: Grammar, source: string): Promise<Definition[]> {
  const { parser, query } = await loadGrammar(grammar);
  const tree = parser.parse(source);
  if (!tree) throw new Error("tree-sitter could not parse the file");
  const lines = source.split(/\r?\n/);
  const rows = new Set<number>();
  try {
    for (const capture of query.captures(tree.rootNode)) {
      if (capture.name === "definition") rows.add(capture.node.startPosition.row);
    }
  } finally {
    // Trees live in wasm memory, which no garbage collector frees.
    tree.delete();
  }
  return [...rows]
    .sort((a, b) => a - b)
    .map((row) => {
      const text = (lines[row] ?? "").trimEnd();
      return { line: row + 1, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text };
    });
}
