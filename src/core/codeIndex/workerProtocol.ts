/**
 * Messages between a host and the codebase index running in a worker thread (indexWorker.ts): the
 * index parses every file of the workspace, which must not hold up the thread the host answers
 * the user on. Requests carry an id; the worker answers each once, with progress lines before.
 */
import type { IndexStatus } from "./codebaseIndex";
import type { EmbedderConfig } from "./embedder";
import type { TeamConnection } from "./team/teamDatabase";
import type { CodeSearchHit, IndexProgress, RefreshSummary, SearchOptions } from "./types";

export type IndexRequest =
  | { id: number; op: "refresh"; waitForVectors?: boolean }
  | { id: number; op: "refreshPaths"; paths: string[] }
  | { id: number; op: "search"; query: string; options: SearchOptions }
  | { id: number; op: "status" }
  /** Forgets the index in memory and on disk ("Delete"; "Rebuild" refreshes after). */
  | { id: number; op: "clear" }
  /** Uses this embedder from now on (none: words alone); a configuration it cannot use fails the request. */
  | { id: number; op: "setEmbedder"; config?: EmbedderConfig }
  /** Closes the database (before the worker is ended), so no transaction is cut off. */
  | { id: number; op: "close" }
  /** Stops the refresh with that id (the user cancelled the task that waited on it). */
  | { id: number; op: "cancel"; target: number };

export type IndexReply =
  | { id: number; kind: "progress"; progress: IndexProgress }
  | { id: number; kind: "done"; value: RefreshSummary | CodeSearchHit[] | IndexStatus | null }
  | { id: number; kind: "failed"; message: string };

/** What the worker is started with. */
export interface IndexWorkerData {
  root: string;
  /** Where the index is saved between runs (CodebaseIndex's storeDir); memory only when absent. */
  storeDir?: string;
  /** A team's index on a PostgreSQL server (team/teamIndex.ts) instead; storeDir then keeps this machine's record of what it sent. */
  team?: TeamConnection;
}
