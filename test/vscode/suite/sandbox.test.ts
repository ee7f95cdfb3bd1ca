import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { BWRAP_ENV, BwrapSandbox, sandboxSupport } from "../../../src/core/sandbox";
import { createVsCodeTerminal, TERMINAL_NAME, VsCodeLauncher } from "../../../src/hosts/vscode/terminal/vscodeTerminal";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, kiln, setKiln, startTurn, toolCards, xmlCall } from "./helpers";

const KEY = "FAKE-PRIVATE-KEY-host-sandbox";

describe("the command sandbox in the real extension host", () => {
  // Under /var/tmp: the sandbox's /tmp is its own, so a home under the host's /tmp would be hidden anyway.
  let root: string;
  let home: string;
  let workspace: string;
  let outside: string;
  before(() => {
    root = mkdtempSync("/var/tmp/kiln-host-sandbox-");
    home = join(root, "home");
    workspace = join(root, "ws");
    outside = join(root, "outside");
    for (const dir of [join(home, ".ssh"), workspace, outside]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const shellIntegration of [true, false]) {
    it(`runs a sandboxed command in a visible Kiln terminal and keeps it in the workspace (${shellIntegration ? "default path" : "pseudoterminal"})`, async () => {
      const support = sandboxSupport();
      assert.ok(support.available, `the command sandbox needs a working bubblewrap here: ${support.available ? "" : support.reason}`);
      const sandbox = new BwrapSandbox(support.bwrap, { workspace, network: false }, { ...process.env, HOME: home });
      const launcher = new VsCodeLauncher({ shellIntegration, sandbox: () => sandbox });
      const pool = createVsCodeTerminal(launcher);
      let openWhileRunning = false;
      const onOutput = () => (openWhileRunning ||= vscode.window.terminals.some((t) => t.name === TERMINAL_NAME));
      try {
        const command = `echo "it's inside" > made.txt; echo x > ${outside}/escaped.txt; echo "outside $?"; cat ${home}/.ssh/id_rsa; echo end-of-run`;
        const status = await pool.run(command, { cwd: workspace, timeoutMs: 30_000, onOutput });
        console.log(`[sandboxed terminal path in this host: ${status.via}]`);
        assert.equal(status.state, "exited", `state ${status.state} via ${status.via}: ${status.output}`);
        if (!shellIntegration) assert.equal(status.via, "pseudoterminal");
        assert.match(status.sandbox ?? "", /^Sandbox: /);
        assert.match(status.output, /outside [1-9]/);
        assert.match(status.output, /end-of-run/);
        assert.doesNotMatch(status.output, new RegExp(KEY));
        assert.equal(readFileSync(join(workspace, "made.txt"), "utf8"), "it's inside\n");
        assert.ok(!existsSync(join(outside, "escaped.txt")));
        assert.ok(openWhileRunning, `a "${TERMINAL_NAME}" terminal is open while the command runs`);
      } finally {
        pool.dispose();
        launcher.dispose();
        rmSync(join(workspace, "made.txt"), { force: true });
      }
    });
  }
});

describe("kiln.commands.sandbox in the running chat", () => {
  const fixture = process.env.KILN_TEST_WORKSPACE!;
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  let present: Set<string>;
  beforeEach(async () => {
    server = await new FakeModelServer().start();
    present = new Set(readdirSync(fixture));
    restore = await setKiln({
      autoApprove: ["read", "command"],
      autoApproveAllowedCommands: ["echo"],
      "commands.sandbox": true,
      "provider.protocol": "xml",
    });
    await configure("openai-compatible", server.openaiBaseUrl);
    (await kiln()).sidebar.newTask();
  });
  afterEach(async () => {
    const api = await kiln();
    api.sidebar.receive({ type: "chat/cancel" });
    await restore();
    api.sidebar.newTask();
    await server.close();
    delete process.env[BWRAP_ENV];
    // The sandbox makes the folders it protects; the other suites expect the fixture as it was.
    for (const name of [".vscode", ".kilocode", "sandboxed-out.txt", "unsandboxed-out.txt"]) {
      const path = join(fixture, name);
      if (present.has(name) || !existsSync(path)) continue;
      if (name.endsWith(".txt")) rmSync(path);
      else if (readdirSync(path).length === 0) rmdirSync(path);
    }
  });

  it("an allowed command's redirection runs unasked in the sandbox, and the model hears it was sandboxed", async () => {
    const api = await kiln();
    const sent = server.requests.length;
    server.enqueue(xmlCall("execute_command", { command: "echo kiln-sandboxed > sandboxed-out.txt" }), xmlCall("attempt_completion", { result: "done" }));
    const turn = startTurn(api.sidebar, "write it", 60_000);
    await turn.done;
    const card = toolCards(turn.posted).find((c) => c.name === "execute_command");
    assert.equal(card?.status, "done", JSON.stringify(card));
    assert.equal(card?.approval, undefined);
    assert.equal(readFileSync(join(fixture, "sandboxed-out.txt"), "utf8"), "kiln-sandboxed\n");
    assert.match(JSON.stringify(server.requests[sent + 1]?.body.messages), /Sandbox: the command can write only in the workspace/);
  });

  it("where the sandbox cannot run, an allowed command asks on its card with the reason", async () => {
    process.env[BWRAP_ENV] = "/nonexistent/kiln-host-test/bwrap";
    const api = await kiln();
    server.enqueue(xmlCall("execute_command", { command: "echo hi > unsandboxed-out.txt" }), xmlCall("attempt_completion", { result: "stopped" }));
    const turn = startTurn(api.sidebar, "write it", 60_000);
    const card = await turn.card("the command to ask");
    assert.equal(card.name, "execute_command");
    assert.match(
      card.approval?.reason ?? "",
      /The command sandbox is on but not available here: bubblewrap was not found at \/nonexistent\/kiln-host-test\/bwrap\. Approving runs this command without it\./,
    );
    turn.answer(card.id, false);
    await turn.done;
    assert.ok(!existsSync(join(fixture, "unsandboxed-out.txt")));
  });
});
