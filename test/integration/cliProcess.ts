import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll } from "vitest";
import { cliOptions } from "../../esbuild.mjs";
import { FakeModelServer, type ScriptedTurn } from "../fixtures/fakeModelServer";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Builds dist/cli.js's bundle into a temp folder with the real build options. */
export async function buildCli(): Promise<string> {
  const cli = join(mkdtempSync(join(tmpdir(), "kiln-cli-")), "cli.js");
  await esbuild.build({ ...cliOptions, outfile: cli, sourcemap: false, logLevel: "silent" });
  return cli;
}

let historyDir: string | undefined;
let checkpointDir: string | undefined;
let indexDir: string | undefined;

/** Runs the CLI with none of the caller's API keys or KILN_ settings, only `env`. */
export function runCli(cli: string, args: string[], env: Record<string, string>, options: { stdin?: string; onStart?(child: ChildProcess): void } = {}): Promise<CliRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY|^KILN_/.test(k)));
  // Task history, checkpoints and codebase indexes go to temp folders unless the test names others, never to the runner's home.
  historyDir ??= mkdtempSync(join(tmpdir(), "kiln-cli-history-"));
  checkpointDir ??= mkdtempSync(join(tmpdir(), "kiln-cli-checkpoints-"));
  indexDir ??= mkdtempSync(join(tmpdir(), "kiln-cli-index-"));
  const child = spawn(process.execPath, [cli, ...args], { env: { ...clean, KILN_HISTORY_DIR: historyDir, KILN_CHECKPOINT_DIR: checkpointDir, KILN_INDEX_DIR: indexDir, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(options.stdin ?? "");
  options.onStart?.(child);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** For a test file: the CLI built and a fake model server started before its tests, closed after them. */
export function cliWithModelServer(): { readonly cli: string; readonly server: FakeModelServer } {
  const state = {} as { cli: string; server: FakeModelServer };
  beforeAll(async () => {
    state.cli = await buildCli();
    state.server = await new FakeModelServer().start();
  });
  afterAll(() => state.server.close());
  return state;
}

/** `kiln run` against the fake model's OpenAI endpoint in `workspace`, XML tools, reads approved, no checkpoints; `extra` before the task. */
export function readOnlyRunArgs(server: FakeModelServer, workspace: string, extra: readonly string[], task = "Find it"): string[] {
  return ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "--protocol", "xml", "--approve", "read", "--no-checkpoints", ...extra, task];
}

/** A model turn that calls one tool in Kiln's XML format (kiln run's default protocol). */
export function xmlTurn(name: string, args: Record<string, string | number>): ScriptedTurn {
  return {
    text: `Next.\n<${name}>\n${Object.entries(args)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join("\n")}\n</${name}>`,
  };
}
