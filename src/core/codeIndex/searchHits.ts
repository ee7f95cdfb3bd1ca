import type { ChunkKind, CodeSearchHit, ScoredId } from "./types";
import { readLines } from "./walk";

/** What a store keeps of a chunk to show it as a hit: where it is and what it defines (the text is read from disk). */
export interface ChunkRow {
  path: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  symbols: string[];
}

/** A chunk row as a store returns it (snake_case columns, symbols as JSON), checked. */
export function chunkRowOf(row: Record<string, unknown>): ChunkRow {
  const symbols: unknown = JSON.parse(String(row.symbols ?? "[]"));
  return {
    path: String(row.path),
    startLine: Number(row.start_line),
    endLine: Number(row.end_line),
    kind: String(row.kind) as ChunkKind,
    symbols: Array.isArray(symbols) ? symbols.map(String) : [],
  };
}

/**
 * Ranked chunks as hits, in rank order, each with its lines as they are on disk now and its score
 * relative to the best. A chunk whose file is gone since it was indexed is left out (the next refresh
 * drops it), as is one the store no longer has.
 */
export async function hitsWithText(root: string, ranked: readonly ScoredId[], chunks: ReadonlyMap<number, ChunkRow>): Promise<CodeSearchHit[]> {
  const best = ranked[0]?.score ?? 1;
  const byFile = new Map<string, string[] | undefined>();
  const hits: CodeSearchHit[] = [];
  for (const { id, score } of ranked) {
    const chunk = chunks.get(id);
    if (!chunk) continue;
    if (!byFile.has(chunk.path)) byFile.set(chunk.path, await readLines(`${root}/${chunk.path}`));
    const lines = byFile.get(chunk.path);
    if (!lines) continue;
    hits.push({ ...chunk, score: best > 0 ? score / best : 0, text: lines.slice(chunk.startLine - 1, chunk.endLine).join("\n") });
  }
  return hits;
}
