import { execFileSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn, type CliRun } from "./cliProcess";

/** A live process: its argv and where its threads wait in the kernel. Zombies have no argv. */
interface Proc {
  pid: number;
  argv: string[];
  wchan: string[];
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").slice(0, -1);
      if (argv.length === 0) continue;
      const wchan = readdirSync(`/proc/${name}/task`).map((tid) => readFileSync(`/proc/${name}/task/${tid}/wchan`, "utf8").trim());
      found.push({ pid: Number(name), argv, wchan });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** Live processes whose command line holds `marker`. */
const withMarker = (marker: string) => processes().filter((p) => p.argv.some((a) => a.includes(marker)));

async function waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * What is still there a while after the CLI has gone. A dying child needs a few ms, but the kill
 * comes from a watcher shell that must first be scheduled: on a loaded two-core CI machine that
 * once took over 2 s. A child that is never killed still fails, only later.
 */
async function leftAfterwards(marker: string): Promise<Proc[]> {
  const deadline = Date.now() + 10_000;
  let left = withMarker(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = withMarker(marker);
  }
  return left;
}

const basename = (path: string) => path.split("/").at(-1);

describe.runIf(process.platform === "linux")("children die with the CLI", () => {
  const state = cliWithModelServer();
  let marker = "";

  afterEach(() => {
    // What a failing run left behind must not outlive the test either.
    for (const p of withMarker(marker)) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });

  function startCli(workspace: string, approve: string, prompt: string): { cli: Promise<CliRun>; child: Promise<ChildProcess> } {
    let started: (child: ChildProcess) => void = () => undefined;
    const child = new Promise<ChildProcess>((resolve) => (started = resolve));
    const cli = runCli(
      state.cli,
      ["run", "--provider", "openai", "--base-url", state.server.openaiBaseUrl, "--workspace", workspace, "--protocol", "xml", "--approve", approve, prompt],
      { OPENAI_API_KEY: "sk-children" },
      { onStart: started },
    );
    return { cli, child };
  }

  it("a search blocked on a FIFO dies when the CLI is killed with SIGKILL", { timeout: 60_000 }, async () => {
    marker = `kiln-needle-${process.pid}-${Date.now()}`;
    const workspace = mkdtempSync(join(tmpdir(), "kiln-children-"));
    writeFileSync(join(workspace, "a.ts"), "nothing here\n");
    mkdirSync(join(workspace, "sub"));
    // rg opens every .gitignore it meets to read its rules: opening a FIFO waits for a writer for good.
    execFileSync("mkfifo", [join(workspace, "sub", ".gitignore")]);
    state.server.enqueue(xmlTurn("search_files", { path: ".", regex: marker }));
    const { cli, child } = startCli(workspace, "read", "Search.");
    // Killed while rg waits on the FIFO, before the CLI's own check (a second or so) would stop it.
    const rg = await waitFor("rg waiting on the FIFO", () => withMarker(marker).find((p) => basename(p.argv[0]!) === "rg" && p.wchan.some((w) => /wait_for_partner|fifo_open/.test(w))));
    (await child).kill("SIGKILL");
    await cli;
    expect(await leftAfterwards(marker), `rg (pid ${rg.pid}) outlived the CLI`).toEqual([]);
  });

  it.each(["SIGTERM", "SIGKILL"] as const)("a command and what it started die when the CLI gets %s", { timeout: 60_000 }, async (signal) => {
    // A unique duration names the sleep; the `; true` keeps the shell there as its parent.
    const seconds = `300.${process.pid}${Date.now() % 100_000}`;
    marker = seconds;
    const workspace = mkdtempSync(join(tmpdir(), "kiln-children-"));
    state.server.enqueue(xmlTurn("execute_command", { command: `sleep ${seconds}; true` }));
    const { cli, child } = startCli(workspace, "all", "Wait.");
    await waitFor("the command's sleep", () => withMarker(marker).find((p) => p.argv[0] === "sleep"));
    (await child).kill(signal);
    const run = await cli;
    expect(await leftAfterwards(marker)).toEqual([]);
    // SIGTERM stops the task as Ctrl+C does: cleanly, with the exit status of a stopped run.
    if (signal === "SIGTERM") expect(run.code).toBe(3);
  });
});
