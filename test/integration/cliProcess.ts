import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { cliOptions } from "../../esbuild.mjs";

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

/** Runs the CLI with none of the caller's API keys or KILN_ settings, only `env`. */
export function runCli(cli: string, args: string[], env: Record<string, string>, options: { stdin?: string; onStart?(child: ChildProcess): void } = {}): Promise<CliRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY|^KILN_/.test(k)));
  const child = spawn(process.execPath, [cli, ...args], { env: { ...clean, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(options.stdin ?? "");
  options.onStart?.(child);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}
