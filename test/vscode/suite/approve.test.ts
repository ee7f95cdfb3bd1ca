import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { COMPLETE, configure, kiln, promptOf, setKiln, undoBoth, startTurn, toolCards, waitFor, xmlCall } from "./helpers";

function enabled(): unknown {
  return vscode.workspace.getConfiguration("kiln").inspect("autoApproveEnabled")?.globalValue;
}

describe("auto-approve settings in the running chat", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    // Every setting these tests touch, so each test starts from the defaults and puts back what was there.
    restore = await setKiln({
      autoApprove: ["read"],
      autoApproveEnabled: undefined,
      autoApproveAllowedCommands: undefined,
      autoApproveDeniedCommands: undefined,
      autoApproveRefuseDeniedCommands: undefined,
      autoApproveMaxRequests: undefined,
      "provider.protocol": "xml",
    });
    await configure("openai-compatible", server.openaiBaseUrl);
    (await kiln()).sidebar.newTask();
  });
  afterEach(async () => {
    const api = await kiln();
    // A test that failed while a card waited must not leave the chat busy for the next one.
    api.sidebar.receive({ type: "chat/cancel" });
    await restore();
    api.sidebar.newTask();
  });

  it("Kiln: Toggle Auto-Approve turns it off (a read asks on its card) and on again (the read runs)", async () => {
    const api = await kiln();
    assert.equal(await vscode.commands.executeCommand("kiln.toggleAutoApprove"), false);
    assert.equal(enabled(), false);

    server.enqueue(xmlCall("read_file", { path: "src/greet.ts" }), xmlCall("attempt_completion", { result: "read it" }));
    const off = startTurn(api.sidebar, "read greet");
    const card = await off.card();
    assert.equal(card.name, "read_file");
    assert.equal(card.approval?.reason, "Auto-approve is turned off.");
    off.answer(card.id, true);
    await off.done;
    assert.equal(toolCards(off.posted).find((c) => c.name === "read_file")?.status, "done");

    assert.equal(await vscode.commands.executeCommand("kiln.toggleAutoApprove"), true);
    assert.equal(enabled(), true);
    server.enqueue(xmlCall("read_file", { path: "src/greet.ts" }), xmlCall("attempt_completion", { result: "read it again" }));
    const on = startTurn(api.sidebar, "read greet again");
    await on.done;
    const reads = toolCards(on.posted).filter((c) => c.name === "read_file");
    assert.deepEqual(
      reads.map((c) => [c.status, c.approval]),
      [["done", undefined]],
    );
    assert.ok(!on.posted.some((m) => m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.approval !== undefined), "nothing asked with auto-approve on");
    assert.match(toolCards(on.posted)[0]!.result ?? "", /export function greet/);
  });

  it("the chat's auto-approve bar: the state comes with the chat, a toggle writes the setting, every change shows", async () => {
    const api = await kiln();
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      api.sidebar.newTask();
      assert.deepEqual(
        posted.filter((m) => m.type === "chat/autoApprove").map((m) => m.type === "chat/autoApprove" && m.state),
        [{ enabled: true, words: ["read"] }],
      );
      api.sidebar.receive({ type: "chat/setAutoApprove", words: ["edit", "read"] });
      await waitFor("the categories written", () => (vscode.workspace.getConfiguration("kiln").get<string[]>("autoApprove")?.includes("edit") ? true : undefined));
      assert.deepEqual(vscode.workspace.getConfiguration("kiln").inspect("autoApprove")?.globalValue, ["read", "edit"]);
      await waitFor("the bar told", () => posted.some((m) => m.type === "chat/autoApprove" && m.state.words.includes("edit")) || undefined);

      // The switch off: a read asks on its card, and the bar says so.
      api.sidebar.receive({ type: "chat/setAutoApprove", enabled: false });
      await waitFor("the switch written", () => (enabled() === false ? true : undefined));
      assert.ok(
        posted.some((m) => m.type === "chat/autoApprove" && !m.state.enabled && m.state.words.includes("read")),
        "the categories are kept",
      );
      server.enqueue(xmlCall("read_file", { path: "src/greet.ts" }), { text: COMPLETE });
      const turn = startTurn(api.sidebar, "read greet");
      const card = await turn.card();
      assert.equal(card.approval?.reason, "Auto-approve is turned off.");
      turn.answer(card.id, false);
      await turn.done;

      // A category that does not exist never reaches the settings.
      const before = vscode.workspace.getConfiguration("kiln").inspect("autoApprove")?.globalValue;
      api.sidebar.receive({ type: "chat/setAutoApprove", words: ["read", "everything"] });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(vscode.workspace.getConfiguration("kiln").inspect("autoApprove")?.globalValue, before);
    } finally {
      listener.dispose();
    }
  });

  it("a command on the deny list asks, with the matching prefix as the reason; an allowed one runs", async () => {
    const api = await kiln();
    restore = undoBoth(restore, await setKiln({ autoApprove: ["read", "command"], autoApproveDeniedCommands: ["git push"] }));
    server.enqueue(
      xmlCall("execute_command", { command: "echo kiln-allowed-command" }),
      xmlCall("execute_command", { command: "git push origin main" }),
      xmlCall("attempt_completion", { result: "stopped" }),
    );
    const turn = startTurn(api.sidebar, "push it", 60_000);
    const card = await turn.card("the push to ask");
    assert.equal(card.name, "execute_command");
    assert.equal(card.approval?.reason, '`git push origin main` matches the denied command prefix "git push".');
    const echo = toolCards(turn.posted).find((c) => c.params.command === "echo kiln-allowed-command");
    assert.equal(echo?.status, "done", "the allowed command ran without a card");
    assert.match(echo?.result ?? "", /kiln-allowed-command/);
    turn.answer(card.id, false);
    await turn.done;
    assert.equal(toolCards(turn.posted).find((c) => c.id === card.id)?.status, "denied");
  });

  it("with Refuse Denied Commands, a denied command is refused without asking and the model is told why", async () => {
    const api = await kiln();
    restore = undoBoth(restore, await setKiln({ autoApprove: ["read", "command"], autoApproveDeniedCommands: ["git push"], autoApproveRefuseDeniedCommands: true }));
    server.enqueue(xmlCall("execute_command", { command: "git push --tags" }), xmlCall("attempt_completion", { result: "gave up" }));
    const before = server.requests.length;
    const turn = startTurn(api.sidebar, "push the tags");
    await turn.done;
    const push = toolCards(turn.posted).find((c) => c.name === "execute_command");
    assert.equal(push?.status, "denied");
    assert.ok(!turn.posted.some((m) => m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.approval !== undefined), "no card asked the user");
    const told = promptOf(server.requests[before + 1]!).all;
    assert.match(told, /Kiln refused execute_command without asking the user/);
    assert.match(told, /matches the denied command prefix \\"git push\\"\. Denied commands are refused without asking/);
  });

  it("the deny-list refusal holds even with auto-approve turned off", async () => {
    const api = await kiln();
    restore = undoBoth(restore, await setKiln({ autoApproveEnabled: false, autoApproveDeniedCommands: ["git push"], autoApproveRefuseDeniedCommands: true }));
    server.enqueue(xmlCall("execute_command", { command: "git push" }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "push");
    await turn.done;
    assert.equal(toolCards(turn.posted).find((c) => c.name === "execute_command")?.status, "denied");
    assert.ok(!turn.posted.some((m) => m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.approval !== undefined));
  });

  it("Max Requests 1: the first read runs unasked, the second asks and says why", async () => {
    const api = await kiln();
    restore = undoBoth(restore, await setKiln({ autoApproveMaxRequests: 1 }));
    server.enqueue(xmlCall("read_file", { path: "src/greet.ts" }), xmlCall("read_file", { path: "README.md" }), xmlCall("attempt_completion", { result: "read both" }));
    const turn = startTurn(api.sidebar, "read two files");
    const card = await turn.card("the second read to ask");
    assert.equal(card.params.path, "README.md");
    assert.match(card.approval?.reason ?? "", /auto-approved 1 calls in this task, the most allowed \(1\)/);
    assert.equal(toolCards(turn.posted).find((c) => c.params.path === "src/greet.ts")?.status, "done");
    turn.answer(card.id, true);
    await turn.done;
    assert.deepEqual(
      toolCards(turn.posted).map((c) => [c.name, c.status]),
      [
        ["read_file", "done"],
        ["read_file", "done"],
      ],
    );
  });

  it("a wrong setting value is logged and its default used", async () => {
    const api = await kiln();
    restore = undoBoth(restore, await setKiln({ autoApproveMaxRequests: "lots" }));
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    server.enqueue(xmlCall("read_file", { path: "src/greet.ts" }), xmlCall("read_file", { path: "README.md" }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "read with a bad limit");
    await turn.done.finally(() => logs.dispose());
    assert.deepEqual(
      toolCards(turn.posted)
        .filter((c) => c.name === "read_file")
        .map((c) => c.status),
      ["done", "done"],
      "no limit: both reads ran unasked",
    );
    assert.ok(logged.some((l) => l.includes('setting kiln.autoApproveMaxRequests is "lots", which is not valid; using 0')));
  });
});
