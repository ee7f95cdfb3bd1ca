import { CANDIDATES, queryTerms, scoreRows, searchTerms, wordsOf, type FieldTotals } from "./bm25f";
import type { IndexDatabase, SqlValue } from "./indexDatabase";
import type { ScoredId } from "./types";

/**
 * Ranking by words, with nothing to set up (no model, no service), in the workspace's SQLite index
 * (indexDatabase.ts): FTS5 finds the candidates, and bm25f.ts scores them from their stored words
 * with exact document frequencies (fts5vocab) and field lengths (the totals table, kept with every
 * change). A search works the moment a workspace is indexed and costs the same memory however large
 * the workspace is.
 *
 * Why not FTS5's own bm25() for the order: it normalises by the whole row's length rather than each
 * field's, and its IDF is clamped to almost nothing for a term in half the rows or more, which in a
 * small workspace is most terms (a three-file project's "password"): its order there is by length
 * alone. It picks the candidates, which it does well.
 */

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
    const { code, symbols, path } = wordsOf({ text: doc.code, symbols: doc.symbols, path: doc.path });
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
    const query_ = queryTerms(query);
    if (!(limit > 0) || !query_) return [];
    const totals = this.totals();
    const df = new Map<string, number>();
    for (const term of query_.terms) df.set(term, Number(this.db.get("SELECT doc FROM words_vocab WHERE term = ?", [term])?.doc ?? 0));
    const plan = searchTerms(query_, df, totals.docs);
    if (!plan) return [];

    // Terms are letters and digits only (terms.ts), so quoting each makes it a plain FTS5 string.
    const take = Number.isFinite(limit) ? Math.max(CANDIDATES, limit) : -1;
    const ids = new Set(this.candidates(plan.all.map((term) => `"${term}"`).join(" AND "), take, options.under).map((row) => Number(row.id)));
    if (plan.any && (take < 0 || ids.size < take)) for (const row of this.candidates(plan.any.map((term) => `"${term}"`).join(" OR "), take, options.under)) ids.add(Number(row.id));
    if (ids.size === 0) return [];
    const rows = this.db.all("SELECT rowid AS id, code, symbols, path FROM words WHERE rowid IN (SELECT value FROM json_each(?))", [JSON.stringify([...ids])]);
    const scored = scoreRows(
      rows.map((row) => ({ id: Number(row.id), code: String(row.code), symbols: String(row.symbols), path: String(row.path) })),
      query_,
      df,
      totals,
    );
    return Number.isFinite(limit) ? scored.slice(0, limit) : scored;
  }

  private totals(): FieldTotals {
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
