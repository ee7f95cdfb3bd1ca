import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { SettingsState } from "../../../src/shared/protocol/settings";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, toSettings, waitFor } from "./helpers";

type Answer = { ok: boolean; message: string; field?: string };

/** Sends one settings-panel request as the page would; returns the host's answer and the state after it. */
async function request(api: KilnTestApi, message: Record<string, unknown>): Promise<{ answer: Answer; state: SettingsState }> {
  const { answer, state } = await toSettings(api, message);
  assert.ok(answer && state, `the host answers ${String(message.type)} and posts its state`);
  return { answer, state };
}

const KEYS = ["autoApprove", "autoApproveEnabled", "autoApproveAllowedCommands", "autoApproveDeniedCommands", "autoApproveRefuseDeniedCommands", "autoApproveMaxRequests", "autoApproveMaxCost"];

function userValues(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("kiln");
  return Object.fromEntries(KEYS.map((key) => [key, config.inspect(key)?.globalValue]));
}

async function restoreUser(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration("kiln");
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

/** A file's text, or undefined when missing; and the way back to that. */
function snapshot(path: string): () => void {
  const before = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  return () => (before === undefined ? rmSync(path, { force: true }) : writeFileSync(path, before));
}

describe("settings panel: auto-approve and mode edits", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const projectFile = join(workspace, ".kilocodemodes");
  let api: KilnTestApi;
  let saved: Record<string, unknown>;
  const restores: (() => unknown)[] = [];

  before(async () => {
    api = await kiln();
    saved = userValues();
  });
  afterEach(async () => {
    for (const restore of restores.splice(0).reverse()) await restore();
    await restoreUser(saved);
  });

  it("writes each auto-approve control to its kiln.* user setting and shows it in the state", async () => {
    const { answer, state } = await request(api, {
      type: "settings/setAutoApprove",
      changes: { words: ["command", "read", "delete", "read"], allowed: ["npm test", " make ", "npm test"], refuseDenied: true, maxRequests: 25, maxCost: 1.5 },
    });
    assert.equal(answer.ok, true, answer.message);
    const config = vscode.workspace.getConfiguration("kiln");
    // Kept in the settings' own order, without repeats; prefixes trimmed.
    assert.deepEqual(config.inspect("autoApprove")?.globalValue, ["read", "command", "delete"]);
    assert.deepEqual(config.inspect("autoApproveAllowedCommands")?.globalValue, ["npm test", "make"]);
    assert.equal(config.inspect("autoApproveRefuseDeniedCommands")?.globalValue, true);
    assert.equal(config.inspect("autoApproveMaxRequests")?.globalValue, 25);
    assert.equal(config.inspect("autoApproveMaxCost")?.globalValue, 1.5);
    assert.deepEqual(
      {
        words: state.autoApprove.words,
        allowed: state.autoApprove.allowed,
        refuseDenied: state.autoApprove.refuseDenied,
        maxRequests: state.autoApprove.maxRequests,
        maxCost: state.autoApprove.maxCost,
      },
      { words: ["read", "command", "delete"], allowed: ["npm test", "make"], refuseDenied: true, maxRequests: 25, maxCost: 1.5 },
    );
    const off = await request(api, { type: "settings/setAutoApprove", changes: { enabled: false } });
    assert.equal(off.answer.ok, true);
    assert.equal(off.state.autoApprove.enabled, false);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("autoApproveEnabled")?.globalValue, false);
  });

  it("refuses an invalid value, naming the field and setting, and writes nothing, not even the valid ones", async () => {
    const before = userValues();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ enabled: false, maxRequests: -1 }, "maxRequests", /kiln\.autoApproveMaxRequests must be a whole number, 0 or more/],
      [{ maxRequests: 2.5 }, "maxRequests", /whole number/],
      [{ words: ["read"], maxCost: "lots" }, "maxCost", /kiln\.autoApproveMaxCost must be a number/],
      [{ words: ["read", "everything"] }, "words", /kiln\.autoApprove each must be one of read, edit/],
      [{ denied: ["rm -rf", "   "] }, "denied", /kiln\.autoApproveDeniedCommands has an empty command prefix/],
      [{ refuseDenied: "yes" }, "refuseDenied", /true or false/],
      [{ maxCost: 3, sneaky: 1 }, "sneaky", /"sneaky" is not an auto-approve setting/],
    ];
    for (const [changes, field, message] of cases) {
      const { answer } = await request(api, { type: "settings/setAutoApprove", changes });
      assert.equal(answer.ok, false, JSON.stringify(changes));
      assert.equal(answer.field, field);
      assert.match(answer.message, message);
      assert.deepEqual(userValues(), before, `nothing written for ${JSON.stringify(changes)}`);
    }
  });

  it("a value set for the workspace is changed there, leaving the user value alone", async () => {
    const settingsFile = join(workspace, ".vscode", "settings.json");
    restores.push(snapshot(settingsFile));
    const config = vscode.workspace.getConfiguration("kiln");
    await config.update("autoApproveMaxCost", 4, vscode.ConfigurationTarget.Workspace);
    restores.push(() => vscode.workspace.getConfiguration("kiln").update("autoApproveMaxCost", undefined, vscode.ConfigurationTarget.Workspace));
    const userBefore = config.inspect("autoApproveMaxCost")?.globalValue;
    const { answer, state } = await request(api, { type: "settings/setAutoApprove", changes: { maxCost: 9 } });
    assert.equal(answer.ok, true, answer.message);
    const after = vscode.workspace.getConfiguration("kiln").inspect("autoApproveMaxCost");
    assert.equal(after?.workspaceValue, 9);
    assert.equal(after?.globalValue, userBefore);
    assert.equal(state.autoApprove.maxCost, 9);
    assert.ok(state.autoApprove.workspaceFields.includes("maxCost"));
  });

  it("an open panel gets the new state when the settings change elsewhere (the toggle command)", async () => {
    api.settingsPanel.open();
    restores.push(() => api.settingsPanel.current?.dispose());
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    restores.push(() => listener.dispose());
    const enabled = vscode.workspace.getConfiguration("kiln").get<boolean>("autoApproveEnabled", true);
    await vscode.commands.executeCommand("kiln.toggleAutoApprove");
    await waitFor("a state with the switch flipped", () => states.some((s) => s.autoApprove.enabled === !enabled));
  });

  it("creates a project mode from the form, keeping the file's other modes and comments; a new task can use it", async () => {
    restores.push(snapshot(projectFile));
    writeFileSync(projectFile, "# Our modes\ncustomModes:\n  - slug: tester # unit tests\n    name: Tester\n    roleDefinition: You write tests.\n    groups: [read]\n");
    const role = "You are the release-notes writer; you only touch CHANGELOG files.";
    const { answer, state } = await request(api, {
      type: "settings/saveMode",
      scope: "project",
      mode: { slug: "notes", name: "Release Notes", roleDefinition: role, whenToUse: "Writing release notes", description: "", groups: ["read", ["edit", { fileRegex: "CHANGELOG\\.md$" }]] },
    });
    assert.equal(answer.ok, true, answer.message);
    const text = readFileSync(projectFile, "utf8");
    assert.match(text, /^# Our modes/);
    assert.match(text, /# unit tests/);
    assert.match(text, /- slug: notes\n {4}name: Release Notes/);
    assert.doesNotMatch(text, /description/);
    const shown = state.modes.find((m) => m.slug === "notes");
    assert.deepEqual(shown && [shown.scope, shown.source, shown.groups], ["project", projectFile, ["read", ["edit", { fileRegex: "CHANGELOG\\.md$" }]]]);
    assert.ok(state.modes.some((m) => m.slug === "tester"));

    // Usable: a new task offers it, and the model gets its role.
    const server = await new FakeModelServer().start();
    const provider = vscode.workspace.getConfiguration("kiln.provider");
    const previous = ["kind", "baseUrl", "model", "retries", "protocol"].map((k) => [k, provider.inspect(k)?.globalValue] as const);
    restores.push(async () => {
      await server.close();
      for (const [k, v] of previous) await vscode.workspace.getConfiguration("kiln.provider").update(k, v, vscode.ConfigurationTarget.Global);
      api.sidebar.newTask();
    });
    await configure("openai-compatible", server.openaiBaseUrl);
    api.sidebar.newTask();
    assert.equal(api.sidebar.pickMode("notes"), true);
    server.enqueue({ text: COMPLETE });
    const before = server.requests.length;
    await exchange(api.sidebar, { type: "chat/send", text: "Write the notes" });
    assert.ok(JSON.stringify(server.requests[before]!.body.messages).includes(role), "the system prompt carries the new mode's role");
    api.sidebar.pickMode("code");
  });

  it("edits, renames and deletes a custom mode; refuses bad input naming file and field, leaving the file as it was", async () => {
    restores.push(snapshot(projectFile));
    rmSync(projectFile, { force: true });
    const made = await request(api, { type: "settings/saveMode", scope: "project", mode: { slug: "helper", name: "Helper", roleDefinition: "You help.", groups: ["read"] } });
    assert.equal(made.answer.ok, true, made.answer.message);
    const edited = await request(api, {
      type: "settings/saveMode",
      scope: "project",
      original: "helper",
      mode: { slug: "assistant", name: "Assistant", roleDefinition: "You assist.", groups: ["read", "command"] },
    });
    assert.equal(edited.answer.ok, true, edited.answer.message);
    assert.deepEqual(
      edited.state.modes.filter((m) => m.scope === "project").map((m) => [m.slug, m.name, m.groups]),
      [["assistant", "Assistant", ["read", "command"]]],
    );
    const good = readFileSync(projectFile, "utf8");
    const bad: [Record<string, unknown>, string][] = [
      [{ slug: "two words", name: "X", roleDefinition: "Y", groups: [] }, "slug"],
      [{ slug: "x", name: "  ", roleDefinition: "Y", groups: [] }, "name"],
      [{ slug: "x", name: "X", roleDefinition: "Y", groups: [["edit", { fileRegex: "(unclosed" }]] }, "fileRegex"],
      [{ slug: "x", name: "X", roleDefinition: "Y", groups: ["shell"] }, "groups"],
    ];
    for (const [mode, field] of bad) {
      const { answer } = await request(api, { type: "settings/saveMode", scope: "project", mode });
      assert.equal(answer.ok, false);
      assert.equal(answer.field, field, answer.message);
      assert.ok(answer.message.includes(projectFile), `the message names the file: ${answer.message}`);
      assert.equal(readFileSync(projectFile, "utf8"), good);
    }
    const clash = await request(api, { type: "settings/saveMode", scope: "project", mode: { slug: "assistant", name: "Again", roleDefinition: "Y", groups: [] } });
    assert.deepEqual([clash.answer.ok, clash.answer.field], [false, "slug"]);
    const builtIn = await request(api, { type: "settings/deleteMode", scope: "project", slug: "architect" });
    assert.equal(builtIn.answer.ok, false);
    assert.match(builtIn.answer.message, /built in and cannot be deleted/);
    assert.ok(builtIn.state.modes.some((m) => m.slug === "architect"));
    const gone = await request(api, { type: "settings/deleteMode", scope: "project", slug: "assistant" });
    assert.equal(gone.answer.ok, true, gone.answer.message);
    assert.ok(!gone.state.modes.some((m) => m.slug === "assistant"));
    assert.deepEqual(readFileSync(projectFile, "utf8").match(/slug:/g), null);
  });

  it("customizing a built-in overrides it from the project file; deleting the copy brings the built-in back", async () => {
    restores.push(snapshot(projectFile));
    rmSync(projectFile, { force: true });
    const { answer, state } = await request(api, { type: "settings/saveMode", scope: "project", mode: { slug: "ask", name: "Ask (team)", roleDefinition: "You answer briefly.", groups: ["read"] } });
    assert.equal(answer.ok, true, answer.message);
    const ask = state.modes.find((m) => m.slug === "ask");
    assert.deepEqual(ask && [ask.name, ask.scope, ask.overridesBuiltIn], ["Ask (team)", "project", true]);
    const back = await request(api, { type: "settings/deleteMode", scope: "project", slug: "ask" });
    assert.equal(back.answer.ok, true, back.answer.message);
    const builtIn = back.state.modes.find((m) => m.slug === "ask");
    assert.deepEqual(builtIn && [builtIn.name, builtIn.scope], ["Ask", "built-in"]);
  });

  it("a mode from Roo's .roomodes is listed, edited and deleted in that file; .kilocodemodes is not made", async () => {
    const rooFile = join(workspace, ".roomodes");
    restores.push(snapshot(projectFile), snapshot(rooFile));
    rmSync(projectFile, { force: true });
    writeFileSync(rooFile, JSON.stringify({ customModes: [{ slug: "reviewer", name: "Reviewer", roleDefinition: "You review.", groups: ["read"], source: "project" }] }, null, 2));
    const listed = await toSettings(api, { type: "settings/ready" });
    const reviewer = listed.state?.modes.find((m) => m.slug === "reviewer");
    assert.deepEqual(reviewer && [reviewer.scope, reviewer.source], ["project", rooFile]);
    const edited = await request(api, {
      type: "settings/saveMode",
      scope: "project",
      original: "reviewer",
      mode: { slug: "reviewer", name: "Strict Reviewer", roleDefinition: "You review strictly.", groups: ["read", "command"] },
    });
    assert.equal(edited.answer.ok, true, edited.answer.message);
    assert.ok(edited.answer.message.includes(rooFile), edited.answer.message);
    assert.equal(existsSync(projectFile), false, "no .kilocodemodes is made for a Roo mode");
    const data = JSON.parse(readFileSync(rooFile, "utf8")) as { customModes: Record<string, unknown>[] };
    // The file stays JSON, and Roo's own field is kept for Roo users.
    assert.deepEqual(
      data.customModes.map((m) => [m.slug, m.name, m.source]),
      [["reviewer", "Strict Reviewer", "project"]],
    );
    const gone = await request(api, { type: "settings/deleteMode", scope: "project", slug: "reviewer" });
    assert.equal(gone.answer.ok, true, gone.answer.message);
    assert.deepEqual((JSON.parse(readFileSync(rooFile, "utf8")) as { customModes: unknown[] }).customModes, []);
    assert.ok(!gone.state.modes.some((m) => m.slug === "reviewer"));
  });

  it("a global JSON modes file stays JSON and keeps its modes", async () => {
    const globalFile = vscode.Uri.joinPath(api.globalStorageUri, "custom_modes.yaml").fsPath;
    await vscode.workspace.fs.createDirectory(api.globalStorageUri);
    restores.push(snapshot(globalFile));
    writeFileSync(globalFile, JSON.stringify({ customModes: [{ slug: "planner", name: "Planner", roleDefinition: "You plan.", groups: ["read"] }] }, null, 2));
    const { answer, state } = await request(api, { type: "settings/saveMode", scope: "global", mode: { slug: "scribe", name: "Scribe", roleDefinition: "You write.", groups: ["read", "edit"] } });
    assert.equal(answer.ok, true, answer.message);
    const data = JSON.parse(readFileSync(globalFile, "utf8")) as { customModes: { slug: string }[] };
    assert.deepEqual(
      data.customModes.map((m) => m.slug),
      ["planner", "scribe"],
    );
    assert.deepEqual(
      state.modes.filter((m) => m.scope === "global").map((m) => m.slug),
      ["planner", "scribe"],
    );
  });
});
