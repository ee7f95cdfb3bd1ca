/**
 * Issue 15's numbers for replies that overwhelm: the CLI's peak memory and wall time for a 50 MB
 * reply, a 50 MB tool argument, an endless stream of argument deltas and 100,000 tool calls in one
 * reply (target: under 300 MB and 10 s each), with the default limits and, for the tool calls, with
 * the limit lifted so that every call is read. Prints numbers; asserts nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import { FakeModelServer, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { runMeasured } from "../fixtures/measuredRun";

const MB = 1024 * 1024;

function* repeated(piece: string, times: number): Generator<string> {
  for (let i = 0; i < times; i++) yield piece;
}

interface Case {
  name: string;
  toolProtocol: "xml" | "native";
  turn: () => ScriptedTurn;
  flags?: string[];
}

const readCalls = Array.from({ length: 1000 }, (_, i) => `<read_file><path>f${i % 7}.txt</path></read_file>\n`).join("");

const CASES: Case[] = [
  { name: "50 MB text reply", toolProtocol: "xml", turn: () => ({ chunks: repeated("x".repeat(64 * 1024), 800) }) },
  {
    name: "50 MB argument to an unknown tool (native)",
    toolProtocol: "native",
    turn: () => ({ toolCalls: [{ name: "not_a_tool", arguments: JSON.stringify({ data: "z".repeat(50 * MB) }) }] }),
  },
  { name: "endless tool-call argument deltas (native)", toolProtocol: "native", turn: () => ({ fault: { type: "flood", of: "toolArgs" } }) },
  { name: "100,000 tool calls in one reply (100 run)", toolProtocol: "xml", turn: () => ({ chunks: repeated(readCalls, 100) }) },
  {
    name: "100,000 tool calls, limits lifted (all read and answered; unknown tools, so the task stops after three errors)",
    toolProtocol: "native",
    turn: () => ({ toolCalls: Array.from({ length: 100_000 }, (_, i) => ({ id: `c${i}`, name: "not_a_tool", arguments: { n: i } })) }),
    flags: ["--max-tool-calls", "1000000", "--reply-max-chars", "100000000"],
  },
];

async function buildCli(root: string, dir: string): Promise<string> {
  // Both loaded at run time, not bundled into the bench: esbuild.mjs builds on its own when it is the
  // entry point, and esbuild finds its binary beside its own files.
  const { cliOptions } = (await import(pathToFileURL(join(root, "esbuild.mjs")).href)) as { cliOptions: Esbuild.BuildOptions };
  const esbuild = (await import(pathToFileURL(join(root, "node_modules", "esbuild", "lib", "main.js")).href)) as typeof Esbuild;
  const outfile = join(dir, "cli.js");
  await esbuild.build({ ...cliOptions, outfile, sourcemap: false, logLevel: "silent" });
  return outfile;
}

export async function runStreamLimitsBench(root: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "kiln-stream-limits-bench-"));
  const server = await new FakeModelServer().start();
  try {
    const cli = await buildCli(root, dir);
    const workspace = join(dir, "workspace");
    mkdirSync(workspace);
    for (let i = 0; i < 7; i++) writeFileSync(join(workspace, `f${i}.txt`), `file ${i}\n`);
    for (const c of CASES) {
      server.clearQueue();
      const done: ScriptedTurn =
        c.toolProtocol === "xml" ? { text: "<attempt_completion><result>Done.</result></attempt_completion>" } : { toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] };
      server.enqueue(c.turn(), done);
      const run = await runMeasured(
        cli,
        [
          "run",
          "--provider",
          "openai",
          "--base-url",
          server.openaiBaseUrl,
          "--workspace",
          workspace,
          "--approve",
          "read",
          "--protocol",
          c.toolProtocol,
          "--no-checkpoints",
          "--no-history",
          ...(c.flags ?? []),
          "Go",
        ],
        { env: { OPENAI_API_KEY: "sk-bench" } },
      );
      const peak = run.peakMb === undefined ? "?" : run.peakMb.toFixed(0);
      console.log(`kiln run, ${c.name}: ${run.seconds.toFixed(1)} s, peak ${peak} MB, exit ${run.code} (target < 10 s, < 300 MB)`);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
