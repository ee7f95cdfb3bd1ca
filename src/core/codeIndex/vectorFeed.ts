import { createHash } from "node:crypto";
import type { Embedder } from "./embedder";
import type { ScoredId } from "./types";
import type { MissingVector } from "./vectors";
import { readLines } from "./walk";

/** Chunks sent to the embedder in one request (every provider takes this many; most take far more). */
const EMBED_BATCH = 32;
/** A chunk's text is cut to this many characters for its vector: within every embedding model's input limit. */
const EMBED_MAX_CHARS = 6000;
/** How many of each ranking reciprocal rank fusion merges. */
export const FUSION_DEPTH = 50;
/** RRF's k (Cormack, Clarke & Büttcher): a hit's share is 1 / (k + its rank) in each list. */
const FUSION_K = 60;
/** Query vectors kept, so the model asking the same query again costs no request. */
const QUERY_CACHE = 32;

/**
 * Where an index keeps its chunks' vectors: the workspace's SQLite database (vectors.ts) or a team's
 * PostgreSQL server with pgvector (team/teamVectors.ts).
 */
export interface VectorStore {
  /** Whether any chunk has a vector (a search by meaning is pointless before). */
  hasAny(): boolean | Promise<boolean>;
  /** Each chunk text that has no vector yet, once (by hash): where to read it from. */
  missing(): MissingVector[] | Promise<MissingVector[]>;
  /** Stores a batch's vectors, all of them or (on an error) none. */
  putAll(entries: readonly { hash: string; vector: Float32Array }[]): void | Promise<void>;
  /** Drops the vectors no chunk has any more. */
  prune(): void | Promise<void>;
  /** The `limit` chunks nearest the query's vector (cosine), within `under` where given. */
  nearest(query: Float32Array, limit: number, under?: string): ScoredId[] | Promise<ScoredId[]>;
}

/**
 * The embedder's side of a codebase index (codebaseIndex.ts, team/teamIndex.ts): gives the chunks
 * vectors in the background and finds the chunks nearest a query by meaning.
 *
 * The vectors are made outside the refreshes' queue: each batch's vectors are written at once, keyed
 * by the chunk text's hash, so a refresh in between changes nothing they rely on (a vector whose chunk
 * went is pruned), and a search never waits for an embedder to get through a whole workspace.
 */
export class VectorFeed {
  private current: Embedder | undefined;
  private readonly queryVectors = new Map<string, Float32Array>();
  /** The vectors being made, its stop, and whether to look again once it is through. */
  private running: Promise<number> | undefined;
  private stopper: AbortController | undefined;
  private again = false;

  constructor(
    private readonly root: string,
    private readonly open: () => Promise<{ vectors: VectorStore }>,
    /** Where an embedder's failure is said (the index's next refresh summary). */
    private readonly problems: string[],
  ) {}

  get embedder(): Embedder | undefined {
    return this.current;
  }

  set embedder(embedder: Embedder | undefined) {
    this.current = embedder;
    this.queryVectors.clear();
  }

  /**
   * Starts giving the chunks vectors, or, while that runs, has it look again when it is through
   * (chunks written since may lack one). Resolves with how many it made.
   */
  start(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const controller = new AbortController();
    this.stopper = controller;
    this.running = (async () => {
      let made = 0;
      do {
        this.again = false;
        try {
          made += await this.embedMissing(await this.open(), controller.signal);
        } catch (err) {
          // The database was closed or cleared under it: whoever did that wanted it to stop.
          if (!controller.signal.aborted) this.problems.push(`the vectors could not be saved: ${err instanceof Error ? err.message : String(err)}`);
          break;
        }
      } while (this.again && !controller.signal.aborted);
      return made;
    })().finally(() => {
      this.running = undefined;
      this.stopper = undefined;
    });
    return this.running;
  }

  /** Resolves once the chunks have their vectors (at once when nothing runs); the number made meanwhile. */
  done(): Promise<number> {
    return this.running ?? Promise.resolve(0);
  }

  async stop(): Promise<void> {
    this.stopper?.abort(new Error("cancelled"));
    await this.running?.catch(() => undefined);
  }

  /**
   * The chunks nearest the query by meaning, or undefined where there is no embedder, no vector yet,
   * or the embedder cannot answer now (the search is then by words alone, as without one).
   */
  async nearest(vectors: VectorStore, query: string, under: string | undefined): Promise<ScoredId[] | undefined> {
    const embedder = this.current;
    if (!embedder || query.trim() === "" || !(await vectors.hasAny())) return undefined;
    let vector = this.queryVectors.get(query);
    if (!vector) {
      try {
        [vector] = await embedder.embed([query]);
      } catch {
        return undefined;
      }
      if (!vector) return undefined;
      if (this.queryVectors.size >= QUERY_CACHE) this.queryVectors.delete(this.queryVectors.keys().next().value!);
      this.queryVectors.set(query, vector);
    }
    return vectors.nearest(vector, FUSION_DEPTH, under);
  }

  /**
   * Gives every chunk text without a vector one, in batches (each batch's vectors committed at once,
   * so a cancel or a crash keeps what was done). Returns how many were made. An embedder that fails is
   * said in the next summary and the index goes on by words.
   */
  private async embedMissing({ vectors }: { vectors: VectorStore }, signal: AbortSignal): Promise<number> {
    const embedder = this.current;
    if (!embedder) return 0;
    let made = 0;
    const missing = await vectors.missing();
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      if (signal.aborted) break;
      const batch: { hash: string; text: string }[] = [];
      const files = new Map<string, string[] | undefined>();
      for (const chunk of missing.slice(i, i + EMBED_BATCH)) {
        if (!files.has(chunk.path)) files.set(chunk.path, await readLines(`${this.root}/${chunk.path}`));
        const text = files
          .get(chunk.path)
          ?.slice(chunk.startLine - 1, chunk.endLine)
          .join("\n");
        // Changed since it was chunked: the next refresh chunks it again, and that chunk gets a vector.
        if (text === undefined || createHash("sha256").update(text).digest("hex") !== chunk.hash) continue;
        batch.push({ hash: chunk.hash, text: `${chunk.path}\n${text}`.slice(0, EMBED_MAX_CHARS) });
      }
      if (batch.length === 0) continue;
      let embedded: Float32Array[];
      try {
        // A signal of its own per request, following the feed's: an SDK that leaves its abort
        // listener on the signal it was given would otherwise pile up one per batch on the feed's.
        embedded = await embedder.embed(
          batch.map((b) => b.text),
          AbortSignal.any([signal]),
        );
      } catch (err) {
        if (!signal.aborted) this.problems.push(`${err instanceof Error ? err.message : String(err)}; codebase_search ranks by words alone until the embedder answers`);
        break;
      }
      if (signal.aborted) break;
      await vectors.putAll(batch.map((b, k) => ({ hash: b.hash, vector: embedded[k]! })));
      made += batch.length;
    }
    await vectors.prune();
    return made;
  }
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each hit scores Σ 1 / (k + its rank) over
 * the rankings that have it, so one found by words and by meaning rises above one found by either, and
 * neither ranking's scale matters. Equal scores by id.
 */
export function fuse(rankings: readonly (readonly ScoredId[])[], limit: number): ScoredId[] {
  const fused = new Map<number, number>();
  for (const ranking of rankings) ranking.forEach(({ id }, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (FUSION_K + rank + 1)));
  return [...fused]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit);
}
