import type { Language, Parser, Query } from "web-tree-sitter";
import { loadLanguage, loadRuntime } from "../../treeSitter/runtime";
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

const grammars = new Map<Grammar, Promise<Loaded>>();

export function loadGrammar(grammar: Grammar): Promise<Loaded> {
  let loaded = grammars.get(grammar);
  if (!loaded) {
    loaded = (async () => {
      const { Parser, Query } = await loadRuntime();
      const language: Language = await loadLanguage(grammar);
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
