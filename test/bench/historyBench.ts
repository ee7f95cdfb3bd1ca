/**
 * Issue 8's numbers: checkpoint time per turn on a generated 10k-file workspace (target < 300 ms
 * after the first), and loading the history index of 1,000 saved tasks (target < 100 ms). Prints
 * numbers; asserts nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ShadowCheckpoints } from "../../src/core/checkpoints/ShadowCheckpoints";
import { countTokens, countTokensLarge } from "../../src/core/context/tokens";
import { HistoryStore } from "../../src/core/history/HistoryStore";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const TURNS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function checkpointBench(dir: string): Promise<void> {
  const workspace = join(dir, "workspace");
  for (let d = 0; d < FOLDERS; d++) {
    mkdirSync(join(workspace, `pkg${d}`), { recursive: true });
    for (let f = 0; f < FILES_PER_FOLDER; f++) writeFileSync(join(workspace, `pkg${d}`, `file${f}.ts`), `export const value${d}_${f} = ${d * f};\n`.repeat(20));
  }
  const checkpoints = new ShadowCheckpoints({ storage: join(dir, "storage"), workspace });
  let start = performance.now();
  await checkpoints.save("bench", "first");
  const first = performance.now() - start;
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    // A turn edits a few files, as an agent's edit tools do.
    for (let i = 0; i < 3; i++) writeFileSync(join(workspace, `pkg${(turn * 7 + i) % FOLDERS}`, `file${turn}.ts`), `export const changed = ${turn};\n`);
    start = performance.now();
    const result = await checkpoints.save("bench", `turn ${turn}`);
    times.push(performance.now() - start);
    if (result.kind !== "saved") console.log(`  turn ${turn}: ${result.kind}`);
  }
  console.log(
    `checkpoints, ${FOLDERS * FILES_PER_FOLDER} files: first ${first.toFixed(0)} ms; per turn median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (target < 300 ms)`,
  );
}

async function historyBench(dir: string): Promise<void> {
  const root = join(dir, "tasks");
  const store = new HistoryStore(root, new NodeFileSystem());
  const saves = [];
  for (let i = 0; i < 1_000; i++) {
    saves.push({
      id: `task${i}`,
      title: `Refactor the module number ${i} and update its tests`,
      workspace: `/home/user/project${i % 5}`,
      mode: "code",
      model: "claude-sonnet",
      protocol: "native" as const,
      tokensIn: i * 100,
      tokensOut: i * 10,
      cacheRead: 0,
      cacheWrite: 0,
      cost: i / 100,
      createdAt: i,
      updatedAt: i,
      favorite: i % 50 === 0,
      status: "completed",
    });
  }
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "index.json"), JSON.stringify({ version: 1, tasks: saves }));
  const times: number[] = [];
  for (let run = 0; run < 10; run++) {
    const start = performance.now();
    const list = await new HistoryStore(root, new NodeFileSystem()).list();
    times.push(performance.now() - start);
    if (list.entries.length !== 1_000) console.log(`  history: listed ${list.entries.length}`);
  }
  const start = performance.now();
  await store.save({ entry: { ...saves[0]!, id: "fresh" }, api: [{ role: "user", content: "hi" }], ui: [{ id: "m1", role: "user", text: "hi" }] });
  const save = performance.now() - start;
  console.log(`history index, 1,000 tasks: load median ${median(times).toFixed(1)} ms (target < 100 ms); one save into it ${save.toFixed(1)} ms`);
}

async function tokenBench(): Promise<void> {
  const text = Array.from({ length: 30_000 }, (_, i) => `  const value${i} = compute(input, ${i}); // step ${i}`)
    .join("\n")
    .slice(0, 1_000_000);
  let start = performance.now();
  const tokens = countTokens(text);
  const whole = performance.now() - start;
  // The sliced count yields to the event loop; measure the longest stall it leaves.
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  start = performance.now();
  await countTokensLarge(text);
  const sliced = performance.now() - start;
  clearInterval(ticker);
  console.log(
    `token counting, 1 MB (${tokens.toLocaleString("en-US")} tokens): ${whole.toFixed(0)} ms in one block; sliced ${sliced.toFixed(0)} ms with the event loop stalled at most ${longest.toFixed(0)} ms`,
  );
}

export async function runHistoryBench(): Promise<void> {
  await tokenBench();
  const dir = mkdtempSync(join(tmpdir(), "kiln-history-bench-"));
  try {
    await checkpointBench(dir);
    await historyBench(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
