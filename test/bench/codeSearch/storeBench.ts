/**
 * Issue 19: which embedded store keeps the codebase index between runs, measured rather than guessed.
 * Every candidate gets the same chunks (chunker.ts, cut once here) and the same words (terms.ts, so
 * `hashPassword` is hash, password and hashpassword for all of them), and ranks with its own
 * full-text ranking:
 * - kiln-json: Kiln's FullTextIndex (BM25F) and the chunks' metadata in one JSON snapshot, written to
 *   a temp file and renamed over the last one;
 * - pglite: Postgres 18 in WASM in a folder, a tsvector column (symbols weighted A, path B, code D)
 *   under a GIN index, ts_rank (any term) or ts_rank_cd (all terms); pgvector loaded, for vectors later;
 * - sqlite-wasm-file: SQLite FTS5 through node-sqlite3-wasm (WASM, its own VFS on Node's fs: the
 *   database is a file, updated in place), bm25() with the same field weights as Kiln's;
 * - sqlite-wasm-memory: the same through the official @sqlite.org/sqlite-wasm, which in Node has no
 *   file VFS: the database lives in memory and is exported whole to a file;
 * - node-sqlite: the same through node:sqlite, built into Node ≥ 22.13; run here with a Node 24 from
 *   npm (.cache/store-bench), as the CLI's Node 20 has no node:sqlite;
 * - lancedb: LanceDB's own full-text index (native addon, installed into .cache/store-bench on first
 *   use rather than as a devDependency: its Linux binary alone is 154 MB, too much for every npm ci).
 * sql.js is not among them: its npm build has no FTS5 ("no such module: fts5").
 *
 * Numbers per candidate, each phase in a child process of its own so its peak RSS is its own: build
 * (all chunks of 10,000 node_modules files, persisted), size on disk, reopen (load the module, open
 * the store, answer a first query: what a restart of VS Code costs), query p50/p95 over evalSet.json's
 * queries at that size, one changed file's chunks replaced (and on disk), recall@5 on the small
 * corpus copyCorpus gives, and the bytes the package would ship. `KILN_STORE_BENCH_FILES=300` makes a
 * quick run; `KILN_STORE_BENCH_ONLY=pglite,kiln-json` picks candidates. Prints numbers; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { closeSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { deflateRawSync } from "node:zlib";
import type { PGlite as PGliteClass } from "@electric-sql/pglite";
import { chunkFile } from "../../../src/core/codeIndex/chunker";
import { FullTextIndex, type SavedFullTextIndex } from "./jsFullText";
import { pathTerms, termsOf } from "../../../src/core/codeIndex/terms";
import type { ChunkKind, CodeChunk } from "../../../src/core/codeIndex/types";
import { walkWorkspace } from "../../../src/core/codeIndex/walk";
import { WorkspaceIgnore } from "../../../src/core/workspace/ignore";
import { ASKED, copyCorpus, DISTRACTORS } from "./corpus";
import { largeWorkspace } from "./indexBench";
import type { EvalSet } from "./makeEvalSet";

const CHILD_ENV = "KILN_STORE_BENCH_CHILD";
const WORKSPACE_FILES = Number(process.env.KILN_STORE_BENCH_FILES ?? 10_000);
const LANCEDB_VERSION = "0.31.0";
const NODE_SQLITE_MAJOR = 24;
/** As CodebaseIndex: larger files are left out, and so are files with a NUL in their first 8000 bytes. */
const MAX_FILE_BYTES = 1024 * 1024;
const LIMIT = 10;
const CHILD_TIMEOUT_MS = 10 * 60_000;

// ─── Chunks, as every candidate gets them ─────────────────────────────────────────────────────────

/** A chunk as the chunker cut it, less its file's path; its text only feeds the words (no store keeps it: hits are read from disk). */
type BenchChunk = Omit<CodeChunk, "path">;

/** One line of a chunks file: a file and its chunks. */
interface ChunkedFile {
  path: string;
  chunks: BenchChunk[];
}

interface Hit {
  path: string;
  symbols: string[];
}

/**
 * Which chunks a query matches. "any" of its terms is what a model's wordy query needs (a word the
 * code does not use must not empty the answer) and leaves everything to the ranking; "all" is how
 * SQL engines are mostly used (FTS5's and plainto_tsquery's default) and flatters this eval set,
 * whose queries are taken from the chunks they should find.
 */
type Match = "any" | "all";
const MATCHES: readonly Match[] = ["any", "all"];

/** The words of a chunk's three fields, as Kiln's tokenizer cuts them, space-separated for an engine's own tokenizer. */
function wordsOf(path: string, chunk: BenchChunk): { code: string; symbols: string; path: string } {
  return { code: termsOf(chunk.text).join(" "), symbols: chunk.symbols.flatMap((s) => termsOf(s)).join(" "), path: pathTerms(path).join(" ") };
}

/** A query's distinct terms, as Kiln's own search takes them. */
function queryTerms(query: string): string[] {
  return [...new Set(termsOf(query))];
}

/** Chunks every indexable file of `workspace` (as CodebaseIndex would) into a JSON-lines file. */
async function chunkWorkspace(workspace: string, out: string): Promise<{ files: number; chunks: number; ms: number }> {
  const started = performance.now();
  const walked = await walkWorkspace(workspace, new WorkspaceIgnore(workspace));
  const fd = openSync(out, "w");
  let files = 0;
  let chunks = 0;
  try {
    for (const file of walked) {
      if (file.size > MAX_FILE_BYTES) continue;
      const bytes = readFileSync(join(workspace, file.path));
      if (bytes.subarray(0, 8000).includes(0)) continue;
      const cut = await chunkFile(file.path, new TextDecoder().decode(bytes));
      if (cut.length === 0) continue;
      const line: ChunkedFile = {
        path: file.path,
        chunks: cut.map(({ path: _path, ...chunk }) => chunk),
      };
      writeSync(fd, `${JSON.stringify(line)}\n`);
      files++;
      chunks += cut.length;
    }
  } finally {
    closeSync(fd);
  }
  return { files, chunks, ms: performance.now() - started };
}

async function* readChunked(file: string): AsyncGenerator<ChunkedFile> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as ChunkedFile;
}

// ─── The stores ───────────────────────────────────────────────────────────────────────────────────

interface Store {
  /** Something worth saying about the store once built (pgvector's check). */
  readonly note?: string;
  /** Adds a file's chunks under these ids (a build). */
  add(file: ChunkedFile, ids: readonly number[]): Promise<void>;
  /** Ends a build: indexes made, everything on disk. */
  finish(): Promise<void>;
  /**
   * The best `limit` chunks for the query, by the store's own ranking, among those with any of its
   * terms or with all of them (kiln-json has its own rule, at least half, and ignores `match`).
   */
  search(query: string, limit: number, match: Match): Promise<Hit[]>;
  /** Replaces a file's chunks with these, on disk when it returns; `inMemoryMs` where that part is apart from the write. */
  replace(file: ChunkedFile, ids: readonly number[]): Promise<{ inMemoryMs?: number }>;
  close(): Promise<void>;
}

interface Candidate {
  name: string;
  /** Matches by its own rule, whatever `match` asks (kiln-json). */
  ownMatch?: boolean;
  /** How it ranks and persists, for the table's legend. */
  what: string;
  /** Where it can run: VS Code's extension host (Electron's Node) and the CLI's Node 20. */
  runsWhere: string;
  /** What its children's environment needs besides the bench's. */
  env?: () => Record<string, string>;
  /** Another Node to run its children with, or why there is none. */
  node?: (root: string) => string;
  create(dir: string, root: string): Promise<Store>;
  open(dir: string, root: string): Promise<Store>;
  /** The files the VSIX would ship for it, beyond the JS bundle of `bundles`. */
  shipped(root: string): { bundles: string[]; resolveDir: string; external?: string[]; files: string[]; note?: string };
}

// kiln-json: Kiln's own index and a JSON snapshot.

/** A chunk as the snapshot keeps it: [id, startLine, endLine, kind, symbols, hash]. */
type SavedChunk = [number, number, number, ChunkKind, string[], string];
interface Snapshot {
  version: 1;
  files: [string, SavedChunk[]][];
  fullText: SavedFullTextIndex;
}

const SNAPSHOT = "index.json";

class JsonStore implements Store {
  private readonly files = new Map<string, SavedChunk[]>();
  private readonly byId = new Map<number, Hit>();

  constructor(
    private readonly dir: string,
    private readonly index = new FullTextIndex(),
  ) {}

  static async open(dir: string): Promise<JsonStore> {
    const snapshot = JSON.parse(await readFile(join(dir, SNAPSHOT), "utf8")) as Snapshot;
    const store = new JsonStore(dir, FullTextIndex.fromJSON(snapshot.fullText));
    for (const [path, chunks] of snapshot.files) store.remember(path, chunks);
    return store;
  }

  async add(file: ChunkedFile, ids: readonly number[]): Promise<void> {
    const saved = file.chunks.map((c, i): SavedChunk => {
      this.index.add(ids[i]!, { code: c.text, symbols: c.symbols, path: file.path });
      return [ids[i]!, c.startLine, c.endLine, c.kind, c.symbols, c.hash];
    });
    this.remember(file.path, saved);
  }

  finish(): Promise<void> {
    return this.save();
  }

  async search(query: string, limit: number): Promise<Hit[]> {
    // Its own rule whatever `match` asks: at least half the query's terms (fullText.ts).
    return this.index.search(query, { limit }).map(({ id }) => this.byId.get(id)!);
  }

  async replace(file: ChunkedFile, ids: readonly number[]): Promise<{ inMemoryMs?: number }> {
    const started = performance.now();
    for (const [id] of this.files.get(file.path) ?? []) {
      this.index.remove(id);
      this.byId.delete(id);
    }
    await this.add(file, ids);
    const inMemoryMs = performance.now() - started;
    await this.save();
    return { inMemoryMs };
  }

  async close(): Promise<void> {}

  private remember(path: string, chunks: SavedChunk[]): void {
    this.files.set(path, chunks);
    for (const chunk of chunks) this.byId.set(chunk[0], { path, symbols: chunk[4] });
  }

  private async save(): Promise<void> {
    const snapshot: Snapshot = { version: 1, files: [...this.files], fullText: this.index.toJSON() };
    const target = join(this.dir, SNAPSHOT);
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(snapshot));
    await rename(temp, target);
  }
}

// The SQLite FTS5 candidates: one schema, three ways to reach SQLite.

type SqlValue = string | number | null;
interface SqlStatement {
  run(params: SqlValue[]): void;
  all(params: SqlValue[]): Record<string, unknown>[];
  finalize(): void;
}
interface SqlDb {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  /** Writes what is not yet on disk (only the in-memory build needs to). */
  persist(): Promise<void>;
  close(): void;
}

const FTS5_SCHEMA = `
  CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER, end_line INTEGER, kind TEXT, symbols TEXT, hash TEXT);
  CREATE INDEX chunks_path ON chunks (path);
  CREATE VIRTUAL TABLE chunks_fts USING fts5(code, symbols, path, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0');
`;

/**
 * FTS5 with the chunks' words in three columns and bm25() weighting them as Kiln's BM25F does
 * (code 1, symbols 3, path 1.5). Contentless (the words are not stored twice), with deletes. A query
 * matches any of its terms; bm25() ranks.
 */
class Fts5Store implements Store {
  private readonly insertChunk: SqlStatement;
  private readonly insertWords: SqlStatement;
  private readonly query: SqlStatement;

  constructor(
    private readonly db: SqlDb,
    building: boolean,
  ) {
    if (building) db.exec(`${FTS5_SCHEMA} BEGIN`);
    this.insertChunk = db.prepare("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?)");
    this.insertWords = db.prepare("INSERT INTO chunks_fts (rowid, code, symbols, path) VALUES (?, ?, ?, ?)");
    this.query = db.prepare(
      `SELECT c.path, c.symbols FROM (SELECT rowid AS id, bm25(chunks_fts, 1.0, 3.0, 1.5) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?) r
       JOIN chunks c ON c.id = r.id ORDER BY r.score, c.id`,
    );
  }

  async add(file: ChunkedFile, ids: readonly number[]): Promise<void> {
    file.chunks.forEach((c, i) => {
      const words = wordsOf(file.path, c);
      this.insertChunk.run([ids[i]!, file.path, c.startLine, c.endLine, c.kind, c.symbols.join("\n"), c.hash]);
      this.insertWords.run([ids[i]!, words.code, words.symbols, words.path]);
    });
  }

  async finish(): Promise<void> {
    this.db.exec("COMMIT; INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize');");
    await this.db.persist();
  }

  async search(query: string, limit: number, match: Match): Promise<Hit[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const rows = this.query.all([terms.map((t) => `"${t}"`).join(match === "any" ? " OR " : " AND "), limit]);
    return rows.map((r) => ({ path: String(r.path), symbols: String(r.symbols).split("\n") }));
  }

  async replace(file: ChunkedFile, ids: readonly number[]): Promise<{ inMemoryMs?: number }> {
    this.db.exec("BEGIN");
    const del = this.db.prepare("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE path = ?)");
    del.run([file.path]);
    del.finalize();
    const delChunks = this.db.prepare("DELETE FROM chunks WHERE path = ?");
    delChunks.run([file.path]);
    delChunks.finalize();
    await this.add(file, ids);
    this.db.exec("COMMIT");
    await this.db.persist();
    return {};
  }

  async close(): Promise<void> {
    for (const statement of [this.insertChunk, this.insertWords, this.query]) statement.finalize();
    this.db.close();
  }
}

const DB_FILE = "index.sqlite";

/** node-sqlite3-wasm: SQLite in WASM with a VFS on Node's fs, so the database is a real file. */
async function openNodeSqlite3Wasm(dir: string): Promise<SqlDb> {
  // CommonJS: its exports come as the default export of an import().
  const loaded = (await import(moduleName("node-sqlite3-wasm"))) as typeof import("node-sqlite3-wasm") & { default?: typeof import("node-sqlite3-wasm") };
  const { Database } = loaded.default ?? loaded;
  const db = new Database(join(dir, DB_FILE));
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql);
      return {
        run: (params) => void statement.run(params),
        all: (params) => statement.all(params) as Record<string, unknown>[],
        finalize: () => statement.finalize(),
      };
    },
    persist: async () => {},
    close: () => db.close(),
  };
}

/** @sqlite.org/sqlite-wasm: the official WASM build; in Node it has no file VFS, so an in-memory database exported whole. */
async function openOfficialSqliteWasm(dir: string, existing: boolean): Promise<SqlDb> {
  const init = ((await import(moduleName("@sqlite.org/sqlite-wasm"))) as typeof import("@sqlite.org/sqlite-wasm")).default;
  const sqlite3 = await init();
  const db = new sqlite3.oo1.DB(":memory:");
  const file = join(dir, DB_FILE);
  if (existing) {
    const buffer = await readFile(file);
    // A plain Uint8Array: allocFromTypedArray does not take a Buffer.
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
    const pointer = sqlite3.wasm.allocFromTypedArray(bytes);
    const flags = sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE;
    const rc = sqlite3.capi.sqlite3_deserialize(db.pointer!, "main", pointer, bytes.length, bytes.length, flags);
    if (rc !== 0) throw new Error(`sqlite3_deserialize failed: ${rc}`);
  }
  return {
    exec: (sql) => void db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql);
      return {
        run: (params) => void statement.bind(params).stepReset(),
        all: (params) => {
          statement.bind(params);
          const rows: Record<string, unknown>[] = [];
          while (statement.step()) rows.push(statement.get({}));
          statement.reset();
          return rows;
        },
        finalize: () => void statement.finalize(),
      };
    },
    persist: async () => {
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, sqlite3.capi.sqlite3_js_db_export(db.pointer!));
      await rename(temp, file);
    },
    close: () => db.close(),
  };
}

/** The few calls of node:sqlite used here (Node 20's types do not have it). */
interface NodeSqliteModule {
  DatabaseSync: new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...params: SqlValue[]): unknown; all(...params: SqlValue[]): Record<string, unknown>[] };
    close(): void;
  };
}

async function openNodeSqlite(dir: string): Promise<SqlDb> {
  const { DatabaseSync } = (await import(moduleName("node:sqlite"))) as NodeSqliteModule;
  const db = new DatabaseSync(join(dir, DB_FILE));
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql);
      return { run: (params) => void statement.run(...params), all: (params) => statement.all(...params), finalize: () => {} };
    },
    persist: async () => {},
    close: () => db.close(),
  };
}

// pglite: Postgres in WASM.

/**
 * One row per chunk with its words in a tsvector (symbols weight A, path B, code D) under a GIN
 * index, ranked with the weights in Kiln's proportions (code 1, path 1.5, symbols 3). All terms:
 * ts_rank_cd normalised by the log of the chunk's length. Any term: ts_rank, not normalised, as
 * ts_rank_cd (cover density) ranks OR'd terms poorly: on the eval set, recall@5 doc/name 0.14/0.30
 * against ts_rank's 0.86/0.92 (normalisations 1, 2 and 32 were no better for either). Neither
 * knows how rare a term is (no IDF), which BM25 does.
 */
class PgliteStore implements Store {
  private pending: { id: number; path: string; chunk: BenchChunk }[] = [];

  private constructor(
    private readonly db: PGliteClass,
    readonly note?: string,
  ) {}

  static async connect(dir: string, building: boolean): Promise<PgliteStore> {
    const { PGlite } = (await import(moduleName("@electric-sql/pglite"))) as typeof import("@electric-sql/pglite");
    const { vector } = (await import(moduleName("@electric-sql/pglite-pgvector"))) as typeof import("@electric-sql/pglite-pgvector");
    const db = await PGlite.create(dir, { extensions: { vector } });
    if (!building) return new PgliteStore(db);
    await db.exec(`
      CREATE EXTENSION IF NOT EXISTS vector;
      CREATE TABLE chunks (id integer PRIMARY KEY, path text NOT NULL, start_line integer, end_line integer, kind text, symbols text, hash text, words tsvector NOT NULL);
    `);
    // Vectors are for later; that pgvector is there to take them is checked now.
    const check = await db.query<{ version: string; d: number }>("SELECT extversion AS version, '[1,2,3]'::vector <=> '[1,2,4]'::vector AS d FROM pg_extension WHERE extname = 'vector'");
    const row = check.rows[0];
    return new PgliteStore(db, row ? `pgvector ${row.version} loaded (a cosine distance answered: ${row.d.toFixed(4)})` : "pgvector did not load");
  }

  async add(file: ChunkedFile, ids: readonly number[]): Promise<void> {
    file.chunks.forEach((chunk, i) => this.pending.push({ id: ids[i]!, path: file.path, chunk }));
    if (this.pending.length >= 2000) await this.flush(this.db);
  }

  async finish(): Promise<void> {
    await this.flush(this.db);
    await this.db.exec("CREATE INDEX chunks_words ON chunks USING gin (words); CREATE INDEX chunks_path ON chunks (path); ANALYZE chunks; CHECKPOINT;");
  }

  async search(query: string, limit: number, match: Match): Promise<Hit[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const result = await this.db.query<{ path: string; symbols: string }>(
      `SELECT path, symbols FROM chunks, to_tsquery('simple', $1) q WHERE words @@ q
       ORDER BY ${match === "any" ? "ts_rank" : "ts_rank_cd"}('{0.1, 0.1, 0.15, 0.3}', words, q, ${match === "any" ? 0 : 1}) DESC, id LIMIT $2`,
      [terms.map((t) => `'${t}'`).join(match === "any" ? " | " : " & "), limit],
    );
    return result.rows.map((r) => ({ path: r.path, symbols: r.symbols.split("\n") }));
  }

  async replace(file: ChunkedFile, ids: readonly number[]): Promise<{ inMemoryMs?: number }> {
    await this.db.transaction(async (tx) => {
      await tx.query("DELETE FROM chunks WHERE path = $1", [file.path]);
      file.chunks.forEach((chunk, i) => this.pending.push({ id: ids[i]!, path: file.path, chunk }));
      await this.flush(tx);
    });
    return {};
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  private async flush(db: Pick<PGliteClass, "query">): Promise<void> {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    const words = rows.map((r) => wordsOf(r.path, r.chunk));
    await db.query(
      `INSERT INTO chunks (id, path, start_line, end_line, kind, symbols, hash, words)
       SELECT id, path, s, e, k, y, h, setweight(to_tsvector('simple', sw), 'A') || setweight(to_tsvector('simple', pw), 'B') || to_tsvector('simple', cw)
       FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) AS t(id, path, s, e, k, y, h, sw, pw, cw)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.path),
        rows.map((r) => r.chunk.startLine),
        rows.map((r) => r.chunk.endLine),
        rows.map((r) => r.chunk.kind),
        rows.map((r) => r.chunk.symbols.join("\n")),
        rows.map((r) => r.chunk.hash),
        words.map((w) => w.symbols),
        words.map((w) => w.path),
        words.map((w) => w.code),
      ],
    );
  }
}

// lancedb: its own full-text index (Rust, native addon).

/** The few calls of @lancedb/lancedb used here; it is installed outside the project (.cache/store-bench). */
interface LanceModule {
  connect(uri: string): Promise<LanceConnection>;
  Index: { fts(options: Record<string, unknown>): unknown };
  MultiMatchQuery: new (query: string, columns: string[], options: { boosts: number[]; operator: "AND" | "OR" }) => unknown;
}
interface LanceConnection {
  createTable(name: string, rows: Record<string, unknown>[]): Promise<LanceTable>;
  openTable(name: string): Promise<LanceTable>;
  close(): void;
}
interface LanceTable {
  add(rows: Record<string, unknown>[]): Promise<unknown>;
  delete(predicate: string): Promise<unknown>;
  createIndex(column: string, options: { config: unknown }): Promise<void>;
  optimize(options: { cleanupOlderThan: Date }): Promise<unknown>;
  search(query: unknown, queryType: string): { select(columns: string[]): { limit(n: number): { toArray(): Promise<Record<string, unknown>[]> } } };
  close(): void;
}

function lanceDir(root: string): string {
  return join(root, ".cache", "store-bench");
}

async function loadLance(root: string): Promise<LanceModule> {
  const entry = join(lanceDir(root), "node_modules/@lancedb/lancedb/dist/index.js");
  if (!existsSync(entry)) throw new Error(`LanceDB is not installed in ${lanceDir(root)}`);
  return (await import(pathToFileURL(entry).href)) as LanceModule;
}

/** Three word columns, each with an FTS index (whitespace tokenizer: the words are Kiln's already), queried together with Kiln's field boosts. */
class LanceStore implements Store {
  private pending: Record<string, unknown>[] = [];

  private constructor(
    private readonly lance: LanceModule,
    private readonly db: LanceConnection,
    private table: LanceTable | undefined,
  ) {}

  static async connect(dir: string, root: string, building: boolean): Promise<LanceStore> {
    const lance = await loadLance(root);
    const db = await lance.connect(dir);
    return new LanceStore(lance, db, building ? undefined : await db.openTable("chunks"));
  }

  async add(file: ChunkedFile, ids: readonly number[]): Promise<void> {
    file.chunks.forEach((c, i) => {
      const words = wordsOf(file.path, c);
      this.pending.push({
        id: ids[i]!,
        path: file.path,
        start_line: c.startLine,
        end_line: c.endLine,
        kind: c.kind,
        symbols: c.symbols.join("\n"),
        hash: c.hash,
        code_words: words.code,
        symbol_words: words.symbols,
        path_words: words.path,
      });
    });
    if (this.pending.length >= 20_000) await this.flush();
  }

  async finish(): Promise<void> {
    await this.flush();
    for (const column of ["code_words", "symbol_words", "path_words"]) {
      const config = this.lance.Index.fts({ baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false });
      await this.table!.createIndex(column, { config });
    }
    await this.table!.optimize({ cleanupOlderThan: new Date() });
  }

  async search(query: string, limit: number, match: Match): Promise<Hit[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const operator = match === "any" ? "OR" : "AND";
    const fts = new this.lance.MultiMatchQuery(terms.join(" "), ["code_words", "symbol_words", "path_words"], { boosts: [1, 3, 1.5], operator });
    const rows = await this.table!.search(fts, "fts").select(["path", "symbols"]).limit(limit).toArray();
    return rows.map((r) => ({ path: String(r.path), symbols: String(r.symbols).split("\n") }));
  }

  async replace(file: ChunkedFile, ids: readonly number[]): Promise<{ inMemoryMs?: number }> {
    await this.table!.delete(`path = '${file.path.replace(/'/g, "''")}'`);
    await this.add(file, ids);
    await this.flush();
    return {};
  }

  async close(): Promise<void> {
    this.table?.close();
    this.db.close();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    if (this.table) await this.table.add(rows);
    else this.table = await this.db.createTable("chunks", rows);
  }
}

/** A module named at run time, so the bench's bundle leaves it to Node (WASM files are found beside their package's JS). */
function moduleName(name: string): string {
  return name;
}

const WASM_BOTH = "yes (WASM: one build, Electron and Node 20 alike)";

const CANDIDATES: Candidate[] = [
  {
    name: "kiln-json",
    ownMatch: true,
    what: "Kiln's FullTextIndex (BM25F) + chunk metadata as one JSON snapshot, temp file renamed over the last",
    runsWhere: "yes (plain JS)",
    create: async (dir) => new JsonStore(dir),
    open: (dir) => JsonStore.open(dir),
    shipped: () => ({ bundles: [], resolveDir: ".", files: [], note: "already in Kiln's bundle" }),
  },
  {
    name: "pglite",
    what: "@electric-sql/pglite 0.5.14 (Postgres 18, WASM) in a folder: tsvector + GIN, ts_rank (any) / ts_rank_cd (all); pgvector loaded",
    runsWhere: WASM_BOTH,
    create: (dir) => PgliteStore.connect(dir, true),
    open: (dir) => PgliteStore.connect(dir, false),
    shipped: (root) => {
      const dist = join(root, "node_modules/@electric-sql/pglite/dist");
      return {
        bundles: ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"],
        resolveDir: root,
        files: ["pglite.wasm", "pglite.data", "initdb.wasm"].map((f) => join(dist, f)).concat(join(root, "node_modules/@electric-sql/pglite-pgvector/dist/vector.tar.gz")),
      };
    },
  },
  {
    name: "sqlite-wasm-file",
    what: "SQLite FTS5 via node-sqlite3-wasm 0.8.60 (WASM, file VFS): contentless FTS5, bm25() weighted 1/3/1.5",
    runsWhere: WASM_BOTH,
    create: async (dir) => new Fts5Store(await openNodeSqlite3Wasm(dir), true),
    open: async (dir) => new Fts5Store(await openNodeSqlite3Wasm(dir), false),
    shipped: (root) => ({ bundles: ["node-sqlite3-wasm"], resolveDir: root, files: [join(root, "node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm")] }),
  },
  {
    name: "sqlite-wasm-memory",
    what: "SQLite FTS5 via @sqlite.org/sqlite-wasm 3.54.1 (official WASM): in memory, exported whole to a file",
    runsWhere: `${WASM_BOTH}; its package.json asks for Node ≥ 22 but it ran on this Node 20`,
    create: async (dir) => new Fts5Store(await openOfficialSqliteWasm(dir, false), true),
    open: async (dir) => new Fts5Store(await openOfficialSqliteWasm(dir, true), false),
    shipped: (root) => ({ bundles: ["@sqlite.org/sqlite-wasm"], resolveDir: root, files: [join(root, "node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm")] }),
  },
  {
    name: "node-sqlite",
    what: `SQLite FTS5 via node:sqlite (built into Node ≥ 22.13), measured on Node ${NODE_SQLITE_MAJOR}: the same schema and query`,
    runsWhere: "Electron only where its Node is ≥ 22.13 and built with SQLite; not the CLI's Node 20, nor code-server 4.100's Node 20",
    node: nodeWithSqlite,
    create: async (dir) => new Fts5Store(await openNodeSqlite(dir), true),
    open: async (dir) => new Fts5Store(await openNodeSqlite(dir), false),
    shipped: () => ({ bundles: [], resolveDir: ".", files: [], note: "built into the runtime" }),
  },
  {
    name: "lancedb",
    what: `@lancedb/lancedb ${LANCEDB_VERSION} (Rust, native N-API addon): FTS index per word column, MultiMatchQuery boosted 1/3/1.5`,
    runsWhere: "native N-API addon: no rebuild per Electron ABI, but one binary per platform (7 on npm); ran on this Node 20, once given LANCE_CPU_THREADS=4 (its index build hangs on 2 cores)",
    node: (root) => {
      ensureLance(root);
      return process.execPath;
    },
    // With its default (a thread per core) its FTS index build hung on this 2-core machine at 74k
    // chunks, twice: every thread parked, no CPU used, for 8 minutes, until killed. 4 threads finish.
    env: () => ({ LANCE_CPU_THREADS: process.env.LANCE_CPU_THREADS ?? String(Math.max(4, availableParallelism())) }),
    create: (dir, root) => LanceStore.connect(dir, root, true),
    open: (dir, root) => LanceStore.connect(dir, root, false),
    shipped: (root) => {
      const base = join(lanceDir(root), "node_modules/@lancedb");
      const binaries = existsSync(base) ? readdirSync(base).filter((d) => d.startsWith("lancedb-")) : [];
      return {
        bundles: ["@lancedb/lancedb"],
        resolveDir: lanceDir(root),
        external: ["@lancedb/lancedb-*", "@huggingface/transformers", "openai"],
        files: binaries.flatMap((d) =>
          readdirSync(join(base, d))
            .filter((f) => f.endsWith(".node"))
            .map((f) => join(base, d, f)),
        ),
        // Measured from npm for 0.31.0, unpacked: darwin-arm64 111 MB, linux-arm64-gnu 142 MB, win32-x64-msvc 166 MB.
        note: `the .node here is ${binaries.join(", ")}'s; a universal VSIX ships all 7 (darwin-arm64 111 MB, win32-x64 166 MB…), or one VSIX per platform`,
      };
    },
  },
];

/** A Node with node:sqlite: KILN_BENCH_NODE, else a Node 24 unpacked from npm into .cache/store-bench once. */
function nodeWithSqlite(root: string): string {
  if (process.env.KILN_BENCH_NODE) return process.env.KILN_BENCH_NODE;
  const dir = join(root, ".cache", "store-bench", `node-${NODE_SQLITE_MAJOR}`);
  const binary = join(dir, "bin", "node");
  if (existsSync(binary)) return binary;
  if (process.platform !== "linux" && process.platform !== "darwin") throw new Error(`no Node ${NODE_SQLITE_MAJOR} here: set KILN_BENCH_NODE to one`);
  console.log(`  (fetching node-${process.platform}-${process.arch}@${NODE_SQLITE_MAJOR} from npm into ${dir}, once)`);
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync("npm", ["pack", `node-${process.platform}-${process.arch}@${NODE_SQLITE_MAJOR}`, "--pack-destination", dir, "--silent"], { encoding: "utf8" });
  const tarball = pack.stdout.trim().split("\n").at(-1);
  if (pack.status !== 0 || !tarball) throw new Error(`npm pack failed: ${pack.stderr.slice(-500)}`);
  const untar = spawnSync("tar", ["xzf", join(dir, tarball), "-C", dir, "--strip-components=1", "package/bin/node"], { encoding: "utf8" });
  rmSync(join(dir, tarball), { force: true });
  if (untar.status !== 0 || !existsSync(binary)) throw new Error(`could not unpack ${tarball}: ${untar.stderr.slice(-500)}`);
  return binary;
}

/** LanceDB into .cache/store-bench once (not a devDependency: 154 MB of native binary for every npm ci). */
function ensureLance(root: string): void {
  const dir = lanceDir(root);
  if (existsSync(join(dir, "node_modules/@lancedb/lancedb/package.json"))) return;
  console.log(`  (installing @lancedb/lancedb@${LANCEDB_VERSION} into ${dir}, once: about 190 MB)`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{ "name": "kiln-store-bench", "private": true }\n');
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", `@lancedb/lancedb@${LANCEDB_VERSION}`], { cwd: dir, encoding: "utf8" });
  if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr.slice(-500)}`);
}

// ─── The child: one candidate, one phase ──────────────────────────────────────────────────────────

interface ChildJob {
  candidate: string;
  phase: "build" | "open" | "quality";
  root: string;
  dir: string;
  chunks: string;
  /** For "open": the changed file's new chunks (JSON of a ChunkedFile) and the first id they take. */
  changed?: string;
  nextId?: number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const rssMB = () => process.memoryUsage().rss / 2 ** 20;
const peakMB = () => process.resourceUsage().maxRSS / 1024;

async function buildFrom(candidate: Candidate, job: ChildJob): Promise<{ store: Store; files: number; chunks: number }> {
  const store = await candidate.create(job.dir, job.root);
  let nextId = 1;
  let files = 0;
  for await (const file of readChunked(job.chunks)) {
    const ids = file.chunks.map(() => nextId++);
    await store.add(file, ids);
    files++;
  }
  await store.finish();
  return { store, files, chunks: nextId - 1 };
}

async function child(job: ChildJob): Promise<Record<string, unknown>> {
  // What the child holds before any store: Node and the bench's bundle (every section of it).
  const floorMB = rssMB();
  const candidate = CANDIDATES.find((c) => c.name === job.candidate)!;
  const set = JSON.parse(readFileSync(join(job.root, "test/bench/codeSearch/evalSet.json"), "utf8")) as EvalSet;
  if (job.phase === "build") {
    const started = performance.now();
    const { store, files, chunks } = await buildFrom(candidate, job);
    const buildMs = performance.now() - started;
    await store.close();
    return { files, chunks, buildMs, peakMB: peakMB(), floorMB, note: store.note };
  }
  if (job.phase === "quality") {
    const { store } = await buildFrom(candidate, job);
    const out: Record<string, number> = {};
    for (const match of MATCHES) {
      for (const kind of ["doc", "name"] as const) {
        const queries = set.queries.filter((q) => q.kind === kind);
        let found5 = 0;
        let reciprocal = 0;
        for (const q of queries) {
          const hits = await store.search(q.query, LIMIT, match);
          const at = hits.findIndex((h) => h.path === q.path && h.symbols.includes(q.symbol));
          if (at >= 0 && at < 5) found5++;
          if (at >= 0) reciprocal += 1 / (at + 1);
        }
        out[`${match}.${kind}.recall5`] = found5 / queries.length;
        out[`${match}.${kind}.mrr`] = reciprocal / queries.length;
      }
    }
    await store.close();
    return out;
  }
  // open: a restart (load the module, open the store, answer a query), then queries, then a changed file.
  const started = performance.now();
  const store = await candidate.open(job.dir, job.root);
  const openedMs = performance.now() - started;
  await store.search(set.queries[0]!.query, LIMIT, "any");
  const openMs = performance.now() - started;
  const openRssMB = rssMB();
  // Once through untimed, so the numbers are of a store in use (JIT, caches), not of its first minute.
  for (const q of set.queries) await store.search(q.query, LIMIT, "any");
  const latency: Record<string, number> = {};
  for (const match of MATCHES) {
    const latencies: number[] = [];
    for (const q of set.queries) {
      const t = performance.now();
      await store.search(q.query, LIMIT, match);
      latencies.push(performance.now() - t);
    }
    latency[`${match}.p50`] = percentile(latencies, 50);
    latency[`${match}.p95`] = percentile(latencies, 95);
  }
  const changed = JSON.parse(readFileSync(job.changed!, "utf8")) as ChunkedFile;
  const ids = changed.chunks.map((_, i) => job.nextId! + i);
  const t = performance.now();
  const { inMemoryMs } = await store.replace(changed, ids);
  const changedMs = performance.now() - t;
  const seen = (await store.search("storeBenchAddedThis", LIMIT, "any")).some((h) => h.path === changed.path);
  await store.close();
  return { floorMB, openedMs, openMs, openRssMB, ...latency, changedMs, inMemoryMs, seen, peakMB: peakMB() };
}

function runChild(candidate: Candidate, root: string, job: ChildJob): Record<string, unknown> {
  const node = candidate.node ? candidate.node(root) : process.execPath;
  const run = spawnSync(node, ["--expose-gc", process.argv[1]!, "store"], {
    env: { ...process.env, ...candidate.env?.(), [CHILD_ENV]: JSON.stringify(job), NODE_NO_WARNINGS: "1" },
    encoding: "utf8",
    maxBuffer: 1 << 26,
    // A store that hangs (LanceDB's index build can, on 2 cores) is reported, not waited for all day.
    timeout: CHILD_TIMEOUT_MS,
  });
  if (run.error && (run.error as NodeJS.ErrnoException).code === "ETIMEDOUT") throw new Error(`${job.phase} did not end within ${CHILD_TIMEOUT_MS / 60_000} minutes; stopped`);
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  if (run.status !== 0 || !line.startsWith("{")) {
    // The error's own lines, not the stack under it.
    const why = `${run.stderr}${run.stdout}`
      .split("\n")
      .filter((l) => l.trim() && !/^\s+at /.test(l) && !/^Node\.js v/.test(l))
      .slice(-6)
      .join(" | ");
    throw new Error(`${job.phase} failed (exit ${run.status ?? run.signal}): ${why.slice(-1200)}`);
  }
  return JSON.parse(line) as Record<string, unknown>;
}

// ─── The parent ───────────────────────────────────────────────────────────────────────────────────

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** What the VSIX would gain: the minified JS bundle of the candidate's packages plus the files it loads beside it. */
async function shippedBytes(candidate: Candidate, root: string): Promise<{ bytes: number; zipped: number; detail: string }> {
  const what = candidate.shipped(root);
  let js = 0;
  let zipped = 0;
  if (what.bundles.length > 0) {
    const esbuild = (await import(moduleName("esbuild"))) as typeof import("esbuild");
    const built = await esbuild.build({
      stdin: { contents: what.bundles.map((b, i) => `export * as m${i} from "${b}";`).join("\n"), resolveDir: what.resolveDir, loader: "js" },
      bundle: true,
      platform: "node",
      format: "esm",
      minify: true,
      write: false,
      logLevel: "silent",
      external: what.external ?? [],
    });
    js = built.outputFiles.reduce((sum, f) => sum + f.contents.length, 0);
    zipped = built.outputFiles.reduce((sum, f) => sum + deflateRawSync(f.contents).length, 0);
  }
  const files = what.files.map((f) => ({ f, bytes: statSync(f).size }));
  const bytes = js + files.reduce((sum, x) => sum + x.bytes, 0);
  // A VSIX is a zip: what a download costs is the deflated size.
  for (const { f } of files) zipped += deflateRawSync(readFileSync(f)).length;
  const parts = [...(js > 0 ? [`JS ${mb(js)}`] : []), ...files.map((x) => `${x.f.split("/").at(-1)} ${mb(x.bytes)}`)];
  return { bytes, zipped, detail: [parts.join(" + "), what.note].filter(Boolean).join("; ") };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const num = (value: unknown, digits = 0) => (typeof value === "number" ? value.toFixed(digits) : "–");

export async function runStoreBench(root: string): Promise<void> {
  const job = process.env[CHILD_ENV];
  if (job) {
    const result = await child(JSON.parse(job) as ChildJob);
    console.log(JSON.stringify(result));
    process.exit(0);
  }
  const only = process.env.KILN_STORE_BENCH_ONLY?.split(",").map((s) => s.trim());
  const candidates = CANDIDATES.filter((c) => !only || only.includes(c.name));
  const set = JSON.parse(readFileSync(join(root, "test/bench/codeSearch/evalSet.json"), "utf8")) as EvalSet;
  console.log(`\nCodebase index store: ${candidates.length} candidates on the same chunks of ${WORKSPACE_FILES.toLocaleString("en")} node_modules files (issue 19; each phase in a child of its own)`);
  const scratch = mkdtempSync(join(tmpdir(), "kiln-store-bench-"));
  const workspace = largeWorkspace(root, WORKSPACE_FILES);
  const corpus = copyCorpus(root, [...ASKED, ...DISTRACTORS]);
  try {
    const bigChunks = join(scratch, "workspace.jsonl");
    const big = await chunkWorkspace(workspace, bigChunks);
    const small = await chunkWorkspace(corpus, join(scratch, "corpus.jsonl"));
    console.log(
      `  chunked once for all: ${big.files} files, ${big.chunks} chunks in ${(big.ms / 1000).toFixed(1)} s (not in any build time); eval corpus ${small.files} files, ${small.chunks} chunks`,
    );
    // The changed file: the first TypeScript (else JavaScript) file with a few chunks, with a function added at its end.
    let changed: ChunkedFile | undefined;
    for await (const file of readChunked(bigChunks)) {
      if (file.chunks.length < 3 || !/\.[cm]?[jt]s$/.test(file.path) || changed?.path.endsWith(".ts")) continue;
      changed = file;
      if (file.path.endsWith(".ts")) break;
    }
    const changedText = `${readFileSync(join(workspace, changed!.path), "utf8")}\nexport function storeBenchAddedThis() {}\n`;
    const changedFile = join(scratch, "changed.json");
    const changedChunks = await chunkFile(changed!.path, changedText);
    writeFileSync(changedFile, JSON.stringify({ path: changed!.path, chunks: changedChunks } satisfies ChunkedFile));
    const baseline = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], { encoding: "utf8" });
    console.log(`  changed file: ${changed!.path} (${changed!.chunks.length} chunks → ${changedChunks.length}); a bare node's peak RSS: ${(Number(baseline.stdout) / 1024).toFixed(0)} MB`);

    const rows: string[][] = [];
    for (const candidate of candidates) {
      console.log(`\n  ${candidate.name}: ${candidate.what}`);
      const dir = join(scratch, candidate.name);
      mkdirSync(dir);
      const row = [candidate.name];
      try {
        const build = runChild(candidate, root, { candidate: candidate.name, phase: "build", root, dir, chunks: bigChunks });
        const disk = sizeOf(dir);
        // Postgres keeps write-ahead log segments beside the data, recycled rather than removed.
        const wal = existsSync(join(dir, "pg_wal")) ? ` (${mb(sizeOf(join(dir, "pg_wal")))} of it write-ahead log)` : "";
        console.log(
          `    build: ${build.chunks} chunks in ${((build.buildMs as number) / 1000).toFixed(1)} s, peak RSS ${num(build.peakMB)} MB (the child started at ${num(build.floorMB)} MB); on disk ${mb(disk)}${wal}`,
        );
        if (build.note) console.log(`    ${build.note as string}`);
        const open = runChild(candidate, root, { candidate: candidate.name, phase: "open", root, dir, chunks: bigChunks, changed: changedFile, nextId: (build.chunks as number) + 1 });
        const inMemory = typeof open.inMemoryMs === "number" ? ` (${num(open.inMemoryMs, 1)} ms of it in memory, the rest rewriting the snapshot)` : "";
        console.log(
          `    reopen: opened in ${num(open.openedMs)} ms, first answer after ${num(open.openMs)} ms, RSS then ${num(open.openRssMB)} MB (peak of that child, queries and update included, ${num(open.peakMB)} MB)`,
        );
        const at = (match: Match) => (match === "all" && candidate.ownMatch ? "(own rule)" : `${num(open[`${match}.p50`], 1)}/${num(open[`${match}.p95`], 1)}`);
        console.log(
          candidate.ownMatch
            ? `    ${set.queries.length} queries at ${build.chunks} chunks, p50/p95: ${at("any")} ms`
            : `    ${set.queries.length} queries at ${build.chunks} chunks, p50/p95: any term ${at("any")} ms, all terms ${at("all")} ms`,
        );
        console.log(`    one changed file replaced and on disk: ${num(open.changedMs, 1)} ms${inMemory}; its new function found after: ${open.seen ? "yes" : "NO"}`);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
        const quality = runChild(candidate, root, { candidate: candidate.name, phase: "quality", root, dir, chunks: join(scratch, "corpus.jsonl") });
        const recall = (match: Match) => (match === "all" && candidate.ownMatch ? "(own rule)" : `${num(quality[`${match}.doc.recall5`], 2)}/${num(quality[`${match}.name.recall5`], 2)}`);
        const mrr = (match: Match) => `${num(quality[`${match}.doc.mrr`], 2)}/${num(quality[`${match}.name.mrr`], 2)}`;
        console.log(
          candidate.ownMatch
            ? `    eval set, recall@5 doc sentences/names in words (MRR@10): ${recall("any")} (${mrr("any")}), matching at least half the terms`
            : `    eval set, recall@5 doc sentences/names in words (MRR@10): any term ${recall("any")} (${mrr("any")}), all terms ${recall("all")} (${mrr("all")})`,
        );
        const shipped = await shippedBytes(candidate, root).catch((err: unknown) => ({ bytes: NaN, zipped: NaN, detail: `not measured: ${(err as Error).message}` }));
        console.log(`    package: +${Number.isNaN(shipped.bytes) ? "?" : `${mb(shipped.bytes)}, ${mb(shipped.zipped)} deflated in the VSIX`} (${shipped.detail})`);
        console.log(`    runs in VS Code's extension host and on Node 20: ${candidate.runsWhere}`);
        row.push(
          ((build.buildMs as number) / 1000).toFixed(1),
          (disk / 2 ** 20).toFixed(1),
          num(open.openMs),
          at("any"),
          at("all"),
          recall("any"),
          recall("all"),
          `${num(build.peakMB)}/${num(open.openRssMB)}`,
          typeof open.inMemoryMs === "number" ? `${num(open.changedMs)} (${num(open.inMemoryMs, 1)})` : num(open.changedMs, 1),
          Number.isNaN(shipped.bytes) ? "?" : `${(shipped.bytes / 2 ** 20).toFixed(1)}/${(shipped.zipped / 2 ** 20).toFixed(1)}`,
        );
      } catch (err) {
        console.log(`    could not be measured here: ${(err as Error).message}`);
        row.push("could not run here");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      rows.push(row);
    }

    const header = ["store", "build s", "disk MB", "reopen+1st ms", "p50/p95 any", "p50/p95 all", "R@5 any", "R@5 all", "RSS build/reopen MB", "changed file ms", "package MB/zip"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    console.log("");
    for (const r of [header, ...rows]) console.log(`  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")}`.trimEnd());
    console.log("  (p50/p95 in ms, at the big workspace; R@5: recall@5 doc sentences/names in words on the eval corpus; any/all: a query's terms matched,");
    console.log("  kiln-json always needs half of them; changed file: kiln-json's in-memory part in brackets, the rest is rewriting its whole snapshot)");
  } finally {
    for (const path of [scratch, workspace, corpus]) rmSync(path, { recursive: true, force: true });
  }
}
