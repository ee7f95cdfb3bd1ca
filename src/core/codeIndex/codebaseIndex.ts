import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { WorkspaceIgnore, type IgnoreRules } from "../workspace/ignore";
import { chunkFile, DEFAULT_CHUNK_LIMITS, type ChunkLimits } from "./chunker";
import { FullTextIndex } from "./fullText";
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
  private readonly fullText = new FullTextIndex();
  private nextId = 1;
  private running: Promise<RefreshSummary> | undefined;
  private readonly ignore: IgnoreRules;
  private readonly limits: ChunkLimits;
  private readonly maxFileBytes: number;

  constructor(
    readonly root: string,
    options: IndexOptions = {},
  ) {
    this.ignore = options.ignore ?? new WorkspaceIgnore(root);
    this.limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
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
    for (const path of paths) {
      if (!isIndexablePath(path) || this.ignore.isIgnored(`${this.root}/${path}`, false)) {
        this.dropFile(path);
        continue;
      }
      const stat = await statFile(`${this.root}/${path}`);
      if (!stat) this.dropFile(path);
      else await this.indexFile({ path, ...stat });
    }
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
    return { filesDone: done, filesTotal: walked.length, chunks: this.chunks.size, changed, removed };
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
