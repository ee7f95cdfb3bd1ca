import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import { OPTION_SETTING, type SettingsState } from "../../../src/shared/protocol/settings";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, kiln, promptOf, setKiln, startTurn, toSettings, waitFor, xmlCall } from "./helpers";

type Answer = { ok: boolean; message: string; field?: string };

/** Sends one "Limits and tools" change as the page would; returns the host's answer and the state after it. */
async function setOptions(api: KilnTestApi, changes: Record<string, unknown>): Promise<{ answer: Answer; state: SettingsState }> {
  const { answer, state } = await toSettings(api, { type: "settings/setOptions", changes });
  assert.ok(answer && state, "the host answers settings/setOptions and posts its state");
  return { answer, state };
}

const KEYS = Object.values(OPTION_SETTING);
const userValues = () => Object.fromEntries(KEYS.map((key) => [key, vscode.workspace.getConfiguration("kiln").inspect(key)?.globalValue]));

describe("settings panel: limits and tools", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  let api: KilnTestApi;
  let saved: Record<string, unknown>;
  const restores: (() => unknown)[] = [];

  before(async () => {
    api = await kiln();
    saved = userValues();
  });
  afterEach(async () => {
    for (const restore of restores.splice(0).reverse()) await restore();
    const config = vscode.workspace.getConfiguration("kiln");
    for (const [key, value] of Object.entries(saved)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  });

  it("writes each field to its kiln.* user setting and shows it in the state", async () => {
    const { answer, state } = await setOptions(api, {
      mode: "architect",
      maxRequests: 40,
      retries: 5,
      requireTodosDone: true,
      readFileMaxLines: 120,
      toolResultMaxChars: 20_000,
      outputMaxChars: 4_000,
      fuzzyThreshold: 0.9,
      browserPath: "  /opt/chrome/chrome  ",
      autoCondensePercent: 80,
      shortenResultsAfter: 6,
      budgetMaxTokens: 200_000,
      budgetMaxCost: 1.5,
      budgetMaxInputTokens: 50_000,
    });
    assert.equal(answer.ok, true, answer.message);
    const config = vscode.workspace.getConfiguration("kiln");
    const written = Object.fromEntries(KEYS.map((key) => [key, config.inspect(key)?.globalValue]));
    assert.deepEqual(written, {
      mode: "architect",
      maxRequests: 40,
      "provider.retries": 5,
      requireTodosDone: true,
      "context.readFileMaxLines": 120,
      "context.toolResultMaxChars": 20_000,
      "terminal.outputMaxChars": 4_000,
      "applyDiff.fuzzyThreshold": 0.9,
      "browser.executablePath": "/opt/chrome/chrome",
      "context.autoCondensePercent": 80,
      "context.shortenResultsAfter": 6,
      "budget.maxTokens": 200_000,
      "budget.maxCost": 1.5,
      "budget.maxInputTokensPerRequest": 50_000,
    });
    const { workspaceFields, ...shown } = state.options;
    assert.deepEqual(shown, {
      mode: "architect",
      maxRequests: 40,
      retries: 5,
      requireTodosDone: true,
      readFileMaxLines: 120,
      toolResultMaxChars: 20_000,
      outputMaxChars: 4_000,
      fuzzyThreshold: 0.9,
      browserPath: "/opt/chrome/chrome",
      autoCondensePercent: 80,
      shortenResultsAfter: 6,
      budgetMaxTokens: 200_000,
      budgetMaxCost: 1.5,
      budgetMaxInputTokens: 50_000,
    });
    assert.deepEqual(workspaceFields, []);
  });

  it("refuses an invalid value, naming the field and setting, and writes nothing, not even the valid ones", async () => {
    const before = userValues();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ retries: 2, maxRequests: 0 }, "maxRequests", /^kiln\.maxRequests must be a whole number, 1 or more$/],
      [{ maxRequests: 2.5 }, "maxRequests", /whole number/],
      [{ retries: 11 }, "retries", /^kiln\.provider\.retries must be a whole number from 0 to 10$/],
      [{ readFileMaxLines: 0, outputMaxChars: 5_000 }, "readFileMaxLines", /^kiln\.context\.readFileMaxLines must be a whole number from 1 to 100000$/],
      [{ toolResultMaxChars: 10 }, "toolResultMaxChars", /^kiln\.context\.toolResultMaxChars must be a whole number from 1000 to 10000000$/],
      [{ outputMaxChars: "lots" }, "outputMaxChars", /^kiln\.terminal\.outputMaxChars must be a whole number/],
      [{ fuzzyThreshold: 0.5 }, "fuzzyThreshold", /^kiln\.applyDiff\.fuzzyThreshold must be a number from 0\.8 to 1$/],
      [{ requireTodosDone: "yes" }, "requireTodosDone", /^kiln\.requireTodosDone must be true or false$/],
      [{ browserPath: 42 }, "browserPath", /^kiln\.browser\.executablePath must be a path/],
      [{ maxRequests: 5, mode: "no-such-mode" }, "mode", /^kiln\.mode: there is no mode "no-such-mode" \(use code, architect/],
      [{ retries: 1, sneaky: true }, "sneaky", /"sneaky" is not a setting of this section/],
    ];
    for (const [changes, field, message] of cases) {
      const { answer } = await setOptions(api, changes);
      assert.equal(answer.ok, false, JSON.stringify(changes));
      assert.equal(answer.field, field, JSON.stringify(changes));
      assert.match(answer.message, message);
      assert.deepEqual(userValues(), before, `nothing written for ${JSON.stringify(changes)}`);
    }
  });

  it("a value set for the workspace is changed there, leaving the user value alone, and is marked", async () => {
    const settingsFile = join(workspace, ".vscode", "settings.json");
    const text = existsSync(settingsFile) ? readFileSync(settingsFile, "utf8") : undefined;
    restores.push(() => (text === undefined ? rmSync(settingsFile, { force: true }) : writeFileSync(settingsFile, text)));
    await vscode.workspace.getConfiguration("kiln").update("terminal.outputMaxChars", 3_000, vscode.ConfigurationTarget.Workspace);
    restores.push(() => vscode.workspace.getConfiguration("kiln").update("terminal.outputMaxChars", undefined, vscode.ConfigurationTarget.Workspace));
    const userBefore = vscode.workspace.getConfiguration("kiln").inspect("terminal.outputMaxChars")?.globalValue;
    const { answer, state } = await setOptions(api, { outputMaxChars: 6_000, readFileMaxLines: 80 });
    assert.equal(answer.ok, true, answer.message);
    const after = vscode.workspace.getConfiguration("kiln").inspect("terminal.outputMaxChars");
    assert.equal(after?.workspaceValue, 6_000);
    assert.equal(after?.globalValue, userBefore);
    assert.equal(vscode.workspace.getConfiguration("kiln").inspect("context.readFileMaxLines")?.globalValue, 80);
    assert.equal(state.options.outputMaxChars, 6_000);
    assert.deepEqual(state.options.workspaceFields, ["outputMaxChars"]);
  });

  it("an open panel gets the new values when the settings change elsewhere; an invalid one shows as its default", async () => {
    api.settingsPanel.open();
    restores.push(() => api.settingsPanel.current?.dispose());
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    restores.push(() => listener.dispose());
    const config = vscode.workspace.getConfiguration("kiln");
    await config.update("context.readFileMaxLines", 77, vscode.ConfigurationTarget.Global);
    await waitFor("a state with 77 lines", () => states.some((s) => s.options.readFileMaxLines === 77));
    await config.update("context.readFileMaxLines", -4, vscode.ConfigurationTarget.Global);
    await waitFor("a state with the default 500 lines", () => states.some((s) => s.options.readFileMaxLines === 500));
  });

  it("a changed read_file limit reaches the running chat's next read", async () => {
    const server = await new FakeModelServer().start();
    restores.push(() => server.close());
    await configure("openai-compatible", server.openaiBaseUrl);
    restores.push(await setKiln({ autoApprove: ["read"], autoApproveEnabled: true }));
    const file = join(workspace, "limits-ten.txt");
    const note = join(workspace, "limits-note.txt");
    writeFileSync(file, Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
    restores.push(
      () => rmSync(file, { force: true }),
      () => rmSync(note, { force: true }),
    );
    api.sidebar.newTask();
    const before = server.requests.length;
    server.enqueue(
      xmlCall("read_file", { path: "limits-ten.txt" }),
      xmlCall("write_to_file", { path: "limits-note.txt", content: "noted", line_count: 1 }),
      xmlCall("read_file", { path: "limits-ten.txt" }),
      xmlCall("attempt_completion", { result: "Read it twice." }),
    );
    const turn = startTurn(api.sidebar, "Read limits-ten.txt twice");
    // The write asks; while it waits, the limit is changed in the settings panel.
    const card = await turn.card("the write's approval card");
    const { answer } = await setOptions(api, { readFileMaxLines: 3 });
    assert.equal(answer.ok, true, answer.message);
    turn.answer(card.id, true);
    await turn.done;
    const requests = server.requests.slice(before);
    assert.equal(requests.length, 4);
    const firstRead = promptOf(requests[1]!).all;
    assert.match(firstRead, /10 \| row 10/);
    assert.doesNotMatch(firstRead, /Showing lines/);
    const afterSecondRead = promptOf(requests[3]!).all;
    // Row 10 only from the first read: the second one stops at the new limit.
    assert.equal(afterSecondRead.split("10 | row 10").length - 1, 1);
    assert.match(afterSecondRead, /1 \| row 1\\n2 \| row 2\\n3 \| row 3\\n\[Showing lines 1-3 of 10\. Read on with start_line 4\.\]/);
  });
});
