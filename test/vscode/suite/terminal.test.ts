import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CommandPool } from "../../../src/platform/node/commandPool";
import { createVsCodeTerminal, TERMINAL_NAME, VsCodeLauncher, type ShellSignals } from "../../../src/hosts/vscode/terminal/vscodeTerminal";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, exchange, kiln } from "./helpers";

const workspace = process.env.KILN_TEST_WORKSPACE!;

describe("execute_command's terminal in the real extension host", () => {
  const launchers: VsCodeLauncher[] = [];
  const pools: CommandPool[] = [];
  function terminal(options: ConstructorParameters<typeof VsCodeLauncher>[0] = {}): CommandPool {
    const launcher = new VsCodeLauncher(options);
    const pool = createVsCodeTerminal(launcher);
    launchers.push(launcher);
    pools.push(pool);
    return pool;
  }
  after(() => {
    for (const pool of pools) pool.dispose();
    for (const launcher of launchers) launcher.dispose();
  });

  it("runs a command in a visible Kiln terminal and gets its output and exit code (whichever path this host allows)", async () => {
    const kilnTerminal = terminal();
    const kilnTerminalOpen = () => vscode.window.terminals.some((t) => t.name === TERMINAL_NAME);
    let openWhileRunning = false;
    // Looked at while output arrives: with shell integration, `exit 3` ends the shell and its terminal.
    const onOutput = () => (openWhileRunning ||= kilnTerminalOpen());
    const status = await kilnTerminal.run("echo hello && exit 3", { cwd: workspace, timeoutMs: 30_000, onOutput });
    // Shell integration when the host's shell reports in within 3 s, else the pseudoterminal fallback.
    console.log(`[terminal path in this host: ${status.via}; output ${JSON.stringify(status.output)}]`);
    assert.ok(["shell integration", "pseudoterminal"].includes(status.via), status.via);
    assert.equal(status.state, "exited");
    assert.equal(status.exitCode, 3);
    assert.match(status.output, /^hello\n?$/m);
    assert.ok(openWhileRunning, `a "${TERMINAL_NAME}" terminal is open while the command runs`);
    const again = await kilnTerminal.run("echo second; (exit 5)", { cwd: workspace, timeoutMs: 30_000 });
    assert.equal(again.via, status.via);
    assert.equal(again.exitCode, 5);
    assert.match(again.output, /second/);
    assert.ok(kilnTerminalOpen(), `a "${TERMINAL_NAME}" terminal is open: ${vscode.window.terminals.map((t) => t.name).join(", ")}`);
  });

  it("the pseudoterminal fallback captures stdout and stderr and the exit code", async () => {
    const fallback = terminal({ shellIntegration: false });
    const status = await fallback.run("echo out; echo err >&2; exit 4", { cwd: workspace, timeoutMs: 30_000 });
    assert.equal(status.via, "pseudoterminal");
    assert.equal(status.exitCode, 4);
    assert.equal(status.output, "out\nerr\n");
    assert.ok(vscode.window.terminals.filter((t) => t.name === TERMINAL_NAME).length >= 1);
  });

  it("leaves a slow command in the background and reads the rest of its output later", async () => {
    const kilnTerminal = terminal();
    const first = await kilnTerminal.run("echo one; sleep 2; echo two", { cwd: workspace, timeoutMs: 1_000 });
    // The first call may include the wait for shell integration; what matters is that it returned early.
    assert.equal(first.state, "running", `state ${first.state} via ${first.via}`);
    const later = await kilnTerminal.read(first.id, { waitMs: 20_000 });
    assert.equal(later?.state, "exited");
    assert.equal(later?.exitCode, 0);
    assert.match(`${first.output}${later?.output}`, /one\s+two/);
    assert.match(later?.output ?? "", /two/);
  });

  for (const shellIntegration of [true, false]) {
    it(`a cancel ends the command (${shellIntegration ? "default path" : "pseudoterminal"})`, async () => {
      const controller = new AbortController();
      const kilnTerminal = terminal({ shellIntegration });
      const pending = kilnTerminal.run("echo waiting; sleep 30; echo never", { cwd: workspace, timeoutMs: 30_000, signal: controller.signal, onOutput: () => controller.abort() });
      const started = Date.now();
      const status = await pending;
      assert.equal(status.state, "killed", `state ${status.state} via ${status.via}`);
      assert.ok(Date.now() - started < 15_000);
      assert.doesNotMatch(status.output, /never/);
    });
  }

  describe("a command in a shell-integration terminal ends when its shell returns", () => {
    // An empty home: shell integration starts once ~/.bashrc has run, and a runner's rc file may take a minute.
    const home = mkdtempSync(join(tmpdir(), "kiln-home-"));
    const env = { HOME: home };
    after(() => rmSync(home, { recursive: true, force: true }));
    const real: ShellSignals = { onEnd: (listener) => vscode.window.onDidEndTerminalShellExecution(listener), read: (execution) => execution.read() };
    const withheld: vscode.Event<vscode.TerminalShellExecutionEndEvent> = () => ({ dispose: () => undefined });

    it("with VS Code's end event: its exit code", async () => {
      const pool = terminal({ shellSignals: real, integrationWaitMs: 20_000 });
      const first = await pool.run("echo first; (exit 5)", { cwd: workspace, timeoutMs: 30_000, env });
      assert.equal(first.via, "shell integration");
      assert.deepEqual([first.state, first.exitCode], ["exited", 5]);
      assert.match(first.output, /first/);
    });

    it("with the end event withheld, by the end of its output: done, its output whole, its code unknown", async () => {
      const pool = terminal({ shellSignals: { ...real, onEnd: withheld }, integrationWaitMs: 20_000 });
      const status = await pool.run("echo one; sleep 1; echo two; (exit 4)", { cwd: workspace, timeoutMs: 30_000, env });
      assert.equal(status.via, "shell integration");
      assert.equal(status.state, "exited", "not left running for ever");
      assert.equal(status.exitCode, undefined);
      assert.match(status.output, /one\s+two/);
    });

    it("with the end event withheld and an output stream that never ends, by the shell having no command left", async () => {
      const endless: ShellSignals = {
        onEnd: withheld,
        read: (execution) => {
          const stream = execution.read();
          return (async function* () {
            yield* stream;
            await new Promise<never>(() => undefined);
          })();
        },
        timing: { outputGraceMs: 1_500, pollMs: 500, quietMs: 2_000 },
      };
      const pool = terminal({ shellSignals: endless, integrationWaitMs: 20_000 });
      const status = await pool.run("echo one; sleep 3; echo two", { cwd: workspace, timeoutMs: 40_000, env });
      assert.equal(status.via, "shell integration");
      assert.equal(status.state, "exited", "not left running for ever");
      // `sleep 3` printed nothing for longer than the quiet time: its process kept the command alive.
      assert.match(status.output, /one\s+two/);
    });
  });

  it("keeps Kiln's keys out of the fallback's environment", async () => {
    process.env.OPENAI_API_KEY = "sk-host-test-secret";
    try {
      const status = await terminal({ shellIntegration: false }).run("env", { cwd: workspace, timeoutMs: 30_000 });
      assert.match(status.output, /PATH=/);
      assert.doesNotMatch(status.output, /sk-host-test-secret/);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it("the sidebar's agent runs execute_command through the extension's terminal", async () => {
    const server = await new FakeModelServer().start();
    try {
      const api = await kiln();
      await configure("openai-compatible", server.openaiBaseUrl);
      await vscode.workspace.getConfiguration("kiln").update("autoApprove", ["read", "command"], vscode.ConfigurationTarget.Global);
      // Each part of the chain must be on the allow-list (the default one has no `exit`).
      await vscode.workspace.getConfiguration("kiln").update("autoApproveAllowedCommands", ["echo", "exit"], vscode.ConfigurationTarget.Global);
      api.sidebar.newTask();
      const before = server.requests.length;
      server.enqueue(
        { text: "Running it.\n<execute_command>\n<command>echo wired-up; exit 2</command>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>Ran it.</result>\n</attempt_completion>" },
      );
      await exchange(api.sidebar, { type: "chat/send", text: "Run the command" }, 45_000);
      const toModel = JSON.stringify(server.requests[before + 1]?.body.messages);
      assert.match(toModel, /Exit code: 2/);
      assert.match(toModel, /wired-up/);
    } finally {
      await vscode.workspace.getConfiguration("kiln").update("autoApprove", undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration("kiln").update("autoApproveAllowedCommands", undefined, vscode.ConfigurationTarget.Global);
      await server.close();
    }
  });
});
