import { WorkspaceIgnore, type IgnoreRules } from "../../workspace/ignore";
import { CANDIDATES, queryTerms, scoreRows, searchTerms, wordsOf, type FieldTotals, type StoredWords } from "../bm25f";
import { chunkFile, DEFAULT_CHUNK_LIMITS, type ChunkLimits } from "../chunker";
import { chunkRowOf, hitsWithText, type ChunkRow } from "../searchHits";
import type { Embedder } from "../embedder";
import { fuse, FUSION_DEPTH, VectorFeed } from "../vectorFeed";
import { TeamVectors } from "./teamVectors";
import type { CodeChunk, CodeSearchHit, ScoredId, IndexStatus, RefreshOptions, RefreshSummary, SearchOptions, WorkspaceIndex } from "../types";
import { isIndexablePath, MAX_FILE_BYTES, readIndexable, statFile, walkWorkspace, type WalkedFile } from "../walk";
import { TeamDatabase, type TeamClient, type TeamConnection } from "./teamDatabase";
import { TeamState } from "./teamState";
import { TeamScopeWatch, type TeamScope } from "./teamScope";

/** Files sent to the server in one transaction: a few megabytes of chunks at most. */
const BATCH_FILES = 100;

export interface TeamIndexOptions {
  connection: TeamConnection;
  /** Gives the chunks vectors on the server (where it has pgvector) and ranks by meaning as well as words. */
  embedder?: Embedder;
  /** This machine's record of what it hashed and sent (teamState.ts); in memory only when absent. */
  storeDir?: string;
  ignore?: IgnoreRules;
  limits?: ChunkLimits;
  maxFileBytes?: number;
}

/** A file read from this workspace, ready to go to the server. */
interface Upload {
  path: string;
  hash: string;
  chunks: CodeChunk[];
}

/**
 * A workspace's codebase index on a team's PostgreSQL server (teamDatabase.ts), shared by everyone
 * working on the same repository and branch (teamScope.ts) and updated by whoever changes a file.
 *
 * Who wins when two people's files differ: the newer change. A file is sent when the server does
 * not have it, or has other bytes for it that were written before this file was last changed here;
 * a file a teammate changed since is left as they sent it (this workspace is then behind, and its
 * hits show the lines as they are here). A file is taken out when this workspace had it at its last
 * refresh and has it no more: a teammate's new file this workspace never had stays.
 *
 * Ranked as the workspace's own index is (bm25f.ts): PostgreSQL's full text finds the candidates,
 * the stored words score them, so the two answer alike.
 */
export class TeamIndex implements WorkspaceIndex {
  private readonly ignore: IgnoreRules;
  private readonly limits: ChunkLimits;
  private readonly maxFileBytes: number;
  private readonly state: TeamState;
  private readonly scopes: TeamScopeWatch;
  private database: Promise<TeamDatabase> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private running: Promise<RefreshSummary> | undefined;
  private readonly problems: string[] = [];
  /** The chunks' vectors: made in the background, and asked for the nearest to a query. */
  private readonly feed: VectorFeed;
  private closed = false;

  constructor(
    readonly root: string,
    private readonly options: TeamIndexOptions,
  ) {
    this.ignore = options.ignore ?? new WorkspaceIgnore(root);
    this.limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.state = new TeamState(options.storeDir);
    this.scopes = new TeamScopeWatch(root);
    this.feed = new VectorFeed(root, async () => ({ vectors: await this.vectorStore() }), this.problems);
    this.feed.embedder = options.embedder;
  }

  async refresh(options: RefreshOptions = {}): Promise<RefreshSummary> {
    this.running ??= this.serially(() => this.walkAndSend(options)).finally(() => (this.running = undefined));
    const summary = await this.running;
    if (!this.feed.embedder || !(await this.open()).hasVectors) return summary;
    // As the workspace's own index: a search answers by words (and the vectors so far) meanwhile.
    const vectors = this.feed.start();
    if (!options.waitForVectors) return summary;
    const embedded = await vectors;
    const problems = [...(summary.problems ?? []), ...this.problems.splice(0)];
    return { ...summary, embedded, ...(problems.length > 0 && { problems }) };
  }

  /** Uses another embedder from now on (undefined: words alone); the vectors of each are kept apart on the server. */
  setEmbedder(embedder: Embedder | undefined): Promise<void> {
    return this.serially(async () => {
      await this.feed.stop();
      this.feed.embedder = embedder;
    });
  }

  /** Sends these workspace-relative paths again (a watcher saw them change here, so this change is the newest). */
  refreshPaths(paths: readonly string[]): Promise<void> {
    return this.serially(async () => {
      const db = await this.open();
      const scope = await this.currentScope();
      await this.state.load();
      const uploads: Upload[] = [];
      const drops: string[] = [];
      for (const path of new Set(paths)) {
        const stat = isIndexablePath(path) && !this.ignore.isIgnored(`${this.root}/${path}`, false) ? await statFile(`${this.root}/${path}`) : undefined;
        const read = stat && (await this.read({ path, ...stat }));
        if (read) uploads.push(read);
        else if (this.state.wasSent(scope.key, path)) drops.push(path);
      }
      await this.send(db, scope, uploads, drops);
      await this.state.save();
    });
  }

  async search(query: string, options: SearchOptions = {}): Promise<CodeSearchHit[]> {
    const db = await this.open();
    const scope = await this.currentScope();
    const limit = Math.max(1, Math.floor(options.limit ?? 10));
    const under = options.under?.replace(/^\.\/?/, "").replace(/\/+$/, "") || undefined;
    const meaning = db.hasVectors && this.feed.embedder ? await this.feed.nearest(new TeamVectors(db, scope.key, this.feed.embedder.id), query, under) : undefined;
    const words = await this.byWords(db, scope, query, meaning ? Math.max(limit, FUSION_DEPTH) : limit, under);
    const ranked = meaning ? fuse([words.ranked.slice(0, FUSION_DEPTH), meaning], limit) : words.ranked.slice(0, limit);
    const absent = ranked.map((r) => r.id).filter((id) => !words.rows.has(id));
    if (absent.length > 0) {
      for (const row of await db.query("SELECT id, path, start_line, end_line, kind, symbols FROM kiln_index_chunks WHERE id = ANY($1)", [absent])) words.rows.set(Number(row.id), chunkRowOf(row));
    }
    return hitsWithText(this.root, ranked, words.rows);
  }

  async status(): Promise<IndexStatus> {
    const db = await this.open();
    const scope = await this.currentScope();
    const [row] = await db.query("SELECT (SELECT count(*) FROM kiln_index_files WHERE scope = $1) AS files, (SELECT count(*) FROM kiln_index_chunks WHERE scope = $1) AS chunks", [scope.key]);
    const embedder = this.feed.embedder;
    const vectors = embedder && db.hasVectors ? await new TeamVectors(db, scope.key, embedder.id).count() : undefined;
    return {
      files: Number(row?.files ?? 0),
      chunks: Number(row?.chunks ?? 0),
      ...(embedder && { embedder: embedder.id, vectors: vectors ?? 0 }),
      team: { server: db.server, scope: scope.key, repository: scope.repository, branch: scope.branch },
    };
  }

  /** Connects (the tables made where missing); says what was wrong, as `CodebaseIndex.load` does. */
  async load(): Promise<{ restored: boolean; problems: string[] }> {
    await this.open();
    return { restored: true, problems: this.problems.splice(0) };
  }

  /**
   * Takes this branch's index off the server, for everyone, and forgets what this machine sent: the
   * next refresh sends every file again ("Rebuild"). Other branches and repositories are untouched.
   */
  clear(): Promise<void> {
    return this.serially(async () => {
      await this.feed.stop();
      const db = await this.open();
      const scope = await this.currentScope();
      await db.transaction(async (client) => {
        await lockScope(client, scope.key);
        await client.query("DELETE FROM kiln_index_chunks WHERE scope = $1", [scope.key]);
        await client.query("DELETE FROM kiln_index_files WHERE scope = $1", [scope.key]);
        await client.query("DELETE FROM kiln_index_terms WHERE scope = $1", [scope.key]);
        await client.query("UPDATE kiln_index_totals SET docs = 0, code = 0, symbols = 0, path = 0 WHERE scope = $1", [scope.key]);
      });
      await this.state.forget(scope.key);
    });
  }

  vectorsDone(): Promise<number> {
    return this.feed.done();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.feed.stop();
    const database = this.database;
    this.database = undefined;
    if (database) await (await database.catch(() => undefined))?.close();
  }

  private async walkAndSend(options: RefreshOptions): Promise<RefreshSummary> {
    const db = await this.open();
    const scope = await this.currentScope();
    await this.state.load();
    const walked = await walkWorkspace(this.root, this.ignore, options.signal);
    let onServer = await this.filesOnServer(db, scope);
    // A branch new to the server starts as a copy of the repository's latest other branch: then only
    // the files that differ are read and sent, not the whole workspace.
    if (onServer.size === 0 && (await this.seedFrom(db, scope))) onServer = await this.filesOnServer(db, scope);
    const here = new Set(walked.map((file) => file.path));
    const drops = this.state.sent(scope.key).filter((path) => !here.has(path) && onServer.has(path));
    let uploads: Upload[] = [];
    let changed = 0;
    let done = 0;
    let chunks = 0;
    const flush = async (dropping: string[] = []) => {
      chunks = await this.send(db, scope, uploads, dropping);
      uploads = [];
    };
    try {
      await flush(drops);
      for (const file of walked) {
        if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled");
        done++;
        const hash = await this.state.hashOf(file, () => readIndexable(this.root, file.path, file.size, this.maxFileBytes).then((read) => read?.hash));
        const server = onServer.get(file.path);
        if (hash === undefined) {
          // Binary, too large or unreadable here: not this workspace's to send.
          continue;
        }
        if (server?.hash === hash) {
          this.state.markSent(scope.key, file.path);
        } else if (!server || server.updatedMs < file.mtimeMs) {
          const read = await this.read(file);
          if (read) uploads.push(read);
          if (read) changed++;
        }
        if (uploads.length >= BATCH_FILES) await flush();
        options.onProgress?.({ filesDone: done, filesTotal: walked.length, chunks });
      }
    } finally {
      await flush().finally(() => this.state.save());
    }
    const problems = this.problems.splice(0);
    return { filesDone: done, filesTotal: walked.length, chunks, changed, removed: drops.length, ...(problems.length > 0 && { problems }) };
  }

  private async filesOnServer(db: TeamDatabase, scope: TeamScope): Promise<Map<string, { hash: string; updatedMs: number }>> {
    const files = new Map<string, { hash: string; updatedMs: number }>();
    for (const row of await db.query("SELECT path, hash, extract(epoch FROM updated_at) * 1000 AS updated FROM kiln_index_files WHERE scope = $1", [scope.key])) {
      files.set(String(row.path), { hash: String(row.hash), updatedMs: Number(row.updated) });
    }
    return files;
  }

  /**
   * Copies the rows of the repository's most recently changed other branch into this empty one, on
   * the server (files keep their times, so the newest change still wins), and takes them as this
   * workspace's: a file it lacks is then taken off like one it deleted. Returns whether there was one.
   */
  private async seedFrom(db: TeamDatabase, scope: TeamScope): Promise<boolean> {
    const copied = await db.transaction(async (client) => {
      await lockScope(client, scope.key);
      // Another clone may have seeded or filled it meanwhile.
      if ((await client.query("SELECT 1 FROM kiln_index_files WHERE scope = $1 LIMIT 1", [scope.key])).length > 0) return [];
      const [source] = await client.query("SELECT scope FROM kiln_index_files WHERE starts_with(scope, $1) AND scope <> $2 GROUP BY scope ORDER BY max(updated_at) DESC, scope LIMIT 1", [
        `${scope.repository}#`,
        scope.key,
      ]);
      if (!source) return [];
      const from = String(source.scope);
      await client.query(
        `INSERT INTO kiln_index_chunks (scope, path, start_line, end_line, kind, symbols, hash, code_words, symbol_words, path_words, code_len, symbols_len, path_len)
         SELECT $2, path, start_line, end_line, kind, symbols, hash, code_words, symbol_words, path_words, code_len, symbols_len, path_len FROM kiln_index_chunks WHERE scope = $1`,
        [from, scope.key],
      );
      const files = await client.query("INSERT INTO kiln_index_files (scope, path, hash, updated_at) SELECT $2, path, hash, updated_at FROM kiln_index_files WHERE scope = $1 RETURNING path", [
        from,
        scope.key,
      ]);
      await client.query("INSERT INTO kiln_index_terms (scope, term, df) SELECT $2, term, df FROM kiln_index_terms WHERE scope = $1", [from, scope.key]);
      await client.query("UPDATE kiln_index_totals t SET docs = s.docs, code = s.code, symbols = s.symbols, path = s.path FROM kiln_index_totals s WHERE t.scope = $2 AND s.scope = $1", [
        from,
        scope.key,
      ]);
      return files.map((row) => String(row.path));
    });
    for (const path of copied) this.state.markSent(scope.key, path);
    return copied.length > 0;
  }

  /** A file's chunks, to be sent; undefined where it is not to be indexed (too large, binary, gone). */
  private async read(file: WalkedFile): Promise<Upload | undefined> {
    const read = await readIndexable(this.root, file.path, file.size, this.maxFileBytes);
    if (!read) return undefined;
    this.state.remember(file, read.hash);
    return { path: file.path, hash: read.hash, chunks: await chunkFile(file.path, read.text, this.limits) };
  }

  /**
   * Writes files' chunks and drops files, in one transaction under the scope's lock; returns the
   * scope's chunk count after. The totals move with the rows, so BM25F's statistics stay exact.
   */
  private async send(db: TeamDatabase, scope: TeamScope, uploads: readonly Upload[], drops: readonly string[]): Promise<number> {
    const docs = await db.transaction(async (client) => {
      await lockScope(client, scope.key);
      const delta: FieldTotals = { docs: 0, code: 0, symbols: 0, path: 0 };
      // Each term's change in document frequency: a chunk counts once per distinct term in any field.
      const terms = new Map<string, number>();
      const count = (words: { code: readonly string[]; symbols: readonly string[]; path: readonly string[] }, sign: 1 | -1) => {
        delta.docs += sign;
        delta.code += sign * words.code.length;
        delta.symbols += sign * words.symbols.length;
        delta.path += sign * words.path.length;
        for (const term of new Set([...words.code, ...words.symbols, ...words.path])) terms.set(term, (terms.get(term) ?? 0) + sign);
      };
      const paths = [...drops, ...uploads.map((u) => u.path)];
      if (paths.length > 0) {
        const gone = await client.query("DELETE FROM kiln_index_chunks WHERE scope = $1 AND path = ANY($2) RETURNING code_words, symbol_words, path_words", [scope.key, paths]);
        for (const row of gone) count({ code: splitWords(row.code_words), symbols: splitWords(row.symbol_words), path: splitWords(row.path_words) }, -1);
        await client.query("DELETE FROM kiln_index_files WHERE scope = $1 AND path = ANY($2)", [scope.key, drops]);
      }
      for (const upload of uploads) {
        await client.query("INSERT INTO kiln_index_files (scope, path, hash) VALUES ($1, $2, $3) ON CONFLICT (scope, path) DO UPDATE SET hash = excluded.hash, updated_at = now()", [
          scope.key,
          upload.path,
          upload.hash,
        ]);
        if (upload.chunks.length > 0) await insertChunks(client, scope.key, upload.chunks, (words) => count(words, 1));
      }
      const changed = [...terms].filter(([, n]) => n !== 0);
      if (changed.length > 0) {
        await client.query(
          `INSERT INTO kiln_index_terms (scope, term, df) SELECT $1, t, n FROM unnest($2::text[], $3::integer[]) AS u(t, n)
           ON CONFLICT (scope, term) DO UPDATE SET df = kiln_index_terms.df + excluded.df`,
          [scope.key, changed.map(([term]) => term), changed.map(([, n]) => n)],
        );
        await client.query("DELETE FROM kiln_index_terms WHERE scope = $1 AND term = ANY($2) AND df <= 0", [scope.key, changed.filter(([, n]) => n < 0).map(([term]) => term)]);
      }
      const [totals] = await client.query("UPDATE kiln_index_totals SET docs = docs + $2, code = code + $3, symbols = symbols + $4, path = path + $5 WHERE scope = $1 RETURNING docs", [
        scope.key,
        delta.docs,
        delta.code,
        delta.symbols,
        delta.path,
      ]);
      return Number(totals?.docs ?? 0);
    });
    for (const upload of uploads) this.state.markSent(scope.key, upload.path);
    for (const path of drops) this.state.unmarkSent(scope.key, path);
    return docs;
  }

  /** The chunks ranked by words (bm25f.ts), best first, with the rows to show them by. */
  private async byWords(db: TeamDatabase, scope: TeamScope, query: string, limit: number, under: string | undefined): Promise<{ ranked: ScoredId[]; rows: Map<number, ChunkRow> }> {
    const rows = new Map<number, ChunkRow>();
    const terms = queryTerms(query);
    if (!terms) return { ranked: [], rows };
    const totals = await this.totals(db, scope);
    const df = new Map<string, number>();
    for (const row of await db.query("SELECT term, df FROM kiln_index_terms WHERE scope = $1 AND term = ANY($2)", [scope.key, terms.terms])) df.set(String(row.term), Number(row.df));
    const plan = searchTerms(terms, df, totals.docs);
    if (!plan) return { ranked: [], rows };
    const words: StoredWords[] = [];
    const take = Math.max(CANDIDATES, limit);
    for (const list of [plan.all.join(" & "), ...(plan.any ? [plan.any.join(" | ")] : [])]) {
      if (rows.size >= take) break;
      const params: unknown[] = [scope.key, list, take];
      const within = under ? " AND (path = $4 OR starts_with(path, $5))" : "";
      if (under) params.push(under, `${under}/`);
      const found = await db.query(
        `SELECT id, path, start_line, end_line, kind, symbols, code_words, symbol_words, path_words FROM kiln_index_chunks
         WHERE scope = $1 AND words @@ to_tsquery('simple', $2)${within} ORDER BY ts_rank(words, to_tsquery('simple', $2), 1) DESC, id LIMIT $3`,
        params,
      );
      for (const row of found) {
        const id = Number(row.id);
        if (rows.has(id)) continue;
        rows.set(id, chunkRowOf(row));
        words.push({ id, code: String(row.code_words), symbols: String(row.symbol_words), path: String(row.path_words) });
      }
    }
    return { ranked: scoreRows(words, terms, df, totals).slice(0, limit), rows };
  }

  private async totals(db: TeamDatabase, scope: TeamScope): Promise<FieldTotals> {
    const [row] = await db.query("SELECT docs, code, symbols, path FROM kiln_index_totals WHERE scope = $1", [scope.key]);
    return { docs: Number(row?.docs ?? 0), code: Number(row?.code ?? 0), symbols: Number(row?.symbols ?? 0), path: Number(row?.path ?? 0) };
  }

  /** The branch checked out now is the one searched and written (git is asked only when HEAD or the remote changed). */
  private currentScope(): Promise<TeamScope> {
    return this.scopes.current();
  }

  /** The vectors of the branch checked out, from the embedder in use (VectorFeed asks only while there is one). */
  private async vectorStore(): Promise<TeamVectors> {
    const [db, scope] = await Promise.all([this.open(), this.currentScope()]);
    return new TeamVectors(db, scope.key, this.feed.embedder?.id ?? "");
  }

  private open(): Promise<TeamDatabase> {
    if (this.closed) return Promise.reject(new Error("the codebase index was closed"));
    this.database ??= TeamDatabase.connect(this.options.connection, this.problems);
    // A server that could not be reached is tried again at the next call.
    this.database.catch(() => (this.database = undefined));
    return this.database;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** Takes the scope's write lock (its totals row, made where missing) until the transaction ends. */
async function lockScope(client: TeamClient, scope: string): Promise<void> {
  await client.query("INSERT INTO kiln_index_totals (scope) VALUES ($1) ON CONFLICT (scope) DO NOTHING", [scope]);
  await client.query("SELECT 1 FROM kiln_index_totals WHERE scope = $1 FOR UPDATE", [scope]);
}

/** One statement for a file's chunks; `counted` is told each chunk's words. */
async function insertChunks(client: TeamClient, scope: string, chunks: readonly CodeChunk[], counted: (words: ReturnType<typeof wordsOf>) => void): Promise<void> {
  const rows = chunks.map((chunk) => {
    const words = wordsOf(chunk);
    counted(words);
    return {
      scope,
      path: chunk.path,
      start_line: chunk.startLine,
      end_line: chunk.endLine,
      kind: chunk.kind,
      symbols: JSON.stringify(chunk.symbols),
      hash: chunk.hash,
      code_words: words.code.join(" "),
      symbol_words: words.symbols.join(" "),
      path_words: words.path.join(" "),
      code_len: words.code.length,
      symbols_len: words.symbols.length,
      path_len: words.path.length,
    };
  });
  const columns = Object.keys(rows[0]!);
  const values = rows.flatMap((row) => Object.values(row));
  const placeholders = rows.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
  await client.query(`INSERT INTO kiln_index_chunks (${columns.join(", ")}) VALUES ${placeholders.join(", ")}`, values);
}

/** A stored field's terms (joined by single spaces). */
function splitWords(value: unknown): string[] {
  const text = String(value ?? "");
  return text === "" ? [] : text.split(" ");
}
