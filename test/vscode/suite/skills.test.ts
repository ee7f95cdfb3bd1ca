import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { SettingsState } from "../../../src/shared/protocol/settings";
import { FakeModelServer, type RecordedRequest } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, exchange, kiln, promptOf, setKiln, toSettings, waitFor } from "./helpers";

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function lastUserText(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

describe("skills: SKILL.md folders in the prompt, the / commands and the settings panel", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  let api: KilnTestApi;
  let server: FakeModelServer;
  let globalSkill: string;
  const restores: (() => unknown)[] = [];

  before(async () => {
    api = await kiln();
    server = await new FakeModelServer().start();
    globalSkill = join(api.globalStorageUri.fsPath, "skills", "commit-style");
  });
  after(() => server.close());
  beforeEach(async () => {
    restores.push(await setKiln({ "skills.disabled": undefined, mode: undefined, "provider.protocol": "xml" }));
    await configure("openai-compatible", server.openaiBaseUrl);
    put(
      join(workspace, ".kilocode/skills/release-notes/SKILL.md"),
      "---\nname: release-notes\ndescription: Write release notes from CHANGELOG.md\n---\n\nRELEASE BODY: group entries by Added and Fixed.\n",
    );
    put(join(workspace, ".kilocode/skills/release-notes/template.md"), "# Release\n");
    put(join(workspace, ".claude/skills/pdf-forms/SKILL.md"), "---\nname: pdf-forms\ndescription: Fill PDF forms with the bundled script\n---\n\nPDF BODY\n");
    put(join(globalSkill, "SKILL.md"), "---\nname: commit-style\ndescription: Commit messages in the team's style\n---\n\nCOMMIT BODY\n");
    api.sidebar.newTask();
  });
  afterEach(async () => {
    server.clearQueue();
    for (const restore of restores.splice(0).reverse()) await restore();
    rmSync(join(workspace, ".kilocode"), { recursive: true, force: true });
    rmSync(join(workspace, ".claude"), { recursive: true, force: true });
    rmSync(dirname(globalSkill), { recursive: true, force: true });
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    api.sidebar.newTask();
  });

  it("the settings state lists each skill; turning one off writes kiln.skills.disabled and takes it out of the next prompt", async () => {
    const { state } = await toSettings(api, { type: "settings/ready" });
    assert.deepEqual(
      state?.skills.skills.map((s) => [s.id, s.name, s.scope, s.enabled]),
      [
        ["global:skills/commit-style", "commit-style", "global", true],
        ["project:.kilocode/skills/release-notes", "release-notes", "project", true],
        ["project:.claude/skills/pdf-forms", "pdf-forms", "project", true],
      ],
    );
    const off = await toSettings(api, { type: "settings/setSkillEnabled", id: "project:.claude/skills/pdf-forms", enabled: false });
    assert.equal(off.answer?.ok, true, off.answer?.message);
    assert.deepEqual(vscode.workspace.getConfiguration("kiln").get("skills.disabled"), ["project:.claude/skills/pdf-forms"]);
    assert.equal(off.state?.skills.skills.find((s) => s.name === "pdf-forms")?.enabled, false);
    const missing = await toSettings(api, { type: "settings/setSkillEnabled", id: "project:.kilocode/skills/nope", enabled: false });
    assert.equal(missing.answer?.ok, false);
    assert.match(missing.answer?.message ?? "", /there is no skill "project:\.kilocode\/skills\/nope"/);

    const before = server.requests.length;
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "write the notes" });
    const system = promptOf(server.requests[before]!).system;
    assert.match(system, /- commit-style: Commit messages in the team's style\n- release-notes: Write release notes from CHANGELOG\.md/);
    assert.doesNotMatch(system, /pdf-forms|RELEASE BODY|COMMIT BODY/);
  });

  it("/release-notes runs the skill: the model gets its body, its files and the user's words; the / list offers it", async () => {
    const listed: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => listed.push(m));
    api.sidebar.receive({ type: "commands/list" });
    const commands = await waitFor("the command list", () => listed.flatMap((m) => (m.type === "commands/list" ? [m.commands] : [])).at(-1)).finally(() => listener.dispose());
    assert.deepEqual(
      commands.find((c) => c.name === "release-notes"),
      { name: "release-notes", description: "Write release notes from CHANGELOG.md", source: "skill" },
    );
    server.enqueue({ text: COMPLETE });
    await exchange(api.sidebar, { type: "chat/send", text: "/release-notes for v2.1" });
    const text = lastUserText(server.requests.at(-1)!);
    assert.match(text, /<skill name="release-notes">\nRELEASE BODY: group entries by Added and Fixed\.\n<\/skill>/);
    assert.match(text, /- \.kilocode\/skills\/release-notes\/template\.md/);
    assert.match(text, /The user's request for this skill: for v2\.1$/);
  });

  it("an open panel shows a skill added on disk", async () => {
    api.settingsPanel.open();
    restores.push(() => api.settingsPanel.current?.dispose());
    const states: SettingsState[] = [];
    const listener = api.settings.onDidPost((m) => m.type === "settings/state" && states.push(m.state));
    restores.push(() => listener.dispose());
    put(join(workspace, ".kilocode/skills/added-later/SKILL.md"), "---\nname: added-later\ndescription: Added while the panel is open\n---\nbody\n");
    await waitFor("a state listing the new skill", () => states.some((s) => s.skills.skills.some((k) => k.name === "added-later")));
  });
});
