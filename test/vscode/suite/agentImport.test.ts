import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { ImportSummaryView } from "../../../src/shared/protocol/settings";
import { ROO_TASKS, writeRooStorage } from "../../fixtures/rooStorage";
import { kiln, removeMcpConfig, toSettings, waitFor } from "./helpers";

type HistoryState = Extract<HostToWebview, { type: "history/state" }>["state"];

async function historyState(api: KilnTestApi): Promise<HistoryState> {
  return new Promise((resolve) => {
    const listener = api.sidebar.onDidPost((m) => {
      if (m.type !== "history/state") return;
      listener.dispose();
      resolve(m.state);
    });
    api.sidebar.receive({ type: "history/open" });
  });
}

async function importFrom(api: KilnTestApi, dryRun: boolean): Promise<ImportSummaryView> {
  const { answer } = await toSettings(api, { type: "settings/importFrom", kind: "roo", dryRun });
  assert.ok(answer?.ok, answer?.message);
  return answer.result as ImportSummaryView;
}

describe("import from Roo Code in the real host", () => {
  let api: KilnTestApi;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  // Roo's storage sits beside Kiln's, as the editor lays out its extensions' folders.
  let userDir: string;
  const made: string[] = [];
  const kilnFiles = ["custom_modes.yaml", "mcp_settings.json"];
  const saved = new Map<string, string | undefined>();

  before(async () => {
    api = await kiln();
    userDir = dirname(dirname(api.globalStorageUri.fsPath));
    const fixture = writeRooStorage(userDir);
    made.push(fixture.storage, fixture.home, fixture.project, join(userDir, "project-b"));
    for (const name of kilnFiles) {
      const path = join(api.globalStorageUri.fsPath, name);
      saved.set(
        path,
        (() => {
          try {
            return readFileSync(path, "utf8");
          } catch {
            return undefined;
          }
        })(),
      );
    }
  });
  after(async () => {
    for (const path of made) rmSync(path, { recursive: true, force: true });
    rmSync(join(workspace, ".roo"), { recursive: true, force: true });
    await removeMcpConfig();
    for (const [path, text] of saved) {
      if (text === undefined) rmSync(path, { force: true });
      else writeFileSync(path, text);
    }
    api.sidebar.newTask();
  });

  it("the first-run offer names Roo Code once; the settings state lists it with its folder", async () => {
    const offer = await api.offerImportForTest();
    assert.match(offer ?? "", /^Kiln found Roo Code on this machine\. Bring over its modes, rules, MCP servers and task history\?$/);
    assert.equal(await api.offerImportForTest(), undefined, "offered once per agent");
    const { state } = await toSettings(api, { type: "settings/ready" });
    assert.deepEqual(state?.imports, [{ kind: "roo", label: "Roo Code", path: join(userDir, "globalStorage", "rooveterinaryinc.roo-cline") }]);
  });

  it("a dry run says what would come over and writes nothing; the import brings modes, servers and tasks, once", async () => {
    const preview = await importFrom(api, true);
    assert.deepEqual([preview.modes.imported, preview.mcp.imported, preview.tasks.imported], [2, 2, 2]);
    assert.deepEqual(
      preview.tasks.skipped.map((s) => s.name.split(/[\\/]/).at(-1)),
      [ROO_TASKS.damaged.id, ROO_TASKS.missing.id],
    );
    assert.equal((await historyState(api)).entries.filter((e) => e.importedFrom === "roo").length, 0, "a dry run imports no task");

    // The open folder's .roo/mcp.json comes into its .kilocode/mcp.json.
    mkdirSync(join(workspace, ".roo"), { recursive: true });
    writeFileSync(join(workspace, ".roo", "mcp.json"), JSON.stringify({ mcpServers: { "project-db": { command: "npx", args: ["db-mcp"] } } }));
    const done = await importFrom(api, false);
    assert.equal(done.projectMcp?.imported, 1);
    assert.deepEqual(JSON.parse(readFileSync(join(workspace, ".kilocode", "mcp.json"), "utf8")), { mcpServers: { "project-db": { command: "npx", args: ["db-mcp"] } } });
    assert.equal(done.dryRun, false);
    assert.deepEqual([done.modes.imported, done.mcp.imported, done.tasks.imported], [2, 2, 2]);
    const modes = readFileSync(join(api.globalStorageUri.fsPath, "custom_modes.yaml"), "utf8");
    assert.match(modes, /slug: reviewer[\s\S]*slug: docs-writer/);
    const servers = JSON.parse(readFileSync(join(api.globalStorageUri.fsPath, "mcp_settings.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    assert.ok(servers.mcpServers.weather && servers.mcpServers.docs && !servers.mcpServers.broken);
    const { state } = await toSettings(api, { type: "settings/ready" });
    assert.ok(
      state?.modes.some((m) => m.slug === "reviewer" && m.scope === "global"),
      "the imported mode is a global mode",
    );

    const again = await importFrom(api, false);
    assert.deepEqual([again.modes.imported, again.mcp.imported, again.tasks.imported, again.tasks.alreadyThere], [0, 0, 0, 2]);
    const imported = (await historyState(api)).entries.filter((e) => e.importedFrom === "roo");
    assert.deepEqual(imported.map((e) => e.title).sort(), [ROO_TASKS.full.title, ROO_TASKS.xml.title].sort());
  });

  it("an imported task reopens from the history with its messages, tool calls and completion", async () => {
    const entry = (await historyState(api)).entries.find((e) => e.title === ROO_TASKS.full.title)!;
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    api.sidebar.receive({ type: "history/resume", id: entry.id });
    const snapshot = await waitFor("the imported task's snapshot", () => posted.find((m): m is Extract<HostToWebview, { type: "chat/snapshot" }> => m.type === "chat/snapshot")).finally(() =>
      listener.dispose(),
    );
    const items = snapshot.items;
    assert.match(items[0]?.role === "user" ? items[0].text : "", /^Add a greeting to the README/);
    assert.ok(items.some((i) => i.role === "tool" && i.name === "read_file"));
    assert.ok(items.some((i) => i.role === "tool" && i.name === "execute_command"));
    assert.ok(items.some((i) => i.role === "completion" && i.result === "Added a greeting to the README."));
  });
});
