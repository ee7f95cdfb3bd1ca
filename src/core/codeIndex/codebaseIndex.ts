import { WorkspaceIgnore, type IgnoreRules } from "../workspace/ignore";
import { chunkFile, DEFAULT_CHUNK_LIMITS, type ChunkLimits } from "./chunker";
import { FullTextIndex } from "./fullText";
import type { Embedder } from "./embedder";
import { deleteStore, IndexDatabase, storeInfo } from "./indexDatabase";
import { chunkRowOf, hitsWithText, type ChunkRow } from "./searchHits";
import { VectorIndex } from "./vectors";
import type { CodeChunk, CodeSearchHit, IndexStatus, RefreshOptions, RefreshSummary, SearchOptions, WorkspaceIndex } from "./types";

export type { IndexStatus, RefreshOptions } from "./types";
import { fuse, FUSION_DEPTH, VectorFeed } from "./vectorFeed";
import { isIndexablePath, MAX_FILE_BYTES, readIndexable, statFile, walkWorkspace, type WalkedFile } from "./walk";

/**
 * Files written to the database in one transaction during a walk: few enough that the chunks waiting
 * are a few megabytes at most (bounded memory), many enough that a first index is not a commit (and
 * an fsync) per file.
 */
const BATCH_FILES = 200;

interface Opened {
  db: IndexDatabase;
  words: FullTextIndex;
  vectors: VectorIndex;
  existing: boolean;
}

/** What the database knows of a file: enough to tell whether it changed. */
interface KnownFile {
  size: number;
  mtimeMs: number;
  /** sha256 of the file's bytes: a touched but unchanged file is not chunked again. */
  hash: string;
}

/** A change to the index, worked out (files read, chunked) before it is written in a transaction. */
type FileChange =
  | { kind: "put"; path: string; file: KnownFile; chunks: CodeChunk[] }
  /** The bytes are the same; only the size or time the walk compares by changed. */
  | { kind: "touch"; path: string; file: KnownFile }
  | { kind: "drop"; path: string };

export interface IndexOptions {
  ignore?: IgnoreRules;
  limits?: ChunkLimits;
  maxFileBytes?: number;
  /**
   * Where the index is kept between runs (indexDatabase.ts indexDirFor); in memory only when absent.
   * The first refresh then looks only at files changed since the last run.
   */
  storeDir?: string;
  /**
   * Gives the chunks vectors after each refresh, and searches rank by meaning as well as by words
   * (reciprocal rank fusion). Another embedder than the one the saved vectors came from makes them
   * again, without reading the files' chunks again.
   */
  embedder?: Embedder;
}

/**
 * One workspace's codebase index: its files cut into chunks (chunker.ts) and ranked by words
 * (fullText.ts), kept in a SQLite database (indexDatabase.ts). `refresh` brings it up to date with
 * the disk, looking again only at files whose size or time changed, and at those only if their bytes
 * did; searches read the hits' lines from disk, so the answer shows the file as it is.
 *
 * Changes are worked out (files read and chunked, which awaits) and then written in one synchronous
 * transaction, so a search never sees half a file and two refreshes never interleave their writes.
 */
export class CodebaseIndex implements WorkspaceIndex {
  private readonly ignore: IgnoreRules;
  private readonly limits: ChunkLimits;
  private readonly maxFileBytes: number;
  private readonly storeDir: string | undefined;
  private opened: Promise<Opened> | undefined;
  /** The chunks' vectors: made in the background, and asked for the nearest to a query. */
  private readonly feed: VectorFeed;
  /** Refreshes, in the order asked: each works out its changes against what the last one wrote. */
  private queue: Promise<unknown> = Promise.resolve();
  private running: Promise<RefreshSummary> | undefined;
  /** Problems with the saved index, said with the next refresh's summary. */
  private problems: string[] = [];
  private closed = false;
  /** The first refresh of a run says whether it started from a saved index; later ones do not. */
  private restoreSaid = false;

  constructor(
    readonly root: string,
    options: IndexOptions = {},
  ) {
    this.ignore = options.ignore ?? new WorkspaceIgnore(root);
    this.limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.storeDir = options.storeDir;
    this.feed = new VectorFeed(root, () => this.open(), this.problems);
    this.feed.embedder = options.embedder;
  }

  /**
   * Walks the workspace and indexes what is new or changed, dropping what is gone. Calls while one
   * runs share it: two walks at once would index the same files twice.
   */
  async refresh(options: RefreshOptions = {}): Promise<RefreshSummary> {
    this.running ??= this.serially(() => this.walkAndIndex(options)).finally(() => (this.running = undefined));
    const summary = await this.running;
    if (!this.feed.embedder) return summary;
    // The vectors are made in the background: a search answers by words (and the vectors made so
    // far) rather than wait for an embedder to get through a whole workspace.
    const vectors = this.feed.start();
    if (!options.waitForVectors) return summary;
    const embedded = await vectors;
    const problems = [...(summary.problems ?? []), ...this.problems.splice(0)];
    return { ...summary, embedded, ...(problems.length > 0 && { problems }) };
  }

  /** Indexes these workspace-relative paths again (a watcher saw them change), however they changed. */
  refreshPaths(paths: readonly string[]): Promise<void> {
    return this.serially(async () => {
      const { db, words } = await this.open();
      const changes: FileChange[] = [];
      for (const path of new Set(paths)) {
        const known = knownFile(db, path);
        if (!isIndexablePath(path) || this.ignore.isIgnored(`${this.root}/${path}`, false)) {
          if (known) changes.push({ kind: "drop", path });
          continue;
        }
        const stat = await statFile(`${this.root}/${path}`);
        const change = stat ? await this.changeOf({ path, ...stat }, known) : known && ({ kind: "drop", path } as const);
        if (change) changes.push(change);
      }
      this.write(db, words, changes);
      if (changes.length > 0 && this.feed.embedder) void this.feed.start();
    });
  }

  /** Resolves once the chunks have their vectors (at once without an embedder); the number made meanwhile. */
  vectorsDone(): Promise<number> {
    return this.feed.done();
  }

  /**
   * Opens the saved index without looking at the workspace (`kiln index --status`); a refresh does
   * this itself. Says whether one was there, and what was wrong with it where it could not be used.
   */
  async load(): Promise<{ restored: boolean; problems: string[] }> {
    if (!(await this.mayOpen())) return { restored: false, problems: [] };
    const { existing } = await this.open();
    return { restored: existing, problems: this.problems.splice(0) };
  }

  /** The index's counts and where it is kept. */
  async status(): Promise<IndexStatus> {
    if (!(await this.mayOpen())) return { files: 0, chunks: 0, ...(this.storeDir && { storeDir: this.storeDir }) };
    const { db, vectors } = await this.open();
    const saved = this.storeDir && db.file ? await storeInfo(this.storeDir) : undefined;
    return {
      ...counts(db),
      ...(this.feed.embedder && { vectors: vectors.count(), embedder: this.feed.embedder.id }),
      ...(this.storeDir && { storeDir: this.storeDir }),
      ...(saved && { saved }),
    };
  }

  /**
   * Forgets the index, in memory and on disk. The next refresh builds it from nothing: "Rebuild", or
   * "Delete" when no refresh follows.
   */
  clear(): Promise<void> {
    return this.serially(async () => {
      await this.feed.stop();
      const opened = this.opened;
      this.opened = undefined;
      if (opened) (await opened.catch(() => undefined))?.db.close();
      if (this.storeDir) await deleteStore(this.storeDir);
    });
  }

  /**
   * Uses another embedder from now on (undefined: words alone). Vectors of another embedder are
   * dropped when this one is first used; the next refresh makes the missing ones.
   */
  setEmbedder(embedder: Embedder | undefined): Promise<void> {
    return this.serially(async () => {
      this.feed.embedder = embedder;
      const opened = this.opened && (await this.opened.catch(() => undefined));
      if (opened && embedder) opened.vectors.useEmbedder(embedder.id);
    });
  }

  /** Closes the database (its lock released, nothing left to write); calls after fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.feed.stop();
    const opened = this.opened;
    this.opened = undefined;
    if (opened) (await opened.catch(() => undefined))?.db.close();
  }

  async search(query: string, options: SearchOptions = {}): Promise<CodeSearchHit[]> {
    const opened = await this.open();
    const { db, words } = opened;
    const under = options.under?.replace(/^\.\/?/, "").replace(/\/+$/, "");
    const limit = options.limit ?? 10;
    const meaning = await this.feed.nearest(opened.vectors, query, under);
    const ranked = meaning ? fuse([words.search(query, { limit: FUSION_DEPTH, ...(under && { under }) }), meaning], limit) : words.search(query, { limit, ...(under && { under }) });
    const chunks = new Map<number, ChunkRow>();
    if (ranked.length > 0) {
      const rows = db.all("SELECT id, path, start_line, end_line, kind, symbols FROM chunks WHERE id IN (SELECT value FROM json_each(?))", [JSON.stringify(ranked.map((r) => r.id))]);
      for (const row of rows) chunks.set(Number(row.id), chunkRowOf(row));
    }
    return hitsWithText(this.root, ranked, chunks);
  }

  private async walkAndIndex(options: RefreshOptions): Promise<RefreshSummary> {
    const opened = await this.open();
    const { db, words, existing } = opened;
    const walked = await walkWorkspace(this.root, this.ignore, options.signal);
    const known = new Map<string, KnownFile>();
    for (const row of db.all("SELECT path, size, mtime, hash FROM files")) known.set(String(row.path), { size: Number(row.size), mtimeMs: Number(row.mtime), hash: String(row.hash) });
    const seen = new Set(walked.map((f) => f.path));
    const gone: FileChange[] = [...known.keys()].filter((path) => !seen.has(path)).map((path) => ({ kind: "drop", path }));
    this.write(db, words, gone);

    let changed = 0;
    let done = 0;
    let chunks = counts(db).chunks;
    let batch: FileChange[] = [];
    const writeBatch = () => {
      this.write(db, words, batch);
      batch = [];
      chunks = counts(db).chunks;
    };
    try {
      for (const file of walked) {
        if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled");
        const change = await this.changeOf(file, known.get(file.path));
        if (change) batch.push(change);
        if (change?.kind === "put") changed++;
        if (batch.length >= BATCH_FILES) writeBatch();
        done++;
        options.onProgress?.({ filesDone: done, filesTotal: walked.length, chunks });
      }
    } finally {
      // What was worked out before a cancel is kept: the next refresh need not read it again.
      writeBatch();
    }
    const problems = this.problems.splice(0);
    const restored = existing && !this.restoreSaid;
    this.restoreSaid = true;
    return {
      filesDone: done,
      filesTotal: walked.length,
      chunks,
      changed,
      removed: gone.length,
      ...(restored && { restored }),
      ...(problems.length > 0 && { problems }),
    };
  }

  /**
   * What a file's state on disk means for the index: nothing (unchanged), new chunks, new size and
   * time for the same bytes, or its removal (too large, binary, unreadable).
   */
  private async changeOf(file: WalkedFile, known: KnownFile | undefined): Promise<FileChange | undefined> {
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) return undefined;
    const read = await readIndexable(this.root, file.path, file.size, this.maxFileBytes);
    if (!read) return known ? { kind: "drop", path: file.path } : undefined;
    const fileState = { size: file.size, mtimeMs: file.mtimeMs, hash: read.hash };
    // Saved with its new time, so the next run does not read it again.
    if (known && known.hash === read.hash) return { kind: "touch", path: file.path, file: fileState };
    const chunks = await chunkFile(file.path, read.text, this.limits);
    return { kind: "put", path: file.path, file: fileState, chunks };
  }

  /** Writes changes in one transaction: all of them, or (on an error, which is thrown) none. */
  private write(db: IndexDatabase, words: FullTextIndex, changes: readonly FileChange[]): void {
    if (changes.length === 0) return;
    db.transaction(() => {
      for (const change of changes) {
        if (change.kind === "touch") {
          db.run("UPDATE files SET size = ?, mtime = ? WHERE path = ?", [change.file.size, change.file.mtimeMs, change.path]);
          continue;
        }
        for (const row of db.all("SELECT id FROM chunks WHERE path = ?", [change.path])) words.remove(Number(row.id));
        db.run("DELETE FROM chunks WHERE path = ?", [change.path]);
        db.run("DELETE FROM files WHERE path = ?", [change.path]);
        if (change.kind === "drop") continue;
        db.run("INSERT INTO files (path, size, mtime, hash) VALUES (?, ?, ?, ?)", [change.path, change.file.size, change.file.mtimeMs, change.file.hash]);
        for (const chunk of change.chunks) {
          const id = db.run("INSERT INTO chunks (path, start_line, end_line, kind, symbols, hash) VALUES (?, ?, ?, ?, ?, ?)", [
            chunk.path,
            chunk.startLine,
            chunk.endLine,
            chunk.kind,
            JSON.stringify(chunk.symbols),
            chunk.hash,
          ]);
          words.add(id, { code: chunk.text, symbols: chunk.symbols, path: chunk.path });
        }
      }
    });
  }

  /** Opens the database once per run (again after a clear); a saved index's problems go with the next summary. */
  private open(): Promise<Opened> {
    if (this.closed) return Promise.reject(new Error("the codebase index was closed"));
    this.opened ??= IndexDatabase.open(this.storeDir, this.root).then(({ db, existing, problems }) => {
      this.problems.push(...problems);
      const vectors = new VectorIndex(db);
      if (this.feed.embedder) vectors.useEmbedder(this.feed.embedder.id);
      return { db, words: new FullTextIndex(db), vectors, existing };
    });
    this.opened.catch(() => (this.opened = undefined));
    return this.opened;
  }

  /** Whether asking about the index may open it: not where that would make a database nothing asked to build. */
  private async mayOpen(): Promise<boolean> {
    return this.opened !== undefined || this.storeDir === undefined || (await storeInfo(this.storeDir)) !== undefined;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

function knownFile(db: IndexDatabase, path: string): KnownFile | undefined {
  const row = db.get("SELECT size, mtime, hash FROM files WHERE path = ?", [path]);
  return row && { size: Number(row.size), mtimeMs: Number(row.mtime), hash: String(row.hash) };
}

function counts(db: IndexDatabase): { files: number; chunks: number } {
  const row = db.get("SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM chunks) AS chunks")!;
  return { files: Number(row.files), chunks: Number(row.chunks) };
}
