import type { IndexDatabase, SqlValue } from "./indexDatabase";
import type { ScoredId } from "./types";
import type { VectorStore } from "./vectorFeed";

/**
 * The chunks' vectors in the index database (indexDatabase.ts, table `vectors`), and the nearest of
 * them to a query's.
 *
 * Stored at unit length as signed bytes (round(x · 127)): a quarter of float32's size, and the dot
 * product of a query with them is the cosine similarity to within about 1% (Qdrant and pgvector
 * offer the same scalar quantization). The nearest are found by scanning every vector inside SQLite
 * with a JavaScript similarity function, not by loading them: memory stays what the page cache is,
 * whatever the workspace's size, at a cost that grows with the chunks (`npm run bench -- vectors`:
 * nearest 50 of 10k chunks in 50–80 ms, of 100k in 0.5–0.7 s, at 768 and 1536 dimensions).
 */

/** The SQL name of the similarity function (a row's vector against the current query's). */
const SIMILARITY = "kiln_similarity";

export interface MissingVector {
  hash: string;
  path: string;
  startLine: number;
  endLine: number;
}

export class VectorIndex implements VectorStore {
  /** The query whose similarity SIMILARITY computes, as unit-length floats scaled to the bytes' 127. */
  private query: Float32Array | undefined;

  constructor(private readonly db: IndexDatabase) {
    db.defineFunction(SIMILARITY, (blob) => (blob instanceof Uint8Array && this.query ? similarity(this.query, blob) : null));
  }

  /**
   * Makes the vectors those of this embedder: vectors another one made are not comparable, so they
   * are dropped (the chunks stay). Returns whether any were dropped.
   */
  useEmbedder(id: string): boolean {
    const current = this.db.get("SELECT value FROM meta WHERE key = 'embedder'")?.value;
    if (current === id) return false;
    return this.db.transaction(() => {
      const had = this.count() > 0;
      this.db.run("DELETE FROM vectors");
      this.db.run("INSERT INTO meta (key, value) VALUES ('embedder', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [id]);
      return had;
    });
  }

  /** The embedder the vectors are from, if one was ever used. */
  embedderId(): string | undefined {
    const value = this.db.get("SELECT value FROM meta WHERE key = 'embedder'")?.value;
    return typeof value === "string" ? value : undefined;
  }

  count(): number {
    return Number(this.db.get("SELECT count(*) AS n FROM vectors")?.n ?? 0);
  }

  hasAny(): boolean {
    return this.db.get("SELECT 1 AS any FROM vectors LIMIT 1") !== undefined;
  }

  /** Each chunk text that has no vector yet, once (by hash), in path order: where to read it from. */
  missing(): MissingVector[] {
    return this.db
      .all("SELECT hash, min(path) AS path, start_line, end_line FROM chunks WHERE hash NOT IN (SELECT hash FROM vectors) GROUP BY hash ORDER BY path, start_line")
      .map((row) => ({ hash: String(row.hash), path: String(row.path), startLine: Number(row.start_line), endLine: Number(row.end_line) }));
  }

  /** Stores vectors (in the caller's transaction, or each in its own). */
  put(hash: string, vector: Float32Array): void {
    this.db.run("INSERT INTO vectors (hash, vector) VALUES (?, ?) ON CONFLICT (hash) DO UPDATE SET vector = excluded.vector", [hash, quantize(vector)]);
  }

  putAll(entries: readonly { hash: string; vector: Float32Array }[]): void {
    this.db.transaction(() => entries.forEach(({ hash, vector }) => this.put(hash, vector)));
  }

  /** Drops the vectors no chunk has any more. */
  prune(): void {
    this.db.transaction(() => this.db.run("DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM chunks)"));
  }

  /** The `limit` chunks whose vectors are nearest the query's (cosine), within `under` where given. */
  nearest(query: Float32Array, limit: number, under?: string): ScoredId[] {
    const unit = normalized(query);
    if (!unit) return [];
    this.query = unit.map((x) => x * 127);
    try {
      const params: SqlValue[] = [];
      let within = "";
      if (under) {
        within = " WHERE c.path = ? OR (c.path > ? AND c.path < ?)";
        params.push(under, `${under}/`, `${under}0`);
      }
      params.push(limit);
      return this.db
        .all(`SELECT c.id AS id, ${SIMILARITY}(v.vector) AS score FROM chunks c JOIN vectors v ON v.hash = c.hash${within} ORDER BY score DESC, c.id LIMIT ?`, params)
        .map((row) => ({ id: Number(row.id), score: Number(row.score) }));
    } finally {
      this.query = undefined;
    }
  }
}

/** A vector as stored: unit length, each component as a signed byte (x · 127, rounded). */
export function quantize(vector: Float32Array): Uint8Array {
  const unit = normalized(vector) ?? new Float32Array(vector.length);
  const bytes = new Int8Array(unit.length);
  for (let i = 0; i < unit.length; i++) bytes[i] = Math.round(unit[i]! * 127);
  return new Uint8Array(bytes.buffer);
}

/** Cosine similarity of a query (unit length, × 127) and a stored vector; 0 for one of another dimension. */
function similarity(query: Float32Array, stored: Uint8Array): number {
  if (stored.length !== query.length) return 0;
  const bytes = new Int8Array(stored.buffer, stored.byteOffset, stored.length);
  let dot = 0;
  for (let i = 0; i < bytes.length; i++) dot += query[i]! * bytes[i]!;
  return dot / (127 * 127);
}

function normalized(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (!(sum > 0) || !Number.isFinite(sum)) return undefined;
  const length = Math.sqrt(sum);
  return vector.map((x) => x / length);
}
