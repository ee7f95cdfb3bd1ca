import * as assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import { findMode } from "../../../src/core/modes/modes";
import type { HostToSettings, SettingsState } from "../../../src/shared/protocol/settings";
import type { HostToWebview, Pickers } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, promptOf, setKiln, undoBoth, toolCards, waitFor } from "./helpers";

const BUILT_IN = ["code", "architect", "ask", "debug", "orchestrator"];

function role(slug: string): string {
  return findMode(slug)!.roleDefinition;
}

/** The settings panel's state, as the page gets it when it loads. */
async function settingsState(api: KilnTestApi): Promise<SettingsState> {
  let state: SettingsState | undefined;
  const listener = api.settings.onDidPost((m: HostToSettings) => {
    if (m.type === "settings/state") state = m.state;
  });
  await api.settings.receive({ type: "settings/ready" });
  listener.dispose();
  assert.ok(state, "the controller answers settings/ready with its state");
  return state;
}

/** What the chat's pickers show once `act` has run (a new task, a mode picked…). */
async function pickersAfter(api: KilnTestApi, act: () => void, until: (p: Pickers) => boolean = () => true): Promise<Pickers> {
  const posted: HostToWebview[] = [];
  const listener = api.sidebar.onDidPost((m) => posted.push(m));
  try {
    act();
    return await waitFor("the pickers", () => posted.flatMap((m) => (m.type === "chat/pickers" && until(m.pickers) ? [m.pickers] : [])).at(-1));
  } finally {
    listener.dispose();
  }
}

describe("modes: picker, cycle-mode command and custom modes", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const modesFile = join(workspace, ".kilocodemodes");
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    restore = await setKiln({ autoApprove: ["read"], mode: undefined, "provider.protocol": "xml" });
    await configure("openai-compatible", server.openaiBaseUrl);
  });
  afterEach(async () => {
    const api = await kiln();
    rmSync(modesFile, { force: true });
    api.sidebar.receive({ type: "chat/setMode", slug: "code" });
    await restore();
    api.sidebar.newTask();
  });

  it("a mode picked in the chat applies to the running task: its prompt, and its tools", async () => {
    const api = await kiln();
    // Native tool calls: with XML, a tool the mode lacks is not even parsed as a call.
    restore = undoBoth(restore, await setKiln({ "provider.protocol": "native" }));
    api.sidebar.newTask();
    const done = { toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] };
    server.enqueue(done);
    await exchange(api.sidebar, { type: "chat/send", text: "first in code" });
    assert.ok(promptOf(server.requests.at(-1)!).system.startsWith(role("code")));

    const pickers = await pickersAfter(api, () => api.sidebar.receive({ type: "chat/setMode", slug: "ask" }));
    assert.equal(pickers.mode, "ask");
    const target = join(workspace, "ask-mode.txt");
    rmSync(target, { force: true });
    server.enqueue({ toolCalls: [{ name: "write_to_file", arguments: { path: "ask-mode.txt", content: "nope" } }] }, done);
    const before = server.requests.length;
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "now write a file" }, 30_000);
    const [asked, told] = server.requests.slice(before);
    assert.ok(promptOf(asked!).system.startsWith(role("ask")), "the next request has Ask's system prompt");
    const write = toolCards(posted).find((c) => c.name === "write_to_file");
    assert.equal(write?.status, "error");
    assert.match(write?.result ?? "", /write_to_file \(edit group\) is not available in Ask mode/);
    assert.equal(existsSync(target), false, "Ask mode wrote nothing");
    assert.match(promptOf(told!).all, /write_to_file \(edit group\) is not available in Ask mode/);
    const task = posted.filter((m) => m.type === "chat/task").at(-1);
    assert.equal(task?.type === "chat/task" && task.task.mode, "ask");
  });

  it("an unknown mode from the picker changes nothing", async () => {
    const api = await kiln();
    api.sidebar.newTask();
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    api.sidebar.receive({ type: "chat/setMode", slug: "no-such-mode" });
    await waitFor("the warning", () => logged.find((l) => l.includes("no-such-mode")));
    logs.dispose();
    assert.match(
      logged.find((l) => l.includes("no-such-mode"))!,
      /mode no-such-mode is not available in this chat/,
    );
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "still code?" });
    assert.ok(promptOf(server.requests.at(-1)!).system.startsWith(role("code")));
  });

  it("Kiln: Cycle Mode moves the running task to the next mode, and new tasks start in it", async () => {
    const api = await kiln();
    api.sidebar.newTask();
    let pickers = await pickersAfter(
      api,
      () => void vscode.commands.executeCommand("kiln.cycleMode"),
      (p) => p.mode !== "code",
    );
    assert.equal(pickers.mode, "architect");
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "plan it" });
    assert.ok(promptOf(server.requests.at(-1)!).system.startsWith(role("architect")));

    assert.equal(await vscode.commands.executeCommand("kiln.cycleMode"), "ask");
    pickers = await pickersAfter(api, () => api.sidebar.newTask());
    assert.equal(pickers.mode, "ask", "the chat's next task starts in the mode last picked");
    // Cycling past the last mode comes back to the first.
    const seen = [pickers.mode];
    for (let i = 0; i < BUILT_IN.length; i++) seen.push(await vscode.commands.executeCommand<string>("kiln.cycleMode"));
    assert.deepEqual(seen, ["ask", "debug", "orchestrator", "code", "architect", "ask"]);
  });

  it("custom modes from .kilocodemodes show in the pickers and the settings, and can be used", async () => {
    const api = await kiln();
    const reviewer = "You are Kiln, a careful reviewer who reads the code and comments on it.";
    writeFileSync(modesFile, ["customModes:", "  - slug: reviewer", "    name: Reviewer", `    roleDefinition: ${reviewer}`, "    groups:", "      - read", ""].join("\n"));
    const state = await settingsState(api);
    assert.deepEqual(
      state.modes.map((m) => m.slug),
      [...BUILT_IN, "reviewer"],
    );
    assert.equal(state.modes.at(-1)?.source, modesFile);
    assert.deepEqual(state.errors, []);

    const pickers = await pickersAfter(api, () => api.sidebar.newTask());
    assert.deepEqual(pickers.modes.at(-1), { slug: "reviewer", name: "Reviewer" });
    await pickersAfter(
      api,
      () => api.sidebar.receive({ type: "chat/setMode", slug: "reviewer" }),
      (p) => p.mode === "reviewer",
    );
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "review please" });
    assert.ok(promptOf(server.requests.at(-1)!).system.startsWith(reviewer));
  });

  it("a broken .kilocodemodes is reported with its name, and the built-in modes keep working", async () => {
    const api = await kiln();
    writeFileSync(modesFile, "customModes: [ {slug: broken, name: Broken\n");
    const state = await settingsState(api);
    assert.deepEqual(
      state.modes.map((m) => m.slug),
      BUILT_IN,
    );
    assert.equal(state.errors.length, 1, state.errors.join("\n"));
    assert.match(state.errors[0]!, /\.kilocodemodes: not valid YAML or JSON/);

    writeFileSync(
      modesFile,
      ["customModes:", "  - slug: half", "    name: Half", "    groups: [read]", "  - slug: whole", "    name: Whole", "    roleDefinition: You are whole.", "    groups: [read]", ""].join("\n"),
    );
    const partial = await settingsState(api);
    assert.deepEqual(
      partial.modes.map((m) => m.slug),
      [...BUILT_IN, "whole"],
      "the valid mode of the file still loads",
    );
    assert.match(partial.errors.join("\n"), /\.kilocodemodes: mode "half": roleDefinition/);

    const pickers = await pickersAfter(api, () => api.sidebar.newTask());
    assert.deepEqual(
      pickers.modes.map((m) => m.slug),
      [...BUILT_IN, "whole"],
    );
    server.enqueue({ text: COMPLETE });
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "still works?" });
    assert.ok(promptOf(server.requests.at(-1)!).system.startsWith(role("code")));
    assert.ok(posted.some((m) => m.type === "chat/appended" && m.item.role === "completion"));
  });

  it("an edit to .kilocodemodes reaches the running chat: a new mode in the picker, the current mode's new role in the next request", async () => {
    const api = await kiln();
    const file = (role: string) => ["customModes:", "  - slug: reviewer", "    name: Reviewer", `    roleDefinition: ${role}`, "    groups: [read]", ""].join("\n");
    api.sidebar.newTask();
    const added = await pickersAfter(
      api,
      () => writeFileSync(modesFile, file("You review code.")),
      (p) => p.modes.some((m) => m.slug === "reviewer"),
    );
    assert.deepEqual(
      added.modes.map((m) => m.slug),
      [...BUILT_IN, "reviewer"],
      "no new task was needed",
    );
    assert.ok(api.sidebar.pickMode("reviewer"), "the new mode can be picked in the running task");
    await pickersAfter(
      api,
      () => writeFileSync(modesFile, file("You review code, strictly.")),
      (p) => p.mode === "reviewer",
    );
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "review it" });
    assert.ok(promptOf(server.requests.at(-1)!).system.includes("You review code, strictly."), "the running task took the edited role");
  });
});
