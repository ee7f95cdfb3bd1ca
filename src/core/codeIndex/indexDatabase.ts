import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Database as SqliteDatabase, Statement } from "node-sqlite3-wasm";
import { TERMS_VERSION } from "./terms";

/**
 * Where a workspace's codebase index lives, between runs and while it runs: one SQLite database per
 * workspace, in a folder named by a hash of the workspace's path under a parent (the extension's
 * global storage, or ~/.kilocode/kiln/index for the CLI), so that opening a folder again or updating
 * Kiln costs a walk of the folder and the files changed since, not a new index.
 *
 * SQLite (FTS5 for the words) through node-sqlite3-wasm: WebAssembly, so one build runs in every
 * Electron and on the CLI's Node 20 with nothing to compile, and its VFS writes a real file in place,
 * so a changed file costs its own rows, not a rewrite of the index. Chosen by measurement over a JSON
 * snapshot, PGlite and LanceDB (docs/architecture.md, "Codebase index"; `npm run bench -- store`).
 *
 * Every change is a transaction: a crash or a full disk leaves the last committed state, which is
 * whole. A database of another schema, another tokenizer, another workspace, or one SQLite cannot
 * read, is said and replaced by a new one: the index is a cache of the workspace, never the only copy
 * of anything.
 */

export const DATABASE_FILE = "index.sqlite";
/** Bumped whenever the tables change shape; a database of another version is built again. */
export const SCHEMA_VERSION = 2;
/** What an earlier Kiln saved (one JSON snapshot); removed when a database is made beside it. */
const LEGACY_SNAPSHOT = "index.json";
/**
 * node-sqlite3-wasm locks a database by making a folder beside it and removes it when the
 * transaction ends; a process that died inside one leaves it behind, and every later open would be
 * "locked" for ever. No transaction of Kiln's lasts anywhere near this long.
 */
const STALE_LOCK_MS = 60_000;

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, kind TEXT NOT NULL, symbols TEXT NOT NULL, hash TEXT NOT NULL);
  CREATE INDEX chunks_by_path ON chunks (path);
  -- The words of each chunk as terms.ts cuts them, already lower case and joined: the ascii tokenizer
  -- only splits them at the spaces between. Stored, not contentless: FTS5 can then take a row out of
  -- its statistics exactly, where a contentless table's deletes keep counting in each term's document
  -- frequency until its segments are merged (a ranking that drifts with every edit).
  CREATE VIRTUAL TABLE words USING fts5(code, symbols, path, tokenize='ascii');
  -- Each term's document frequency, for fullText.ts's IDF.
  CREATE VIRTUAL TABLE words_vocab USING fts5vocab(words, 'row');
  -- The number of chunks and each field's words in all of them, for BM25F's average field lengths.
  CREATE TABLE totals (docs INTEGER NOT NULL, code INTEGER NOT NULL, symbols INTEGER NOT NULL, path INTEGER NOT NULL);
  INSERT INTO totals VALUES (0, 0, 0, 0);
  -- An embedder's vector of each distinct chunk text (by the text's hash, so a chunk that did not
  -- change keeps its vector when its file changes around it), unit length, as signed bytes.
  -- meta's 'embedder' names the embedder that made them.
  -- A rowid table: WITHOUT ROWID keeps far less of a row in its page, and a 1536-byte vector would
  -- spill into an overflow page of its own (four times the file, and the reads to match).
  CREATE TABLE vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL);
`;

export type SqlValue = string | number | null;
/** What a statement may be given: a value, or bytes (a BLOB). */
export type SqlParam = SqlValue | Uint8Array;
export type SqlRow = Record<string, SqlValue | Uint8Array>;

/** The folder under `parent` that keeps the index of the workspace at `root`. */
export function indexDirFor(parent: string, root: string): string {
  return join(parent, createHash("sha256").update(resolve(root)).digest("hex").slice(0, 16));
}

/** Removes the workspace's saved index. */
export async function deleteStore(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Size on disk and time of the last change of the saved index, or undefined where none is saved. */
export async function storeInfo(dir: string): Promise<{ bytes: number; savedAt: number } | undefined> {
  const [db, journal] = await Promise.all([stat(join(dir, DATABASE_FILE)).catch(() => undefined), stat(join(dir, `${DATABASE_FILE}-journal`)).catch(() => undefined)]);
  if (!db?.isFile()) return undefined;
  return { bytes: db.size + (journal?.isFile() ? journal.size : 0), savedAt: db.mtimeMs };
}

let sqlite: Promise<typeof import("node-sqlite3-wasm")> | undefined;

/** Loaded on first use: instantiating SQLite's WebAssembly costs time and memory a host without an index should not pay. */
function loadSqlite(): Promise<typeof import("node-sqlite3-wasm")> {
  sqlite ??= import("node-sqlite3-wasm").then((loaded) => (loaded as { default?: typeof import("node-sqlite3-wasm") }).default ?? loaded);
  return sqlite;
}

export interface OpenedDatabase {
  db: IndexDatabase;
  /** It held an index saved by an earlier run (which the caller then reads instead of the disk). */
  existing: boolean;
  /** Why what was saved could not be used or where nothing can be saved, for the host to log. */
  problems: string[];
}

/** One open index database: statements prepared once, transactions that roll back on any error. */
export class IndexDatabase {
  private readonly statements = new Map<string, Statement>();

  private constructor(
    private readonly db: SqliteDatabase,
    /** The file, or undefined for a database in memory. */
    readonly file: string | undefined,
  ) {}

  /**
   * Opens (or makes) the database of the workspace at `root` in `dir`; in memory where `dir` is
   * undefined or nothing can be written there (said in `problems`: the index still works, for this run).
   */
  static async open(dir: string | undefined, root: string): Promise<OpenedDatabase> {
    const { Database } = await loadSqlite();
    const problems: string[] = [];
    if (dir !== undefined) {
      const file = join(dir, DATABASE_FILE);
      try {
        mkdirSync(dir, { recursive: true });
        rmSync(join(dir, LEGACY_SNAPSHOT), { force: true });
        clearStaleLock(file);
      } catch (err) {
        problems.push(`the index cannot be saved in ${dir}: ${messageOf(err)}; it is kept in memory for now`);
      }
      if (problems.length === 0) {
        const existed = existsSync(file);
        try {
          const db = new IndexDatabase(new Database(file), file);
          const why = existed ? db.whyNotUsable(root) : "";
          if (why === LOCKED) {
            db.close();
            throw new Error("another process holds it (another window or kiln on this folder?)");
          }
          if (existed && why === "") return { db, existing: true, problems };
          if (existed) {
            db.close();
            problems.push(`the saved index cannot be used: ${why}; the workspace is indexed again`);
            removeDatabase(file);
            const fresh = new IndexDatabase(new Database(file), file);
            fresh.create(root);
            return { db: fresh, existing: false, problems };
          }
          db.create(root);
          return { db, existing: false, problems };
        } catch (err) {
          problems.push(`the index cannot be saved in ${dir}: ${messageOf(err)}; it is kept in memory for now`);
        }
      }
    }
    const db = new IndexDatabase(new Database(":memory:"), undefined);
    db.create(root);
    return { db, existing: false, problems };
  }

  /** Rows of a query (the statement prepared once and kept). */
  all(sql: string, params: SqlParam[] = []): SqlRow[] {
    return whileBusy(() => this.statement(sql).all(params) as SqlRow[]);
  }

  /**
   * The first row. Read to the end all the same: a statement left on a row keeps its read lock, which
   * would lock every other connection out of the database.
   */
  get(sql: string, params: SqlParam[] = []): SqlRow | undefined {
    return this.all(sql, params)[0];
  }

  /** Runs a statement; returns the rowid it inserted (for an INSERT). */
  run(sql: string, params: SqlParam[] = []): number {
    return Number(this.statement(sql).run(params).lastInsertRowid);
  }

  /** Makes a JavaScript function callable from this database's SQL (a scalar function of fixed arity). */
  defineFunction(name: string, fn: (...args: SqlParam[]) => SqlValue): void {
    this.db.function(name, fn as (...args: unknown[]) => SqlValue, { deterministic: false });
  }

  /** Runs `work` in one transaction: all of it is committed, or (on any throw) none of it. */
  transaction<T>(work: () => T): T {
    whileBusy(() => this.db.exec("BEGIN IMMEDIATE"));
    try {
      const result = work();
      this.db.exec("COMMIT");
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw err;
    }
  }

  close(): void {
    if (!this.db.isOpen) return;
    for (const statement of this.statements.values()) {
      try {
        if (!statement.isFinalized) statement.finalize();
      } catch {
        // finalize() repeats the error of the statement's last step (which its caller was told of); it is freed all the same.
      }
    }
    this.statements.clear();
    this.db.close();
  }

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private create(root: string): void {
    // NORMAL: a power cut can lose the last transaction, never the database's integrity; the index
    // is rebuilt from the workspace in any case.
    this.db.exec("PRAGMA synchronous = NORMAL");
    this.transaction(() => {
      this.db.exec(SCHEMA);
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      this.run("INSERT INTO meta (key, value) VALUES ('root', ?), ('termsVersion', ?)", [resolve(root), String(TERMS_VERSION)]);
    });
  }

  /** Why a database found on disk cannot serve as this workspace's index, "" when it can, LOCKED while another process holds it. */
  private whyNotUsable(root: string): string {
    try {
      const version = this.get("PRAGMA user_version")?.user_version;
      if (version !== SCHEMA_VERSION) return `it is version ${String(version)}, this Kiln reads version ${SCHEMA_VERSION}`;
      const meta = new Map(this.all("SELECT key, value FROM meta").map((row) => [row.key, row.value]));
      if (meta.get("root") !== resolve(root)) return `it was made for ${JSON.stringify(meta.get("root"))}, not ${JSON.stringify(resolve(root))}`;
      if (meta.get("termsVersion") !== String(TERMS_VERSION)) return `its words were cut by tokenizer version ${String(meta.get("termsVersion"))}, this Kiln's is ${TERMS_VERSION}`;
      const check = this.all("PRAGMA quick_check").map((row) => String(row.quick_check));
      if (check.join() !== "ok") return `SQLite finds it damaged (${check.slice(0, 3).join("; ")})`;
      this.db.exec("PRAGMA synchronous = NORMAL");
      return "";
    } catch (err) {
      return isBusy(err) ? LOCKED : `SQLite cannot read it (${messageOf(err)})`;
    }
  }
}

/** whyNotUsable's answer for a database another process is using: not damaged, not to be replaced. */
const LOCKED = "locked";
/** How long a statement waits for another process's transaction to end before it fails. */
const BUSY_WAIT_MS = 3000;
const BUSY_POLL_MS = 20;

function isBusy(err: unknown): boolean {
  return err instanceof Error && /database is locked|SQLITE_BUSY/i.test(err.message);
}

/**
 * Runs `work`, again while the database is locked by another process (another window on the same
 * folder), for up to BUSY_WAIT_MS. Synchronous like SQLite itself: the index's writes are short
 * transactions, so the wait is too, and it happens in the index's worker (or the CLI's one thread).
 */
function whileBusy<T>(work: () => T): T {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      return work();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_POLL_MS);
    }
  }
}

function clearStaleLock(file: string): void {
  const lock = `${file}.lock`;
  const info = statSync(lock, { throwIfNoEntry: false });
  if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
}

function removeDatabase(file: string): void {
  for (const suffix of ["", "-journal", ".lock"]) rmSync(`${file}${suffix}`, { recursive: true, force: true });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
