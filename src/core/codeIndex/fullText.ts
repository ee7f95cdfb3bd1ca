import type { IndexDatabase, SqlValue } from "./indexDatabase";
import { pathTerms, termsOf } from "./terms";
import type { ScoredId } from "./types";

/**
 * Ranking by words, with nothing to set up (no model, no service): BM25F over three fields of a
 * chunk, with SQLite FTS5 (indexDatabase.ts) to find the candidates, so a search works the moment a
 * workspace is indexed and costs the same memory however large the workspace is.
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
 * Why not FTS5's own bm25(): it normalises by the whole row's length rather than each field's, and
 * its IDF is clamped to almost nothing for a term in half the rows or more, which in a small workspace
 * is most terms (a three-file project's "password"): its order there is by length alone. It still picks
 * the candidates, which it does well: the best 200 rows with all of the query's terms and, unless
 * those are 200 already, the best with any of them; those are then scored here from their stored words, with exact document frequencies
 * (fts5vocab) and field lengths (the totals table, kept with every change).
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
/** Candidates asked of FTS5 per list: enough that the exact scoring finds the best among them. */
const CANDIDATES = 200;
/** A term in more than this share of the chunks (and more than COMMON_MIN of them) finds no candidates by itself. */
const COMMON_SHARE = 0.02;
const COMMON_MIN = 200;

type Field = keyof typeof WEIGHT;
const FIELDS: readonly Field[] = ["code", "symbols", "path"];

export interface FullTextDoc {
  /** The chunk's text: code and comments alike. */
  code: string;
  /** The names it defines (or a section's heading). */
  symbols: readonly string[];
  /** Workspace-relative path of its file. */
  path: string;
}

export interface FullTextSearchOptions {
  /** At most this many results (all matches when left out). */
  limit?: number;
  /** Only chunks of this workspace-relative file or folder (from the chunks table). */
  under?: string;
}

/** The words table of an index database (indexDatabase.ts); ids are the chunks' ids. */
export class FullTextIndex {
  constructor(private readonly db: IndexDatabase) {}

  get size(): number {
    return this.totals().docs;
  }

  has(id: number): boolean {
    return this.db.get("SELECT rowid FROM words WHERE rowid = ?", [id]) !== undefined;
  }

  /** Indexes a document under `id` (a whole number ≥ 1); one already there under that id is replaced. */
  add(id: number, doc: FullTextDoc): void {
    if (!Number.isSafeInteger(id) || id < 1) throw new Error(`A full-text document id must be a whole number ≥ 1, got ${String(id)}.`);
    this.remove(id);
    const code = termsOf(doc.code);
    const symbols = doc.symbols.flatMap((symbol) => termsOf(symbol));
    const path = pathTerms(doc.path);
    this.db.run("INSERT INTO words (rowid, code, symbols, path) VALUES (?, ?, ?, ?)", [id, code.join(" "), symbols.join(" "), path.join(" ")]);
    this.db.run("UPDATE totals SET docs = docs + 1, code = code + ?, symbols = symbols + ?, path = path + ?", [code.length, symbols.length, path.length]);
  }

  /** Drops the document with this id; an unknown id is no error (the caller's view may be older). */
  remove(id: number): void {
    const row = this.db.get("SELECT code, symbols, path FROM words WHERE rowid = ?", [id]);
    if (!row) return;
    this.db.run("DELETE FROM words WHERE rowid = ?", [id]);
    this.db.run("UPDATE totals SET docs = docs - 1, code = code - ?, symbols = symbols - ?, path = path - ?", [countWords(row.code), countWords(row.symbols), countWords(row.path)]);
  }

  /**
   * The chunks with enough of the query's terms, best first; equal scores by id, so an answer is the
   * same every time. A query with no terms (empty, or stop words only) finds nothing.
   */
  search(query: string, options: FullTextSearchOptions = {}): ScoredId[] {
    const limit = options.limit === undefined ? Infinity : Math.floor(options.limit);
    const terms = [...new Set(termsOf(query))];
    if (!(limit > 0) || terms.length === 0) return [];
    const required = Math.ceil(MIN_MATCH * terms.length);
    const totals = this.totals();
    const df = new Map<string, number>();
    for (const term of terms) df.set(term, Number(this.db.get("SELECT doc FROM words_vocab WHERE term = ?", [term])?.doc ?? 0));
    if (terms.filter((term) => df.get(term)! > 0).length < required) return [];

    // Terms are letters and digits only (terms.ts), so quoting each makes it a plain FTS5 string.
    const quoted = terms.map((term) => `"${term}"`);
    const take = Number.isFinite(limit) ? Math.max(CANDIDATES, limit) : -1;
    // All terms first: when that alone fills the list, chunks missing a term (coord² of 0.56 or less)
    // would rarely beat them, and ranking every chunk with any term is most of a search's time.
    const ids = new Set(this.candidates(quoted.join(" AND "), take, options.under).map((row) => Number(row.id)));
    if (terms.length > 1 && (take < 0 || ids.size < take)) {
      // Any term, but not a common one (Lucene's "common terms" idea): a chunk whose only match is a
      // word a tenth of the code has scores too little to matter, and there are thousands of them.
      const rare = terms.filter((term) => df.get(term)! <= Math.max(COMMON_MIN, COMMON_SHARE * totals.docs));
      const any = (rare.length > 0 ? rare : terms).map((term) => `"${term}"`);
      for (const row of this.candidates(any.join(" OR "), take, options.under)) ids.add(Number(row.id));
    }
    if (ids.size === 0) return [];

    const average = { code: totals.code / totals.docs, symbols: totals.symbols / totals.docs, path: totals.path / totals.docs };
    const idf = new Map(terms.map((term) => [term, Math.log(1 + (totals.docs - df.get(term)! + 0.5) / (df.get(term)! + 0.5))]));
    const scored: ScoredId[] = [];
    for (const row of this.db.all("SELECT rowid AS id, code, symbols, path FROM words WHERE rowid IN (SELECT value FROM json_each(?))", [JSON.stringify([...ids])])) {
      const weighted = new Map<string, number>();
      for (const field of FIELDS) {
        const words = String(row[field])
          .split(" ")
          .filter((w) => w !== "");
        const norm = average[field] > 0 ? 1 - B + (B * words.length) / average[field] : 1;
        for (const word of words) if (idf.has(word)) weighted.set(word, (weighted.get(word) ?? 0) + WEIGHT[field] / norm);
      }
      if (weighted.size < required) continue;
      let sum = 0;
      for (const [term, tf] of weighted) sum += (idf.get(term)! * tf * (K1 + 1)) / (K1 + tf);
      scored.push({ id: Number(row.id), score: sum * (weighted.size / terms.length) ** 2 });
    }
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return Number.isFinite(limit) ? scored.slice(0, limit) : scored;
  }

  private totals(): { docs: number; code: number; symbols: number; path: number } {
    const row = this.db.get("SELECT docs, code, symbols, path FROM totals")!;
    return { docs: Number(row.docs), code: Number(row.code), symbols: Number(row.symbols), path: Number(row.path) };
  }

  /** FTS5's best rows for a MATCH expression (by its bm25, with the fields' weights), within `under` where given. */
  private candidates(match: string, take: number, under: string | undefined): { id: SqlValue }[] {
    const params: SqlValue[] = [match];
    let within = "";
    if (under) {
      // The folder's paths sort between "under/" and "under0" ("0" follows "/" in every collation).
      within = " AND rowid IN (SELECT id FROM chunks WHERE path = ? OR (path > ? AND path < ?))";
      params.push(under, `${under}/`, `${under}0`);
    }
    params.push(take);
    return this.db.all(`SELECT rowid AS id FROM words WHERE words MATCH ?${within} ORDER BY bm25(words, 1.0, 3.0, 1.5) LIMIT ?`, params) as { id: SqlValue }[];
  }
}

/** Words in a stored field (terms joined by single spaces). */
function countWords(value: unknown): number {
  const text = String(value ?? "");
  return text === "" ? 0 : text.split(" ").length;
}
