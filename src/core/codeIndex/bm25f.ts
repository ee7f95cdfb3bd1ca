import { pathTerms, termsOf } from "./terms";
import type { ScoredId } from "./types";

/**
 * The codebase index's ranking by words, whatever store holds them (SQLite FTS5 for a workspace,
 * PostgreSQL for a team): the store finds candidates by the plan `searchTerms` makes, and
 * `scoreRows` ranks them from their stored words, so both stores answer a query the same way.
 *
 * Scoring (BM25F, Robertson & Zaragoza): each field's term frequency is normalised by that field's
 * length against the field's average and weighted, the weighted sum is saturated once, and that is
 * multiplied by the term's IDF:
 *
 *   tf~(t, d) = Σ_f w_f · tf_f(t, d) / (1 − b + b · len_f(d) / avglen_f)      k1 = 1.2, b = 0.75
 *   score(d)  = coord(d)² · Σ_t idf(t) · tf~ · (k1 + 1) / (k1 + tf~)
 *   idf(t)    = ln(1 + (N − df + 0.5) / (df + 0.5))                         (never negative, as Lucene's)
 *
 * BM25F rather than a sum of per-field BM25 scores because the fields describe one thing: a term in
 * both the symbol and the code of a chunk is one piece of evidence, saturated once, not two. Weights:
 * symbols ×3 (the function named after the query is the answer, one that mentions it in a comment is
 * not), path words ×1.5 ("auth" should find src/auth/…), code and comments ×1.
 *
 * Which chunks match at all: those with at least half the query's distinct terms (rounded up), so a
 * query of up to two terms needs one, of three or four needs two, and a longer, wordier one forgives
 * the words the code does not use. Query terms no chunk has still count: the query `renderButton` is
 * its whole identifier first, and a chunk with only "render" in it is not an answer.
 *
 * coord(d) = (query terms the chunk has) / (query terms), squared: among the matches of a longer
 * query, one with every term outranks one that misses a term even when the other's terms are rarer,
 * repeated and in a shorter chunk, and a far better 3-of-4 chunk still gets through. As identifiers
 * are kept whole besides their parts (terms.ts), `reconcile_ledger_balance` has all four terms of the
 * query `reconcileLedgerBalance` and outranks a chunk that says the three words apart.
 */

const K1 = 1.2;
const B = 0.75;
const WEIGHT = { code: 1, symbols: 3, path: 1.5 } as const;
/** The share of the query's distinct terms a chunk needs to match (rounded up). */
const MIN_MATCH = 0.5;
/** Candidates asked of the store per list: enough that the exact scoring finds the best among them. */
export const CANDIDATES = 200;
/** A term in more than this share of the chunks (and more than COMMON_MIN of them) finds no candidates by itself. */
const COMMON_SHARE = 0.02;
const COMMON_MIN = 200;

type Field = keyof typeof WEIGHT;
const FIELDS: readonly Field[] = ["code", "symbols", "path"];

/** The number of chunks and each field's words in all of them. */
export interface FieldTotals {
  docs: number;
  code: number;
  symbols: number;
  path: number;
}

/** A candidate as stored: each field's terms, lower case, joined by single spaces. */
export interface StoredWords {
  id: number;
  code: string;
  symbols: string;
  path: string;
}

/** A chunk's words per field, as stored and scored. */
export function wordsOf(doc: { text: string; symbols: readonly string[]; path: string }): { code: string[]; symbols: string[]; path: string[] } {
  return { code: termsOf(doc.text), symbols: doc.symbols.flatMap((symbol) => termsOf(symbol)), path: pathTerms(doc.path) };
}

export interface QueryTerms {
  /** The query's distinct terms. */
  terms: string[];
  /** How many of them a chunk must have. */
  required: number;
}

/** A query's terms, or undefined where it has none (empty, or stop words only): it finds nothing. */
export function queryTerms(query: string): QueryTerms | undefined {
  const terms = [...new Set(termsOf(query))];
  return terms.length === 0 ? undefined : { terms, required: Math.ceil(MIN_MATCH * terms.length) };
}

/**
 * Which candidates to ask the store for, given each term's document frequency: those with `all` of
 * the terms first (when that alone fills the list, chunks missing a term, at coord² of 0.56 or less,
 * would rarely beat them), then, unless that filled it, those with `any` of the rarer terms (Lucene's
 * "common terms" idea: a chunk whose only match is a word a tenth of the code has scores too little
 * to matter, and there are thousands of them). Undefined where too few terms occur at all.
 */
export function searchTerms(query: QueryTerms, df: ReadonlyMap<string, number>, docs: number): { all: string[]; any?: string[] } | undefined {
  if (query.terms.filter((term) => (df.get(term) ?? 0) > 0).length < query.required) return undefined;
  if (query.terms.length === 1) return { all: query.terms };
  const rare = query.terms.filter((term) => (df.get(term) ?? 0) <= Math.max(COMMON_MIN, COMMON_SHARE * docs));
  return { all: query.terms, any: rare.length > 0 ? rare : query.terms };
}

/** The candidates with enough of the query's terms, scored, best first; equal scores by id, so an answer is the same every time. */
export function scoreRows(rows: readonly StoredWords[], query: QueryTerms, df: ReadonlyMap<string, number>, totals: FieldTotals): ScoredId[] {
  if (totals.docs <= 0) return [];
  const average = { code: totals.code / totals.docs, symbols: totals.symbols / totals.docs, path: totals.path / totals.docs };
  const idf = new Map(query.terms.map((term) => [term, Math.log(1 + (totals.docs - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5))]));
  const scored: ScoredId[] = [];
  for (const row of rows) {
    const weighted = new Map<string, number>();
    for (const field of FIELDS) {
      const words = row[field].split(" ").filter((w) => w !== "");
      const norm = average[field] > 0 ? 1 - B + (B * words.length) / average[field] : 1;
      for (const word of words) if (idf.has(word)) weighted.set(word, (weighted.get(word) ?? 0) + WEIGHT[field] / norm);
    }
    if (weighted.size < query.required) continue;
    let sum = 0;
    for (const [term, tf] of weighted) sum += (idf.get(term)! * tf * (K1 + 1)) / (K1 + tf);
    scored.push({ id: row.id, score: sum * (weighted.size / query.terms.length) ** 2 });
  }
  return scored.sort((a, b) => b.score - a.score || a.id - b.id);
}
