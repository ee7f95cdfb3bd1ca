/**
 * What the codebase index's vectors cost (src/core/codeIndex/vectors.ts): the nearest chunks to a
 * query found by scanning every stored vector inside SQLite, at 10k and 100k chunks of 768 and 1536
 * dimensions (nomic-embed-text's and text-embedding-3-small's). Random unit vectors: the cost does
 * not depend on what they mean. Prints time per query, size on disk and the process's RSS; asserts nothing.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DATABASE_FILE, IndexDatabase } from "../../../src/core/codeIndex/indexDatabase";
import { VectorIndex } from "../../../src/core/codeIndex/vectors";

function randomUnit(dimension: number, next: () => number): Float32Array {
  const v = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) v[i] = next() - 0.5;
  return v;
}

export async function runVectorBench(): Promise<void> {
  console.log("\nCodebase index: vector search by a scan inside SQLite (int8, unit length)");
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const [chunks, dimension] of [
    [10_000, 768],
    [10_000, 1536],
    [100_000, 768],
    [100_000, 1536],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), "kiln-vector-bench-"));
    try {
      const { db } = await IndexDatabase.open(dir, "/bench");
      const vectors = new VectorIndex(db);
      let started = performance.now();
      for (let from = 0; from < chunks; from += 5000) {
        db.transaction(() => {
          for (let i = from; i < Math.min(chunks, from + 5000); i++) {
            const hash = i.toString(16).padStart(64, "0");
            db.run("INSERT INTO chunks (path, start_line, end_line, kind, symbols, hash) VALUES (?, 1, 10, 'function', '[]', ?)", [`src/f${i % 997}.ts`, hash]);
            vectors.put(hash, randomUnit(dimension, next));
          }
        });
      }
      const buildMs = performance.now() - started;
      const times: number[] = [];
      for (let q = 0; q < 10; q++) {
        started = performance.now();
        vectors.nearest(randomUnit(dimension, next), 50);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const mb = statSync(join(dir, DATABASE_FILE)).size / 2 ** 20;
      console.log(
        `  ${chunks.toLocaleString("en")} chunks × ${dimension}: stored in ${(buildMs / 1000).toFixed(1)} s, ${mb.toFixed(0)} MB on disk; nearest 50: p50 ${times[5]!.toFixed(0)} ms, max ${times[9]!.toFixed(0)} ms; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
      );
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
