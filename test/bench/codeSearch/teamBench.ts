/**
 * The team index (src/core/codeIndex/team) on Debian's PostgreSQL server, beside the workspace's own
 * index in the same process, over the same 10,000 files from node_modules:
 * - the first clone's first index (every file read, chunked and sent) against the local first index;
 * - a second clone of the same repository: its first refresh reads and hashes its files, and sends
 *   nothing (the teammate's rows are its index);
 * - one changed file as the watcher sends it;
 * - a new branch: copied on the server, only what differs sent;
 * - query latency p50 / p95 on the evaluation set's queries, team and local, and their ratio.
 * Prints numbers; asserts nothing. Needs Debian's postgresql package (scripts/setup-tools.sh).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { TeamIndex } from "../../../src/core/codeIndex/team/teamIndex";
import type { CodeSearchIndex } from "../../../src/core/codeIndex/types";
import { asAdmin, startDebianPostgres } from "../../fixtures/debianPostgres";
import { largeWorkspace, percentile } from "./indexBench";
import type { EvalSet } from "./makeEvalSet";

const FILES = 10_000;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function latencies(index: CodeSearchIndex, queries: readonly string[]): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (const query of queries) times.push((await timed(() => index.search(query, { limit: 10 })))[1]);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

export async function runTeamBench(root: string): Promise<void> {
  console.log(`\nTeam codebase index on Debian's PostgreSQL, against the workspace's own index (${FILES.toLocaleString("en")} files from node_modules)`);
  const set = JSON.parse(readFileSync(join(root, "test/bench/codeSearch/evalSet.json"), "utf8")) as EvalSet;
  const queries = set.queries.map((q) => q.query);
  const postgres = await startDebianPostgres();
  const alice = largeWorkspace(root, FILES);
  const bob = mkdtempSync(join(tmpdir(), "kiln-team-bench-bob-"));
  const folders = [alice, bob, `${alice}-state`, `${bob}-state`, `${alice}-local`];
  try {
    await asAdmin(postgres, "CREATE ROLE bench LOGIN PASSWORD 'bench'", "CREATE DATABASE code OWNER bench");
    git(alice, "init", "-q", "-b", "main");
    git(alice, "remote", "add", "origin", "git@github.com:acme/bench.git");
    cpSync(alice, bob, { recursive: true });
    const connection = { url: postgres.urlFor("bench", "code"), password: "bench" };

    const local = new CodebaseIndex(alice, { storeDir: `${alice}-local` });
    const [localSummary, localMs] = await timed(() => local.refresh());
    const team = new TeamIndex(alice, { connection, storeDir: `${alice}-state` });
    const [teamSummary, teamMs] = await timed(() => team.refresh());
    console.log(
      `  first index: local ${(localMs / 1000).toFixed(1)} s, team ${(teamMs / 1000).toFixed(1)} s (×${(teamMs / localMs).toFixed(2)}); ${teamSummary.filesTotal} files, ${teamSummary.chunks} chunks (local ${localSummary.chunks})`,
    );

    const teammate = new TeamIndex(bob, { connection, storeDir: `${bob}-state` });
    const [bobSummary, bobMs] = await timed(() => teammate.refresh());
    console.log(`  a second clone's first refresh: ${(bobMs / 1000).toFixed(1)} s, ${bobSummary.changed} files sent (it reads and hashes its files; the index is the teammate's)`);

    const [localQ, teamQ] = [await latencies(local, queries), await latencies(team, queries)];
    console.log(
      `  ${queries.length} queries, hits read from disk: local p50 ${localQ.p50.toFixed(1)} / p95 ${localQ.p95.toFixed(1)} ms; team p50 ${teamQ.p50.toFixed(1)} / p95 ${teamQ.p95.toFixed(1)} ms (×${(teamQ.p50 / localQ.p50).toFixed(2)} at p50)`,
    );

    const found = readdirSync(alice, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name.endsWith(".ts"))!;
    const changed = join(found.parentPath, found.name).slice(alice.length + 1);
    writeFileSync(join(alice, changed), `${readFileSync(join(alice, changed), "utf8")}\nexport function addedByTheBench() {}\n`);
    const [, watcherMs] = await timed(() => team.refreshPaths([changed]));
    const [, localWatcherMs] = await timed(() => local.refreshPaths([changed]));
    console.log(`  one changed file as the watcher sends it: team ${watcherMs.toFixed(1)} ms, local ${localWatcherMs.toFixed(1)} ms`);

    git(alice, "checkout", "-q", "-b", "feature");
    writeFileSync(join(alice, "src-feature.ts"), "export function featureOnly() {}\n");
    const [branchSummary, branchMs] = await timed(() => team.refresh());
    console.log(`  a new branch: ${(branchMs / 1000).toFixed(1)} s, ${branchSummary.changed} file sent (the rest copied on the server)`);
    for (const index of [local, team, teammate]) await index.close();
  } finally {
    await postgres.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}
