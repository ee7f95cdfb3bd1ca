/**
 * `kiln run --sandbox` end to end: the fake model asks for commands, the CLI runs them in the real
 * bubblewrap sandbox (no terminal is attached, so anything that asks is refused). And the machine
 * without a sandbox: pointed at a missing bwrap, the CLI says so once and every command asks.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../src/hosts/cli/args";
import { BWRAP_ENV } from "../../src/core/sandbox";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const state = cliWithModelServer();
const KEY = "FAKE-PRIVATE-KEY-cli-sandbox";
const roots: string[] = [];
let home: string;
let workspace: string;
let outside: string;

beforeEach(() => {
  // Under /var/tmp: the sandbox's own /tmp would hide a home under the host's /tmp for the wrong reason.
  const root = mkdtempSync("/var/tmp/kiln-sandbox-cli-");
  roots.push(root);
  home = join(root, "home");
  workspace = join(root, "ws");
  outside = join(root, "outside");
  for (const dir of [join(home, ".ssh"), workspace, outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
});
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const done = xmlTurn("attempt_completion", { result: "Done." });

/** One command through `kiln run`; what the model was told next, and the run. */
async function runCommand(command: string, flags: string[], env: Record<string, string> = {}) {
  const { server, cli } = state;
  const before = server.requests.length;
  server.enqueue(xmlTurn("execute_command", { command }), done);
  const result = await runCli(cli, ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, ...flags, "Go"], {
    OPENAI_API_KEY: "sk-sandbox-cli",
    HOME: home,
    ...env,
  });
  const toModel = JSON.stringify(server.requests[before + 1]?.body.messages ?? []);
  return { result, toModel };
}

const SANDBOXED = ["--sandbox", "--approve", "read,command", "--allow-command", "echo", "--allow-command", "cat", "--allow-command", "grep"];

// Each `kiln run` starts a Node process and a task: seconds apiece on a busy machine.
const SLOW = { timeout: 90_000 };

describe.runIf(process.platform === "linux")("kiln run --sandbox", SLOW, () => {
  it("runs an allowed command's redirection unasked, inside the workspace", async () => {
    const { result, toModel } = await runCommand("echo made-in-sandbox > made.txt", SANDBOXED);
    expect(result.code).toBe(0);
    expect(readFileSync(join(workspace, "made.txt"), "utf8")).toBe("made-in-sandbox\n");
    expect(toModel).toContain("Exit code: 0");
    expect(toModel).toContain("Sandbox: the command can write only in the workspace");
  });

  it("the same redirection outside the workspace runs unasked and cannot land", async () => {
    const target = join(outside, "escaped.txt");
    const { toModel } = await runCommand(`echo pwned > ${target}`, SANDBOXED);
    expect(toModel).toContain("Read-only file system");
    expect(existsSync(target)).toBe(false);
  });

  it("a command cannot read ~/.ssh", async () => {
    const { toModel } = await runCommand("cat ~/.ssh/id_rsa", SANDBOXED);
    expect(toModel).toContain("No such file or directory");
    expect(toModel).not.toContain(KEY);
  });

  it("a command cannot read the CLI's own environment through /proc", async () => {
    // KILN_ variables never reach a command's environment, so only the CLI process holds this one.
    const marker = `parent-only-${Date.now()}`;
    const command = "grep -a -o 'parent-only-[0-9]*' /proc/[0-9]*/environ; echo searched";
    const unsandboxed = await runCommand(command, ["--approve", "read,command"], { KILN_PARENT_MARKER: marker });
    // Without the sandbox the CLI's environ is right there (what the sandbox is for).
    expect(unsandboxed.toModel).toContain(marker);
    const { toModel } = await runCommand(command, SANDBOXED, { KILN_PARENT_MARKER: marker });
    expect(toModel).toContain("searched");
    expect(toModel).not.toContain(marker);
  });

  it("without --sandbox the redirection still asks, which headless means not run", async () => {
    const { toModel } = await runCommand("echo made > made.txt", SANDBOXED.slice(1));
    expect(existsSync(join(workspace, "made.txt"))).toBe(false);
    expect(toModel).toContain("writes to made.txt by redirection");
  });
});

describe("kiln run --sandbox where the sandbox cannot run", SLOW, () => {
  it("says so once on stderr, and an allowed command asks with the reason (so it does not run here)", async () => {
    const { result, toModel } = await runCommand("echo hi > ran.txt", ["--sandbox", "--approve", "read,command"], { [BWRAP_ENV]: "/nonexistent/kiln-test/bwrap" });
    const note = process.platform === "linux" ? "bubblewrap was not found at /nonexistent/kiln-test/bwrap" : "runs only on Linux";
    expect(result.stderr.match(/the command sandbox is not available here/g)).toHaveLength(1);
    expect(result.stderr).toContain(note);
    expect(toModel).toContain("The command sandbox is on but not available here");
    expect(toModel).toContain("Approving runs this command without it.");
    expect(existsSync(join(workspace, "ran.txt"))).toBe(false);
  });
});

describe("the flags", () => {
  const parse = (...argv: string[]) => parseArgs(["run", ...argv, "task"], {}, "/ws");

  it("--sandbox turns it on, --sandbox-network adds the network; off by default", () => {
    expect(parse().sandbox).toBeUndefined();
    expect(parse("--sandbox").sandbox).toEqual({ network: false });
    expect(parse("--sandbox-network", "--sandbox").sandbox).toEqual({ network: true });
  });

  it("--sandbox-network alone is a usage error", () => {
    expect(() => parse("--sandbox-network")).toThrow(UsageError);
  });
});
