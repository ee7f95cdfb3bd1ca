import type { Embedder } from "./embedder";

/**
 * The codebase index's shared shapes: what a file is cut into (chunks) and what a search returns.
 * The chunker (chunker.ts), the full-text ranking (fullText.ts) and the index that ties them to a
 * workspace (codebaseIndex.ts) agree on these and nothing else.
 */

/** What a chunk is, as the chunker found it: a definition, a block of one, a Markdown section, or plain lines. */
export type ChunkKind = "function" | "class" | "method" | "type" | "block" | "section" | "lines";

export interface CodeChunk {
  /** Workspace-relative, with "/" separators. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  /** The names defined in the chunk (a function's, a class's and its methods'…); a section's heading. Empty for plain lines. */
  symbols: string[];
  /** The chunk's source text, as in the file (line endings as "\n"). */
  text: string;
  /** sha256 hex of `text`: an unchanged chunk keeps its vectors when its file changes around it. */
  hash: string;
}

/** One ranked chunk: its identity in the index and the score it got (higher is better). */
export interface ScoredId {
  id: number;
  score: number;
}

export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
  chunks: number;
}

export interface RefreshSummary extends IndexProgress {
  /** Files chunked anew (new or changed) and files dropped (deleted, now ignored or binary). */
  changed: number;
  removed: number;
  /** Chunk texts given a vector by the embedder in this refresh (absent without an embedder). */
  embedded?: number;
  /** The refresh started from the index saved by an earlier run (only files changed since were read). */
  restored?: boolean;
  /** What went wrong with the saved index (unreadable, not saved), for the host to log; the index itself is fine. */
  problems?: string[];
}

export interface CodeSearchHit {
  path: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  symbols: string[];
  /** Relative to the best hit of the same search (1 for it): comparable within one answer only. */
  score: number;
  /** The chunk's lines as they are on disk now. */
  text: string;
}

export interface SearchOptions {
  /** Only chunks in this workspace-relative folder or file. */
  under?: string;
  limit?: number;
}

/** What codebase_search asks of a host's index: the in-process CodebaseIndex, or one in a worker. */
export interface CodeSearchIndex {
  /** Brings the index up to date with the disk (only new and changed files cost anything). */
  refresh(options?: { signal?: AbortSignal; onProgress?(progress: IndexProgress): void; waitForVectors?: boolean }): Promise<RefreshSummary>;
  search(query: string, options?: SearchOptions): Promise<CodeSearchHit[]>;
}

export interface RefreshOptions {
  signal?: AbortSignal;
  onProgress?(progress: IndexProgress): void;
  /**
   * Also wait until every chunk has its vector (`kiln index`, the editor's background refresh);
   * otherwise the refresh resolves once the words are indexed and the vectors follow.
   */
  waitForVectors?: boolean;
}

/** What `status` tells: the index and where it is kept. */
export interface IndexStatus {
  files: number;
  chunks: number;
  /** Chunk texts with a vector, and the embedder that made them, where one is configured. */
  vectors?: number;
  embedder?: string;
  storeDir?: string;
  /** The database's size and the time it last changed, where one is saved. */
  saved?: { bytes: number; savedAt: number };
  /** A team index (team/teamIndex.ts): the server (no password) and the repository and branch it holds. */
  team?: { server: string; scope: string; repository: string; branch: string };
}

/** What a host does with a workspace's index, wherever it is kept (CodebaseIndex on this machine, TeamIndex on a team's server). */
export interface WorkspaceIndex extends CodeSearchIndex {
  refresh(options?: RefreshOptions): Promise<RefreshSummary>;
  refreshPaths(paths: readonly string[]): Promise<void>;
  status(): Promise<IndexStatus>;
  load(): Promise<{ restored: boolean; problems: string[] }>;
  clear(): Promise<void>;
  close(): Promise<void>;
  vectorsDone(): Promise<number>;
  /** Uses another embedder from now on (undefined: words alone). */
  setEmbedder(embedder: Embedder | undefined): Promise<void>;
}
