import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { SettingsState } from "../../../src/shared/protocol/settings";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, promptOf, setKiln, toSettings, waitFor } from "./helpers";

type Answer = { ok: boolean; message: string; field?: string };

/** Sends one settings message as the page would; returns the host's answer (if it is a request) and the state after it. */
async function send(api: KilnTestApi, message: Record<string, unknown>): Promise<{ answer?: Answer; state: SettingsState }> {
  const { answer, state } = await post(api, message);
  assert.ok(state, `the host posts its state after ${String(message.type)}`);
  return { answer, state };
}

/** The same, without requiring a state back. */
async function post(api: KilnTestApi, message: Record<string, unknown>): Promise<{ answer?: Answer; state?: SettingsState }> {
  return toSettings(api, message);
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe("rules: rule files in the prompt and the settings panel", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const kilocode = join(workspace, ".kilocode");
  let api: KilnTestApi;
  let server: FakeModelServer;
  let globalRule: string;
  const restores: (() => unknown)[] = [];

  before(async () => {
    api = await kiln();
    server = await new FakeModelServer().start();
    globalRule = join(api.globalStorageUri.fsPath, "rules", "host-global.md");
  });
  after(() => server.close());
  beforeEach(async () => {
    assert.equal(existsSync(kilocode), false, "the fixture workspace has no .kilocode folder of its own");
    restores.push(await setKiln({ "rules.disabled": undefined, mode: undefined }));
    await configure("openai-compatible", server.openaiBaseUrl);
    put(join(kilocode, "rules", "host-on.md"), "HOST RULE ON: name things plainly.\n");
    put(join(kilocode, "rules", "host-off.md"), "HOST RULE OFF: never follow this.\n");
    put(join(kilocode, "rules-architect", "plans.md"), "ARCHITECT RULE\n");
    put(globalRule, "GLOBAL RULE: answer in English.\n");
  });
  afterEach(async () => {
    server.clearQueue();
    for (const restore of restores.splice(0).reverse()) await restore();
    rmSync(kilocode, { recursive: true, force: true });
    rmSync(dirname(globalRule), { recursive: true, force: true });
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    api.sidebar.newTask();
  });

  it("the settings state lists every rule file in prompt order, and a switch turns one off in kiln.rules.disabled", async () => {
    const { state } = await send(api, { type: "settings/ready" });
    assert.deepEqual(
      state.rules.files.map((f) => [f.id, f.scope, f.mode ?? "", f.path, f.size, f.enabled]),
      [
        ["global:rules/host-global.md", "global", "", globalRule, 32, true],
        ["project:.kilocode/rules/host-off.md", "project", "", ".kilocode/rules/host-off.md", 34, true],
        ["project:.kilocode/rules/host-on.md", "project", "", ".kilocode/rules/host-on.md", 35, true],
        ["project:.kilocode/rules-architect/plans.md", "project", "architect", ".kilocode/rules-architect/plans.md", 15, true],
      ],
    );
    const off = await send(api, { type: "settings/setRuleEnabled", id: "project:.kilocode/rules/host-off.md", enabled: false });
    assert.equal(off.answer?.ok, true, off.answer?.message);
    assert.deepEqual(vscode.workspace.getConfiguration("kiln").inspect("rules.disabled")?.globalValue, ["project:.kilocode/rules/host-off.md"]);
    assert.equal(off.state.rules.files.find((f) => f.id === "project:.kilocode/rules/host-off.md")?.enabled, false);
    const on = await send(api, { type: "settings/setRuleEnabled", id: "project:.kilocode/rules/host-off.md", enabled: true });
    assert.equal(on.answer?.ok, true, on.answer?.message);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("rules.disabled")?.globalValue, undefined);
  });

  it("refuses to turn off a rule file that is not there, and drops a malformed id", async () => {
    const { answer } = await send(api, { type: "settings/setRuleEnabled", id: "project:.kilocode/rules/nope.md", enabled: false });
    assert.equal(answer?.ok, false);
    assert.match(answer!.message, /there is no rule file "project:\.kilocode\/rules\/nope\.md"/);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("rules.disabled")?.globalValue, undefined);
    // Not a rule id: zod refuses it where it enters the host, so it is answered with the refusal and nothing is written.
    const refused = await post(api, { type: "settings/setRuleEnabled", id: "/etc/passwd", enabled: false });
    assert.equal(refused.answer?.ok, false);
    assert.match(refused.answer!.message, /must be a rule id/);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("rules.disabled")?.globalValue, undefined);
  });

  it("Open shows the rule file in an editor", async () => {
    await send(api, { type: "settings/openRule", id: "project:.kilocode/rules/host-on.md" });
    await waitFor("the rule in the active editor", () => vscode.window.activeTextEditor?.document.uri.fsPath === join(kilocode, "rules", "host-on.md"));
  });

  it("the sidebar chat sends the enabled rules in the system prompt, global first, and leaves out one turned off and other modes' rules", async () => {
    const off = await send(api, { type: "settings/setRuleEnabled", id: "project:.kilocode/rules/host-off.md", enabled: false });
    assert.equal(off.answer?.ok, true, off.answer?.message);
    api.sidebar.newTask();
    const before = server.requests.length;
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "rename the helper" });
    const requests = server.requests.slice(before);
    assert.equal(requests.length, 1);
    const system = promptOf(requests[0]!).system;
    const section = system.slice(system.indexOf("# User's custom instructions"));
    assert.ok(section.length < system.length, "the prompt has the rules section");
    assert.deepEqual(
      section.split("\n").filter((line) => line.startsWith("## ")),
      [`## ${globalRule} (global)`, "## .kilocode/rules/host-on.md (project)"],
    );
    assert.match(section, /## \.kilocode\/rules\/host-on\.md \(project\)\n\nHOST RULE ON: name things plainly\./);
    assert.doesNotMatch(system, /HOST RULE OFF|ARCHITECT RULE/);
  });

  it("New rule file writes .kilocode/rules/<name>.md with a stub and opens it; a taken or bad name is refused", async () => {
    const created = await send(api, { type: "settings/newRule", name: "Host Test Rule" });
    assert.equal(created.answer?.ok, true, created.answer?.message);
    assert.equal(created.answer?.message, "Created .kilocode/rules/Host-Test-Rule.md.");
    const file = join(kilocode, "rules", "Host-Test-Rule.md");
    assert.match(readFileSync(file, "utf8"), /^# Host-Test-Rule\n/);
    assert.ok(created.state.rules.files.some((f) => f.id === "project:.kilocode/rules/Host-Test-Rule.md" && f.enabled));
    await waitFor("the new rule in an editor", () => vscode.window.activeTextEditor?.document.uri.fsPath === file);

    writeFileSync(file, "MY OWN WORDS\n");
    const again = await send(api, { type: "settings/newRule", name: "Host-Test-Rule.md" });
    assert.equal(again.answer?.ok, false);
    assert.equal(again.answer?.field, "ruleName");
    assert.match(again.answer!.message, /already exists/);
    assert.equal(readFileSync(file, "utf8"), "MY OWN WORDS\n", "an existing rule is never replaced");

    const bad = await send(api, { type: "settings/newRule", name: "../outside" });
    assert.equal(bad.answer?.ok, false);
    assert.match(bad.answer!.message, /holds a path separator/);
    assert.equal(existsSync(join(workspace, ".kilocode", "outside.md")), false);
  });

  it("an open panel shows a rule file added on disk", async () => {
    api.settingsPanel.open();
    restores.push(() => api.settingsPanel.current?.dispose());
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    restores.push(() => listener.dispose());
    put(join(kilocode, "rules", "added-later.md"), "later\n");
    await waitFor("a state listing the new file", () => states.some((s) => s.rules.files.some((f) => f.id === "project:.kilocode/rules/added-later.md")));
  });

  it("Roo's .roo/rules are read in place: listed, watched, and in the prompt after Kiln's own", async () => {
    const roo = join(workspace, ".roo");
    restores.push(() => rmSync(roo, { recursive: true, force: true }));
    put(join(roo, "rules", "team.md"), "ROO TEAM RULE: keep functions short.\n");
    put(join(roo, "rules-architect", "roo-plans.md"), "ROO ARCHITECT RULE\n");
    api.settingsPanel.open();
    restores.push(() => api.settingsPanel.current?.dispose());
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    restores.push(() => listener.dispose());
    put(join(roo, "rules", "added-later.md"), "ROO LATER RULE\n");
    await waitFor("a state listing the new Roo rule", () => states.some((s) => s.rules.files.some((f) => f.id === "project:.roo/rules/added-later.md")));
    api.sidebar.newTask();
    const before = server.requests.length;
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "tidy the helper" });
    const system = promptOf(server.requests[before]!).system;
    const headings = system.split("\n").filter((line) => line.startsWith("## ") && line.endsWith("(project)"));
    assert.deepEqual(headings, ["## .kilocode/rules/host-off.md (project)", "## .kilocode/rules/host-on.md (project)", "## .roo/rules/added-later.md (project)", "## .roo/rules/team.md (project)"]);
    assert.doesNotMatch(system, /ROO ARCHITECT RULE/);
  });
});
