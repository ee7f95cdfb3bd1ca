/**
 * search_files against running rg by hand on the same tree and pattern: what the tool adds (spawn,
 * JSON parsing, grouping, ignore checks) on top of the search itself. Target: at most 1.2x. Prints
 * numbers; asserts nothing.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { findMode } from "../../src/core/modes/modes";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../src/core/tools/registry";
import { ripgrepPath } from "../../src/core/tools/ripgrep";

const FOLDERS = 200;
const FILES_PER_FOLDER = 100;
const RUNS = 15;

/** 20k small TypeScript-like files, a tenth of the folders ignored by .gitignore, one secret file. */
function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), "kiln-search-bench-"));
  writeFileSync(join(root, ".gitignore"), "generated-*/\n*.log\n");
  writeFileSync(join(root, ".kilocodeignore"), "secrets/\n");
  mkdirSync(join(root, "secrets"));
  writeFileSync(join(root, "secrets", "key.ts"), "export const rareNeedle = 'hidden';\n");
  for (let d = 0; d < FOLDERS; d++) {
    const folder = join(root, d % 10 === 0 ? `generated-${d}` : `pkg-${d}`);
    mkdirSync(folder);
    for (let f = 0; f < FILES_PER_FOLDER; f++) {
      const lines: string[] = [`import { helper${f % 7} } from "../shared/helpers";`, ""];
      for (let i = 0; i < 40; i++) lines.push(i % 10 === 0 ? `export function handle${d}_${f}_${i}(input: string): string {` : `  const value${i} = helper${i % 7}(input, ${i}); // step ${i}`);
      if ((d * FILES_PER_FOLDER + f) % 997 === 0) lines.push(`// rareNeedle in ${d}/${f}`);
      writeFileSync(join(folder, `file${f}.ts`), `${lines.join("\n")}\n`);
    }
  }
  return root;
}

function runRgDirect(rg: string, cwd: string, regex: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      rg,
      ["--context", "1", "--no-require-git", "--hidden", "--no-config", "--glob", "!.git", "--glob", "!node_modules", "--ignore-file", join(cwd, ".kilocodeignore"), "--regexp", regex, "."],
      { cwd },
    );
    let bytes = 0;
    child.stdout.on("data", (d: Buffer) => (bytes += d.length));
    child.on("error", reject);
    child.on("close", () => resolve(bytes));
  });
}

/**
 * The two sides run alternately, so load from anything else on the machine hits both alike;
 * the median of each is reported.
 */
async function interleaved(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, run] of [a, b].entries()) {
      const t0 = performance.now();
      await run();
      times[k]!.push(performance.now() - t0);
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

export async function runSearchBench(): Promise<void> {
  const rg = ripgrepPath();
  if (!rg) {
    console.log("\nsearch_files: rg not found; skipped");
    return;
  }
  const t0 = performance.now();
  const root = makeTree();
  console.log(`\nsearch_files vs rg run directly: ${FOLDERS * FILES_PER_FOLDER} files (made in ${((performance.now() - t0) / 1000).toFixed(1)} s), median of ${RUNS} alternating runs`);
  const deps: PipelineDeps = {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd: root, fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
  try {
    console.log("pattern                      | search_files | rg direct  | ratio | result");
    for (const [label, regex] of [
      ["rare (about 20 files)", "rareNeedle"],
      ["none", "noSuchIdentifier\\d+"],
      ["common (cap at 300)", "helper3\\(input"],
    ] as const) {
      let summary = "";
      const [tool, direct] = await interleaved(
        async () => {
          const result = await runToolCall({ type: "tool_use", name: "search_files", params: { path: ".", regex }, partial: false }, deps);
          summary = result.forModel.split("\n")[0]!.slice(0, 40);
        },
        () => runRgDirect(rg, root, regex),
      );
      console.log(`${label.padEnd(28)} | ${`${tool.toFixed(1)} ms`.padEnd(12)} | ${`${direct.toFixed(1)} ms`.padEnd(10)} | ${(tool / direct).toFixed(2)}x | ${summary}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
