import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { WorkspaceIgnore, type IgnoreRules } from "../workspace/ignore";
import { chunkFile, DEFAULT_CHUNK_LIMITS, type ChunkLimits } from "./chunker";
import { FullTextIndex } from "./fullText";
import { checkSnapshot, deleteStore, readSnapshot, SNAPSHOT_VERSION, snapshotInfo, writeSnapshot, type IndexSnapshot, type SavedFile } from "./indexStore";
import type { ChunkKind, CodeSearchHit, CodeSearchIndex, IndexProgress, RefreshSummary, SearchOptions } from "./types";
import { isIndexablePath, walkWorkspace, type WalkedFile } from "./walk";

/** Larger files are generated or vendored more often than not; their chunks would crowd out the code. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Bytes looked at for a NUL, which text never has and nearly every binary format does. */
const BINARY_SNIFF_BYTES = 8000;

/** A chunk as the index keeps it: where it is, not its text, which stays on disk (bounded memory). */
interface StoredChunk {
  path: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  symbols: string[];
  hash: string;
}

interface FileEntry {
  size: number;
  mtimeMs: number;
  /** sha256 of the file's bytes: a touched but unchanged file is not chunked again. */
  hash: string;
  ids: number[];
}

export interface IndexOptions {
  ignore?: IgnoreRules;
  limits?: ChunkLimits;
  maxFileBytes?: number;
  /**
   * Where the index is saved between runs (indexStore.ts indexDirFor); kept in memory only when absent.
   * The saved index is read on the first refresh, which then looks only at files changed since.
   */
  storeDir?: string;
  /**
   * How long after a change the index is saved again, so a burst of saves in the editor is written
   * once. 0 (the default) saves at the end of each refresh that changed something. The first save of
   * a run is never delayed: it holds the expensive first index.
   */
  saveDelayMs?: number;
}

/** What `status` tells: the index in memory and the one saved. */
export interface IndexStatus {
  files: number;
  chunks: number;
  storeDir?: string;
  /** The saved snapshot's size and time, where one is saved. */
  saved?: { bytes: number; savedAt: number };
}

/**
 * One workspace's codebase index: its files cut into chunks (chunker.ts) and ranked by words
 * (fullText.ts). `refresh` brings it up to date with the disk, looking again only at files whose
 * size or time changed, and at those only if their bytes did; searches read the hits' lines from
 * disk, so the answer shows the file as it is.
 */
export class CodebaseIndex implements CodeSearchIndex {
  private readonly files = new Map<string, FileEntry>();
  private readonly chunks = new Map<number, StoredChunk>();
  private fullText = new FullTextIndex();
  private nextId = 1;
  private running: Promise<RefreshSummary> | undefined;
  private readonly ignore: IgnoreRules;
  private readonly limits: ChunkLimits;
  private readonly maxFileBytes: number;
  private readonly storeDir: string | undefined;
  private readonly saveDelayMs: number;
  /** Whether the saved index was looked for (once per run, on the first refresh). */
  private restoreTried = false;
  /** Changed since the last save. */
  private dirty = false;
  private savedOnce = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** Problems with the saved index, said with the next refresh's summary. */
  private problems: string[] = [];

  constructor(
    readonly root: string,
    options: IndexOptions = {},
  ) {
    this.ignore = options.ignore ?? new WorkspaceIgnore(root);
    this.limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.storeDir = options.storeDir;
    this.saveDelayMs = options.saveDelayMs ?? 0;
  }

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  /**
   * Walks the workspace and indexes what is new or changed, dropping what is gone. Calls while one
   * runs share it: two walks at once would index the same files twice.
   */
  refresh(options: { signal?: AbortSignal; onProgress?(progress: IndexProgress): void } = {}): Promise<RefreshSummary> {
    this.running ??= this.walkAndIndex(options).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Indexes these workspace-relative paths again (a watcher saw them change), however they changed. */
  async refreshPaths(paths: readonly string[]): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.restore();
    for (const path of paths) {
      if (!isIndexablePath(path) || this.ignore.isIgnored(`${this.root}/${path}`, false)) {
        this.dropFile(path);
        continue;
      }
      const stat = await statFile(`${this.root}/${path}`);
      if (!stat) this.dropFile(path);
      else await this.indexFile({ path, ...stat });
    }
    await this.saveSoon();
  }

  /**
   * Reads the saved index without looking at the workspace (`kiln index --status`); a refresh does
   * this itself. Says whether one was read, and what was wrong with it where it could not be.
   */
  async load(): Promise<{ restored: boolean; problems: string[] }> {
    const restored = await this.restore();
    return { restored, problems: this.problems.splice(0) };
  }

  /** The index in memory and the one saved. */
  async status(): Promise<IndexStatus> {
    const saved = this.storeDir ? await snapshotInfo(this.storeDir) : undefined;
    return { files: this.files.size, chunks: this.chunks.size, ...(this.storeDir && { storeDir: this.storeDir }), ...(saved && { saved }) };
  }

  /** Writes what is due now (before the process ends); waits for nothing else. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dirty) await this.save();
  }

  /**
   * Forgets the index, in memory and on disk. The next refresh builds it from nothing: "Rebuild", or
   * "Delete" when no refresh follows.
   */
  async clear(): Promise<void> {
    await this.running?.catch(() => undefined);
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.files.clear();
    this.chunks.clear();
    this.fullText = new FullTextIndex();
    this.nextId = 1;
    this.dirty = false;
    this.savedOnce = false;
    // Nothing left to read back: a saved index found after a clear would undo it.
    this.restoreTried = true;
    if (this.storeDir) await deleteStore(this.storeDir);
  }

  search(query: string, options: SearchOptions = {}): Promise<CodeSearchHit[]> {
    const under = options.under?.replace(/^\.\/?/, "").replace(/\/+$/, "");
    const filter = under ? (id: number) => this.chunks.get(id)!.path === under || this.chunks.get(id)!.path.startsWith(`${under}/`) : undefined;
    const ranked = this.fullText.search(query, { limit: options.limit ?? 10, ...(filter && { filter }) });
    return this.withText(ranked);
  }

  private async withText(ranked: readonly { id: number; score: number }[]): Promise<CodeSearchHit[]> {
    const best = ranked[0]?.score ?? 1;
    const byFile = new Map<string, string[] | undefined>();
    const hits: CodeSearchHit[] = [];
    for (const { id, score } of ranked) {
      const chunk = this.chunks.get(id)!;
      if (!byFile.has(chunk.path)) byFile.set(chunk.path, await readLines(`${this.root}/${chunk.path}`));
      const lines = byFile.get(chunk.path);
      // Deleted since it was indexed: the next refresh drops it; a hit that cannot be shown is left out.
      if (!lines) continue;
      hits.push({
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        kind: chunk.kind,
        symbols: chunk.symbols,
        score: best > 0 ? score / best : 0,
        text: lines.slice(chunk.startLine - 1, chunk.endLine).join("\n"),
      });
    }
    return hits;
  }

  private async walkAndIndex(options: { signal?: AbortSignal; onProgress?(progress: IndexProgress): void }): Promise<RefreshSummary> {
    const restored = await this.restore();
    const walked = await walkWorkspace(this.root, this.ignore, options.signal);
    const seen = new Set(walked.map((f) => f.path));
    let removed = 0;
    for (const path of [...this.files.keys()]) {
      if (!seen.has(path)) {
        this.dropFile(path);
        removed++;
      }
    }
    let changed = 0;
    let done = 0;
    for (const file of walked) {
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled");
      if (await this.indexFile(file)) changed++;
      done++;
      options.onProgress?.({ filesDone: done, filesTotal: walked.length, chunks: this.chunks.size });
    }
    await this.saveSoon();
    const problems = this.problems.splice(0);
    return { filesDone: done, filesTotal: walked.length, chunks: this.chunks.size, changed, removed, ...(restored && { restored }), ...(problems.length > 0 && { problems }) };
  }

  /**
   * Reads the saved index, once per run, before the first refresh looks at the disk: files unchanged
   * since it was saved are not read again. A saved index that cannot be used (another version,
   * damaged, another workspace's) is noted and the workspace indexed anew. Returns whether one was read.
   */
  private async restore(): Promise<boolean> {
    if (this.restoreTried || !this.storeDir) return false;
    this.restoreTried = true;
    try {
      const data = await readSnapshot(this.storeDir);
      if (data === undefined) return false;
      this.adopt(checkSnapshot(data, this.root));
      this.savedOnce = true;
      return true;
    } catch (err) {
      this.problems.push(`${err instanceof Error ? err.message : String(err)}; the workspace is indexed again`);
      return false;
    }
  }

  private adopt(snapshot: IndexSnapshot): void {
    const fullText = FullTextIndex.fromJSON(snapshot.fullText);
    const files = new Map<string, FileEntry>();
    const chunks = new Map<number, StoredChunk>();
    for (const [path, size, mtimeMs, hash, saved] of snapshot.files) {
      const ids: number[] = [];
      for (const [id, startLine, endLine, kind, symbols, chunkHash] of saved) {
        if (!fullText.has(id)) throw new Error(`the saved index cannot be used: chunk ${id} of ${path} is not in its word index`);
        ids.push(id);
        chunks.set(id, { path, startLine, endLine, kind, symbols, hash: chunkHash });
      }
      files.set(path, { size, mtimeMs, hash, ids });
    }
    if (fullText.size !== chunks.size) throw new Error(`the saved index cannot be used: its word index has ${fullText.size} chunks, its files ${chunks.size}`);
    this.files.clear();
    this.chunks.clear();
    for (const [path, entry] of files) this.files.set(path, entry);
    for (const [id, chunk] of chunks) this.chunks.set(id, chunk);
    this.fullText = fullText;
    this.nextId = snapshot.nextId;
  }

  /** Saves now, or after saveDelayMs where a save of this run is on disk already. */
  private async saveSoon(): Promise<void> {
    if (!this.dirty || !this.storeDir) return;
    if (this.saveDelayMs === 0 || !this.savedOnce) {
      await this.flush();
      return;
    }
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, this.saveDelayMs);
  }

  private async save(): Promise<void> {
    if (!this.storeDir) return;
    // Taken in one synchronous step, so files, chunks and words agree with each other.
    const files: SavedFile[] = [];
    for (const [path, entry] of this.files) {
      files.push([
        path,
        entry.size,
        entry.mtimeMs,
        entry.hash,
        entry.ids.map((id) => {
          const chunk = this.chunks.get(id)!;
          return [id, chunk.startLine, chunk.endLine, chunk.kind, chunk.symbols, chunk.hash];
        }),
      ]);
    }
    const snapshot: IndexSnapshot = { version: SNAPSHOT_VERSION, root: resolve(this.root), savedAt: Math.round(Date.now()), nextId: this.nextId, files, fullText: this.fullText.toJSON() };
    this.dirty = false;
    try {
      await writeSnapshot(this.storeDir, snapshot);
      this.savedOnce = true;
    } catch (err) {
      // Kept in memory: the next change tries again.
      this.dirty = true;
      this.problems.push(`the index could not be saved in ${this.storeDir}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Returns whether the file was chunked anew. A file too large, binary or unreadable is dropped. */
  private async indexFile(file: WalkedFile): Promise<boolean> {
    const known = this.files.get(file.path);
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) return false;
    if (file.size > this.maxFileBytes) {
      this.dropFile(file.path);
      return false;
    }
    const bytes = await readFile(`${this.root}/${file.path}`).catch(() => undefined);
    if (!bytes || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      this.dropFile(file.path);
      return false;
    }
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (known && known.hash === hash) {
      this.files.set(file.path, { ...known, size: file.size, mtimeMs: file.mtimeMs });
      // Saved with its new time, so the next run does not read it again.
      this.dirty = true;
      return false;
    }
    const chunks = await chunkFile(file.path, new TextDecoder().decode(bytes), this.limits);
    this.dropFile(file.path);
    const ids: number[] = [];
    for (const chunk of chunks) {
      const id = this.nextId++;
      ids.push(id);
      this.chunks.set(id, { path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, kind: chunk.kind, symbols: chunk.symbols, hash: chunk.hash });
      this.fullText.add(id, { code: chunk.text, symbols: chunk.symbols, path: chunk.path });
    }
    this.files.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, hash, ids });
    this.dirty = true;
    return true;
  }

  private dropFile(path: string): void {
    const entry = this.files.get(path);
    if (!entry) return;
    for (const id of entry.ids) {
      this.fullText.remove(id);
      this.chunks.delete(id);
    }
    this.files.delete(path);
    this.dirty = true;
  }
}

async function statFile(absolute: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  // lstat, not open: opening a FIFO waits for a writer that may never come.
  const stat = await lstat(absolute).catch(() => undefined);
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
}

async function readLines(absolute: string): Promise<string[] | undefined> {
  const text = await readFile(absolute, "utf8").catch(() => undefined);
  return text?.replace(/^\uFEFF/, "").split(/\r?\n/);
}
