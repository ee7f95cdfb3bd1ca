import type { ScoredId } from "../types";
import type { VectorStore } from "../vectorFeed";
import type { MissingVector } from "../vectors";
import type { TeamDatabase } from "./teamDatabase";

/**
 * A team index's vectors, in pgvector on its server (teamDatabase.ts): one per embedder and chunk
 * text (by its hash), so a chunk a teammate's Kiln embedded, on any branch, is never sent to an
 * embedder again, and teammates with different embedders each keep their own. Nearest by cosine
 * distance, computed by pgvector on the server.
 */
export class TeamVectors implements VectorStore {
  constructor(
    private readonly db: TeamDatabase,
    private readonly scope: string,
    private readonly embedder: string,
  ) {}

  async hasAny(): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM kiln_index_chunks c JOIN kiln_index_vectors v ON v.embedder = $2 AND v.hash = c.hash WHERE c.scope = $1 LIMIT 1", [this.scope, this.embedder]);
    return rows.length > 0;
  }

  /** Chunks of this scope with a vector from this embedder. */
  async count(): Promise<number> {
    const [row] = await this.db.query("SELECT count(*) AS n FROM kiln_index_chunks c WHERE c.scope = $1 AND EXISTS (SELECT 1 FROM kiln_index_vectors v WHERE v.embedder = $2 AND v.hash = c.hash)", [
      this.scope,
      this.embedder,
    ]);
    return Number(row?.n ?? 0);
  }

  async missing(): Promise<MissingVector[]> {
    const rows = await this.db.query(
      `SELECT DISTINCT ON (c.hash) c.hash, c.path, c.start_line, c.end_line FROM kiln_index_chunks c
       WHERE c.scope = $1 AND NOT EXISTS (SELECT 1 FROM kiln_index_vectors v WHERE v.embedder = $2 AND v.hash = c.hash)
       ORDER BY c.hash, c.path, c.start_line`,
      [this.scope, this.embedder],
    );
    return rows
      .map((row) => ({ hash: String(row.hash), path: String(row.path), startLine: Number(row.start_line), endLine: Number(row.end_line) }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine));
  }

  async putAll(entries: readonly { hash: string; vector: Float32Array }[]): Promise<void> {
    if (entries.length === 0) return;
    const values = entries.flatMap(({ hash, vector }) => [this.embedder, hash, vectorLiteral(vector)]);
    const rows = entries.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3}::vector)`);
    // A teammate may have sent the same chunk's vector meanwhile: theirs is as good.
    await this.db.query(`INSERT INTO kiln_index_vectors (embedder, hash, embedding) VALUES ${rows.join(", ")} ON CONFLICT (embedder, hash) DO NOTHING`, values);
  }

  async prune(): Promise<void> {
    await this.db.query("DELETE FROM kiln_index_vectors v WHERE v.embedder = $1 AND NOT EXISTS (SELECT 1 FROM kiln_index_chunks c WHERE c.hash = v.hash)", [this.embedder]);
  }

  async nearest(query: Float32Array, limit: number, under?: string): Promise<ScoredId[]> {
    const params: unknown[] = [this.scope, this.embedder, vectorLiteral(query), limit];
    let within = "";
    if (under) {
      within = " AND (c.path = $5 OR starts_with(c.path, $6))";
      params.push(under, `${under}/`);
    }
    const rows = await this.db.query(
      `SELECT c.id, 1 - (v.embedding <=> $3::vector) AS score FROM kiln_index_chunks c JOIN kiln_index_vectors v ON v.embedder = $2 AND v.hash = c.hash
       WHERE c.scope = $1${within} ORDER BY v.embedding <=> $3::vector, c.id LIMIT $4`,
      params,
    );
    return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }));
  }
}

/** pgvector's text form of a vector: [x,y,…]. Not-a-number becomes 0, which pgvector would refuse. */
function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector, (x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;
}
