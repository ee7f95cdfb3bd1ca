/**
 * Issue 19's numbers for the codebase index:
 * - retrieval quality on evalSet.json (makeEvalSet.ts): recall@5 and MRR@10 per kind of query, by
 *   full text alone and fused with a deterministic test embedder's vectors;
 * - a first index of a workspace of 10,000 real files from node_modules, in a child process of its
 *   own so its peak memory is its own (targets: under 60 s, under 300 MB);
 * - one changed file indexed again, as a watcher asks for it and as a full refresh finds it (200 ms);
 * - query latency p50 / p95 over that workspace's chunks (30 / 100 ms at 100k chunks).
 * Prints numbers; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { createEmbedder } from "../../../src/core/codeIndex/embedder";
import { INDEX_HEAP_MB } from "../../../src/platform/node/workerCodeIndex";
import { FakeEmbeddingServer } from "../../fixtures/fakeEmbeddingServer";
import { ASKED, copyCorpus, DISTRACTORS, versionOf } from "./corpus";
import type { EvalQuery, EvalSet } from "./makeEvalSet";

const CHILD_ENV = "KILN_INDEX_BENCH_WORKSPACE";
const WORKSPACE_FILES = 10_000;
const SOURCE = /\.(ts|tsx|js|mjs|cjs|py|md)$/;

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** 1-based rank of the expected chunk in the first 10, or undefined. */
async function rankOf(index: CodebaseIndex, q: EvalQuery): Promise<number | undefined> {
  const hits = await index.search(q.query, { limit: 10 });
  const at = hits.findIndex((h) => h.path === q.path && h.symbols.includes(q.symbol));
  return at < 0 ? undefined : at + 1;
}

/** recall@5 and MRR@10 of `index` on the set, per kind of query, printed under `label`; the queries' latencies. */
async function evaluate(index: CodebaseIndex, set: EvalSet, label: string): Promise<number[]> {
  const latencies: number[] = [];
  for (const kind of ["doc", "name"] as const) {
    const queries = set.queries.filter((q) => q.kind === kind);
    let found5 = 0;
    let reciprocal = 0;
    for (const q of queries) {
      const t = performance.now();
      const rank = await rankOf(index, q);
      latencies.push(performance.now() - t);
      if (rank !== undefined && rank <= 5) found5++;
      if (rank !== undefined) reciprocal += 1 / rank;
    }
    const what = kind === "doc" ? "a doc comment's first sentence" : "the name in words";
    console.log(
      `  ${label.padEnd(19)} ${String(queries.length).padStart(3)} queries by ${what.padEnd(30)} recall@5 ${(found5 / queries.length).toFixed(3)}, MRR@10 ${(reciprocal / queries.length).toFixed(3)}`,
    );
  }
  return latencies;
}

async function retrievalQuality(root: string): Promise<void> {
  const set = JSON.parse(readFileSync(join(root, "test/bench/codeSearch/evalSet.json"), "utf8")) as EvalSet;
  const stale = Object.entries(set.packages).filter(([name, version]) => versionOf(root, name) !== version);
  if (stale.length > 0) console.log(`  (the set was made from other versions of ${stale.map(([n]) => n).join(", ")}: npm run bench -- make-eval-set)`);
  const workspace = copyCorpus(root, [...ASKED, ...DISTRACTORS]);
  // The deterministic test embedder: words mapped to concepts (a few synonym groups) hashed into
  // 256 buckets, over OpenAI's wire format. No download, the same vectors every run.
  const embeddings = await new FakeEmbeddingServer({ dimension: 256 }).start();
  try {
    const index = new CodebaseIndex(workspace);
    const started = performance.now();
    const summary = await index.refresh();
    console.log(
      `  corpus: ${ASKED.map(([n]) => n).join(", ")} asked about, ${DISTRACTORS.map(([n]) => n).join(", ")} as distractors: ${summary.filesTotal} files, ${summary.chunks} chunks, indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const latencies = await evaluate(index, set, "full-text,");
    console.log(`  query with its hits read from disk: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`);
    await index.close();

    const embedder = createEmbedder({ kind: "openai-compatible", model: "kiln-test-embedder", baseUrl: embeddings.openaiBaseUrl });
    const fused = new CodebaseIndex(workspace, { embedder });
    const vectorsStarted = performance.now();
    const withVectors = await fused.refresh({ waitForVectors: true });
    console.log(`  with the test embedder: ${withVectors.embedded} chunk texts embedded in ${((performance.now() - vectorsStarted) / 1000).toFixed(1)} s`);
    const fusedLatencies = await evaluate(fused, set, "full-text + vectors,");
    console.log(`  query with vectors (one embedding request each): p50 ${percentile(fusedLatencies, 50).toFixed(1)} ms, p95 ${percentile(fusedLatencies, 95).toFixed(1)} ms`);
    await fused.close();
  } finally {
    await embeddings.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Up to `count` source files under 1 MB from node_modules, copied with their package paths. */
export function largeWorkspace(root: string, count: number): string {
  const workspace = mkdtempSync(join(tmpdir(), "kiln-index-10k-"));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files.length >= count) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== ".bin" && entry.name !== ".cache") walk(path);
      else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") && !entry.name.includes(".min.") && statSync(path).size < 1024 * 1024) files.push(path);
    }
  };
  walk(join(root, "node_modules"));
  for (const file of files) {
    // Not under a folder named node_modules, dist or build: the index would leave those out.
    const target = join(workspace, file.slice(root.length + 1).replace(/(^|\/)(node_modules|dist|build|out|vendor)(?=\/)/g, "$1_$2"));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  return workspace;
}

/** In the child: index the workspace, change a file, query; print one JSON line. */
async function child(workspace: string, queries: readonly string[]): Promise<void> {
  // Kept in a database on disk, as VS Code and the CLI keep it.
  const storeDir = mkdtempSync(join(tmpdir(), "kiln-index-bench-store-"));
  const index = new CodebaseIndex(workspace, { storeDir });
  let started = performance.now();
  const summary = await index.refresh();
  const firstMs = performance.now() - started;
  const firstRss = process.resourceUsage().maxRSS;
  const latencies: number[] = [];
  for (const query of queries) {
    const t = performance.now();
    await index.search(query, { limit: 10 });
    latencies.push(performance.now() - t);
  }
  // One file changed, as the editor saves it: the watcher's path, then a full refresh that must find it.
  const changed = readdirSync(workspace, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name.endsWith(".ts"))!;
  const changedPath = join(changed.parentPath, changed.name);
  const rel = changedPath.slice(workspace.length + 1);
  writeFileSync(changedPath, `${readFileSync(changedPath, "utf8")}\nexport function addedByTheBench() {}\n`);
  started = performance.now();
  await index.refreshPaths([rel]);
  const watcherMs = performance.now() - started;
  writeFileSync(changedPath, `${readFileSync(changedPath, "utf8")}\nexport function addedAgain() {}\n`);
  started = performance.now();
  const again = await index.refresh();
  const refreshMs = performance.now() - started;
  await index.close();
  // A new session on the saved index: open it, walk the workspace, read nothing, answer a query.
  started = performance.now();
  const reopened = new CodebaseIndex(workspace, { storeDir });
  const restored = await reopened.refresh();
  await reopened.search(queries[0]!, { limit: 10 });
  const reopenMs = performance.now() - started;
  await reopened.close();
  const storeBytes = readdirSync(storeDir).reduce((sum, name) => sum + statSync(join(storeDir, name)).size, 0);
  rmSync(storeDir, { recursive: true, force: true });
  globalThis.gc?.();
  console.log(
    JSON.stringify({
      files: summary.filesTotal,
      chunks: summary.chunks,
      firstMs,
      firstRss,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      watcherMs,
      refreshMs,
      refreshChanged: again.changed,
      reopenMs,
      reopenChanged: restored.changed,
      storeMB: storeBytes / 2 ** 20,
    }),
  );
}

export async function runIndexBench(root: string): Promise<void> {
  const set = JSON.parse(readFileSync(join(root, "test/bench/codeSearch/evalSet.json"), "utf8")) as EvalSet;
  const childWorkspace = process.env[CHILD_ENV];
  if (childWorkspace) {
    await child(
      childWorkspace,
      set.queries.map((q) => q.query),
    );
    process.exit(0);
  }
  console.log("\nCodebase index: retrieval quality on the evaluation set (full-text, and full-text + a test embedder's vectors)");
  await retrievalQuality(root);

  console.log(
    `\nCodebase index: a workspace of ${WORKSPACE_FILES.toLocaleString("en")} files from node_modules (targets: first index < 60 s and < 300 MB; a changed file < 200 ms; queries p50 < 30 ms, p95 < 100 ms at 100k chunks)`,
  );
  const workspace = largeWorkspace(root, WORKSPACE_FILES);
  try {
    const baseline = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], { encoding: "utf8" });
    const indexIn = (flags: string[]): Record<string, number> | undefined => {
      const run = spawnSync(process.execPath, [...process.execArgv, ...flags, process.argv[1]!, "index"], { env: { ...process.env, [CHILD_ENV]: workspace }, encoding: "utf8", maxBuffer: 1 << 24 });
      const line = run.stdout.trim().split("\n").at(-1) ?? "";
      if (run.status === 0 && line.startsWith("{")) return JSON.parse(line) as Record<string, number>;
      console.log(`  the indexing child failed (exit ${run.status}): ${run.stderr.slice(-2000)}`);
      return undefined;
    };
    // As the editor runs it (its worker's heap limit), and as the CLI does (V8's default limit).
    const r = indexIn([`--max-old-space-size=${INDEX_HEAP_MB}`]);
    const cli = indexIn([]);
    if (!r || !cli) return;
    const mb = (kb: number) => (kb / 1024).toFixed(0);
    console.log(
      `  first index: ${r.files} files, ${r.chunks} chunks in ${(r.firstMs! / 1000).toFixed(1)} s; peak RSS ${mb(r.firstRss!)} MB with the editor's worker heap limit (${INDEX_HEAP_MB} MB), ${mb(cli.firstRss!)} MB with V8's default (the CLI); a bare node: ${mb(Number(baseline.stdout))} MB; heap after ${r.heapMB!.toFixed(0)} MB`,
    );
    console.log(
      `  one changed file: ${r.watcherMs!.toFixed(1)} ms as a watcher reports it; ${r.refreshMs!.toFixed(0)} ms for a full refresh that finds it (walks every folder, ${r.refreshChanged} file chunked again)`,
    );
    console.log(`  ${set.queries.length} queries at ${r.chunks} chunks, hits read from disk: p50 ${r.p50!.toFixed(1)} ms, p95 ${r.p95!.toFixed(1)} ms`);
    console.log(`  saved: ${r.storeMB!.toFixed(1)} MB on disk; a new session opens it, walks the workspace and answers in ${(r.reopenMs! / 1000).toFixed(2)} s (${r.reopenChanged} files read again)`);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
