/**
 * The command sandbox with the real bubblewrap and real shells: what a command inside can and
 * cannot reach. The fake home and workspace live under /var/tmp, not /tmp: the sandbox's /tmp is a
 * private one, and a home under the host's /tmp would be invisible for the wrong reason.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeTerminal } from "../../src/platform/node/nodeTerminal";
import type { CommandStatus } from "../../src/core/ports/terminal";
import { BWRAP_ENV, BwrapSandbox, commandLine, commandSandbox, sandboxSupport } from "../../src/core/sandbox";

const KEY = "FAKE-PRIVATE-KEY-do-not-leak";
let root: string;
let home: string;
let workspace: string;
let outside: string;
let server: Server;
let port: number;

function bwrapPath(): string {
  const support = sandboxSupport();
  if (!support.available) throw new Error(`these tests need a working bubblewrap (scripts/setup-tools.sh installs it): ${support.reason}`);
  return support.bwrap;
}

/** Runs `command` in the workspace inside a sandbox over the fake home; the network as asked. */
async function sandboxed(command: string, options: { network?: boolean; cwd?: string; timeoutMs?: number } = {}): Promise<CommandStatus> {
  const env = { ...process.env, HOME: home };
  const sandbox = new BwrapSandbox(bwrapPath(), { workspace, network: options.network ?? false }, env);
  const terminal = createNodeTerminal({ baseEnv: env, sandbox: () => sandbox });
  try {
    return await terminal.run(command, { cwd: options.cwd ?? workspace, timeoutMs: options.timeoutMs ?? 15_000 });
  } finally {
    terminal.dispose();
  }
}

beforeAll(async () => {
  root = mkdtempSync("/var/tmp/kiln-sandbox-");
  home = join(root, "home");
  workspace = join(root, "ws");
  outside = join(root, "outside");
  for (const dir of [join(home, ".ssh"), join(home, ".aws"), join(home, ".kilocode", "kiln"), workspace, outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
  writeFileSync(join(home, ".aws", "credentials"), `aws_secret_access_key=${KEY}\n`);
  writeFileSync(join(home, ".netrc"), `machine example.com password ${KEY}\n`);
  writeFileSync(join(home, ".kilocode", "kiln", "history.json"), `${KEY}\n`);
  writeFileSync(join(home, "notes.txt"), "plain home file\n");
  writeFileSync(join(workspace, "readme.txt"), "in the workspace\n");
  execFileSync("git", ["init", "-q", workspace]);
  server = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("the command sandbox (bubblewrap)", () => {
  it("is available here", () => {
    expect(sandboxSupport()).toMatchObject({ available: true });
  });

  it("lets a command write in the workspace and read the rest of the machine", async () => {
    const status = await sandboxed("echo made > made.txt && mkdir -p sub && echo deeper > sub/f.txt && cat readme.txt && cat $HOME/notes.txt && head -1 /etc/passwd");
    expect(status.exitCode).toBe(0);
    expect(readFileSync(join(workspace, "made.txt"), "utf8")).toBe("made\n");
    expect(readFileSync(join(workspace, "sub", "f.txt"), "utf8")).toBe("deeper\n");
    expect(status.output).toContain("in the workspace");
    expect(status.output).toContain("plain home file");
    expect(status.output).toMatch(/^root:/m);
    expect(status.sandbox).toMatch(/^Sandbox: .*the network is off\.$/);
  });

  it("keeps writes outside the workspace from landing: a sibling folder, the home folder, the host's /tmp", async () => {
    const marker = `kiln-sandbox-marker-${process.pid}-${Date.now()}`;
    const status = await sandboxed(
      `echo x > ${outside}/escaped.txt; echo "sibling $?"; touch $HOME/escaped; echo "home $?"; echo x > /tmp/${marker} && cat /tmp/${marker} && echo "tmp ok"; touch /usr/${marker}; echo "usr $?"`,
    );
    expect(status.output).toMatch(/sibling [1-9]/);
    expect(status.output).toMatch(/home [1-9]/);
    expect(status.output).toMatch(/usr [1-9]/);
    expect(status.output).toContain("Read-only file system");
    // The private /tmp takes the write, and it goes with the command.
    expect(status.output).toContain("tmp ok");
    expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
    expect(existsSync(join(home, "escaped"))).toBe(false);
    expect(existsSync(join("/tmp", marker))).toBe(false);
    expect(existsSync(join("/usr", marker))).toBe(false);
  });

  it("hides the home folder's credentials and Kiln's own data", async () => {
    const status = await sandboxed(
      "ls -A $HOME/.ssh; cat $HOME/.ssh/id_rsa; cat $HOME/.aws/credentials; cat $HOME/.netrc; cat $HOME/.kilocode/kiln/history.json; echo x > $HOME/.ssh/planted; echo done",
    );
    expect(status.output).not.toContain(KEY);
    expect(status.output).toContain("No such file or directory");
    expect(status.output).toContain("done");
    // Still there outside, untouched.
    expect(readFileSync(join(home, ".ssh", "id_rsa"), "utf8")).toContain(KEY);
    expect(existsSync(join(home, ".ssh", "planted"))).toBe(false);
  });

  it("has no network: a server on the host's 127.0.0.1 cannot be reached", async () => {
    const connect = `"${process.execPath}" -e "require('net').connect(${port}, '127.0.0.1').on('data', d => { process.stdout.write('got ' + d); process.exit(0); }).on('error', e => { console.log('error ' + e.code); process.exit(3); })"`;
    // The same command outside the sandbox reaches it: the server is up. (Not execFileSync: the server runs in this process.)
    expect((await promisify(execFile)("/bin/sh", ["-c", connect], { encoding: "utf8" })).stdout).toContain("hello from the host");
    const status = await sandboxed(connect);
    expect(status.output).toMatch(/error E(CONNREFUSED|NETUNREACH)/);
    expect(status.exitCode).toBe(3);
  });

  it("with the network allowed, reaches it", async () => {
    const status = await sandboxed(`"${process.execPath}" -e "require('net').connect(${port}, '127.0.0.1').on('data', d => { process.stdout.write('got ' + d); process.exit(0); })"`, {
      network: true,
    });
    expect(status.output).toContain("got hello from the host");
    expect(status.sandbox).toContain("the network is on");
  });

  it("cannot read the environment of the process that started it, nor see any process outside", async () => {
    // This test's own process is the sandbox's parent: readable outside, absent inside.
    const environ = `/proc/${process.pid}/environ`;
    expect(readFileSync(environ).length).toBeGreaterThan(0);
    const status = await sandboxed(`cat ${environ} | tr '\\0' '\\n' | head -c 200; echo "read $?"; ls /proc | grep -c '^[0-9]'`);
    expect(status.output).not.toContain("PATH=");
    // Only the sandbox's own few processes exist in its /proc.
    const count = Number(status.output.trim().split("\n").pop());
    expect(count).toBeLessThan(10);
  });

  it("keeps git's hooks and config and the editor's and Kiln's settings read-only in the workspace", async () => {
    writeFileSync(join(workspace, "tracked.txt"), "x\n");
    const status = await sandboxed(
      [
        "echo 'touch pwned' > .git/hooks/post-checkout; echo \"hook $?\"",
        "git config core.fsmonitor 'touch pwned'; echo \"config $?\"",
        'mv .git .git-moved; echo "move $?"',
        "mkdir -p .vscode && echo '{}' > .vscode/settings.json; echo \"vscode $?\"",
        "echo '{}' > .kilocode/mcp.json; echo \"kilocode $?\"",
        'git add tracked.txt; echo "add $?"',
      ].join("; "),
    );
    for (const step of ["hook", "config", "move", "vscode", "kilocode"]) expect(status.output).toMatch(new RegExp(`${step} [1-9]`));
    // git itself still works: only what runs code later is locked.
    expect(status.output).toContain("add 0");
    expect(existsSync(join(workspace, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(readFileSync(join(workspace, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    expect(existsSync(join(workspace, ".vscode", "settings.json"))).toBe(false);
    expect(existsSync(join(workspace, ".kilocode", "mcp.json"))).toBe(false);
    expect(execFileSync("git", ["-C", workspace, "diff", "--cached", "--name-only"], { encoding: "utf8" })).toContain("tracked.txt");
  });

  // VS Code's terminal runs a sandboxed command as one line in the user's shell: it must mean the same there.
  it.each(["/bin/sh", "/bin/bash", "/bin/zsh"].filter((shell) => existsSync(shell)))("%s runs the one-line form as the command reads", async (shell) => {
    const command = `x=1; echo "double $x $((1+2))" 'single $x' it\\'s; printf '%s|' "a b" c; echo; pwd`;
    const run = promisify(execFile);
    const direct = await run(shell, ["-c", command], { cwd: workspace, encoding: "utf8" });
    const line = commandLine(new BwrapSandbox(bwrapPath(), { workspace, network: false }, { ...process.env, HOME: home }).wrap(command, workspace, shell));
    const through = await run(shell, ["-c", line], { cwd: workspace, encoding: "utf8" });
    expect(direct.stdout).toBe(`double 1 3 single $x it's\na b|c|\n${workspace}\n`);
    expect(through.stdout).toBe(direct.stdout);
  });

  it("a stopped command ends with everything it started inside", async () => {
    const env = { ...process.env, HOME: home };
    const sandbox = new BwrapSandbox(bwrapPath(), { workspace, network: false }, env);
    const terminal = createNodeTerminal({ baseEnv: env, sandbox: () => sandbox });
    const first = await terminal.run("sleep 2 && touch late.txt", { cwd: workspace, timeoutMs: 300 });
    expect(first.state).toBe("running");
    const stopped = await terminal.read(first.id, { stop: true });
    expect(stopped?.state).toBe("killed");
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(existsSync(join(workspace, "late.txt"))).toBe(false);
    terminal.dispose();
  });
});

describe("where the sandbox cannot run", () => {
  it("says why: a bwrap that is not there", () => {
    const support = sandboxSupport({ platform: "linux", env: { [BWRAP_ENV]: "/nonexistent/kiln-test/bwrap", PATH: process.env.PATH } });
    expect(support).toEqual({ available: false, reason: "bubblewrap was not found at /nonexistent/kiln-test/bwrap" });
  });

  it("says why: bwrap not on PATH, and other systems", () => {
    expect(sandboxSupport({ platform: "linux", env: { PATH: "/nonexistent" } })).toMatchObject({ available: false, reason: expect.stringContaining("apt-get install bubblewrap") });
    expect(sandboxSupport({ platform: "darwin", env: {} })).toEqual({ available: false, reason: "it uses bubblewrap, which runs only on Linux, and this is macOS" });
    expect(sandboxSupport({ platform: "win32", env: {} })).toMatchObject({ available: false, reason: expect.stringContaining("Windows") });
  });

  it("the state is unavailable, and off stays off whatever the machine", () => {
    const env = { [BWRAP_ENV]: "/nonexistent/kiln-test/bwrap" };
    expect(commandSandbox({ enabled: true, network: false, workspace: "/ws" }, { platform: "linux", env })).toEqual({
      kind: "unavailable",
      reason: "bubblewrap was not found at /nonexistent/kiln-test/bwrap",
    });
    expect(commandSandbox({ enabled: false, network: false, workspace: "/ws" }, { platform: "linux", env })).toEqual({ kind: "off" });
  });
});
