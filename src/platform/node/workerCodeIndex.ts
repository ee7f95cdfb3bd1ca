import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { IndexStatus } from "../../core/codeIndex/codebaseIndex";
import type { EmbedderConfig } from "../../core/codeIndex/embedder";
import type { TeamConnection } from "../../core/codeIndex/team/teamDatabase";
import type { CodeSearchHit, CodeSearchIndex, IndexProgress, RefreshSummary, SearchOptions } from "../../core/codeIndex/types";
import type { IndexReply, IndexRequest, IndexWorkerData } from "../../core/codeIndex/workerProtocol";

/**
 * The worker's JavaScript heap limit. The index keeps its data in SQLite, so its live heap stays
 * under 100 MB on 10,000 files; with V8's default limit (a quarter of the machine's memory) the heap
 * grows far past that before collecting, and a first index peaked at 330 MB resident against 265 MB
 * with this limit (`npm run bench -- index`).
 */
export const INDEX_HEAP_MB = 1024;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  onProgress?(progress: IndexProgress): void;
}

type Call = IndexRequest extends infer R ? (R extends { op: "cancel" } ? never : Omit<R, "id">) : never;

/**
 * The codebase index of one workspace, in a worker thread of its own: parsing thousands of files
 * there leaves the extension host free for the editor and the chat. The worker starts on the first
 * call; one that dies fails the calls it had, and the next call starts a fresh one (which indexes
 * again from nothing).
 */
export class WorkerCodeIndex implements CodeSearchIndex {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    readonly root: string,
    private readonly options: { storeDir?: string; workerFile?: string; team?: TeamConnection } = {},
  ) {}

  refresh(options: { signal?: AbortSignal; onProgress?(progress: IndexProgress): void; waitForVectors?: boolean } = {}): Promise<RefreshSummary> {
    return this.call({ op: "refresh", ...(options.waitForVectors && { waitForVectors: true }) }, options) as Promise<RefreshSummary>;
  }

  async refreshPaths(paths: readonly string[]): Promise<void> {
    await this.call({ op: "refreshPaths", paths: [...paths] });
  }

  search(query: string, options: SearchOptions = {}): Promise<CodeSearchHit[]> {
    return this.call({ op: "search", query, options }) as Promise<CodeSearchHit[]>;
  }

  status(): Promise<IndexStatus> {
    return this.call({ op: "status" }) as Promise<IndexStatus>;
  }

  /** Uses this embedder from now on (undefined: words alone); a configuration the worker cannot use rejects. */
  async setEmbedder(config: EmbedderConfig | undefined): Promise<void> {
    await this.call({ op: "setEmbedder", ...(config && { config }) });
  }

  /** Forgets the index in memory and on disk; a refresh after builds it anew. */
  async clear(): Promise<void> {
    await this.call({ op: "clear" });
  }

  /**
   * Ends the worker, after it has closed its database (waiting at most `closeMs`, as it first ends
   * the batch it is writing; a transaction cut off is rolled back on the next open). The calls it had fail.
   */
  async dispose(closeMs = 2000): Promise<void> {
    if (this.worker && this.options.storeDir) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.call({ op: "close" }).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, closeMs)))]);
      clearTimeout(timer);
    }
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error("the codebase index was closed"));
    await worker?.terminate();
  }

  private call(request: Call, options: { signal?: AbortSignal; onProgress?(progress: IndexProgress): void } = {}): Promise<unknown> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new Error("cancelled"));
        return;
      }
      const onAbort = () => worker.postMessage({ id: this.nextId++, op: "cancel", target: id } satisfies IndexRequest);
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => signal?.removeEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: (value) => (settle(), resolve(value)),
        reject: (err) => (settle(), reject(err)),
        onProgress: options.onProgress,
      });
      worker.postMessage({ id, ...request } as IndexRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { storeDir, team, workerFile = join(__dirname, "indexWorker.js") } = this.options;
    const data: IndexWorkerData = { root: this.root, ...(storeDir && { storeDir }), ...(team && { team }) };
    const worker = new Worker(workerFile, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: INDEX_HEAP_MB } });
    // The host's exit must not wait on an index it no longer needs.
    worker.unref();
    worker.on("message", (message: IndexReply) => this.onReply(message));
    worker.on("error", (err) => this.lost(worker, err));
    worker.on("exit", (code) => this.lost(worker, new Error(`the codebase index's worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private onReply(message: IndexReply): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.kind === "progress") {
      pending.onProgress?.(message.progress);
      return;
    }
    this.pending.delete(message.id);
    if (message.kind === "done") pending.resolve(message.value);
    else pending.reject(new Error(message.message));
  }

  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(err);
  }
}
