import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HistoryStore } from "../../../src/core/history/HistoryStore";
import { applyImport } from "../../../src/core/import/applyImport";
import { readSource } from "../../../src/core/import/readSource";
import type { SourceKind } from "../../../src/core/import/sources";
import type { ImportTargets } from "../../../src/core/import/types";
import { parseModesFile } from "../../../src/core/modes/customModes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { CLINE_TASK, ROO_TASKS, writeClineStorage, writeKiloStorage, writeRooStorage, type RooFixture } from "../../fixtures/rooStorage";

/** Every file below `dir` with its bytes and modification time. */
function snapshot(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  const out: Record<string, { bytes: string; mtimeMs: number }> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[path] = { bytes: readFileSync(path).toString("base64"), mtimeMs: statSync(path).mtimeMs };
    }
  };
  walk(dir);
  return out;
}

describe("import: applying what a source holds to Kiln's files", () => {
  let root: string;
  let fixture: RooFixture;
  let kiln: string;
  let targets: ImportTargets;
  const files = new NodeFileSystem();

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-import-apply-"));
    fixture = writeRooStorage(root);
    kiln = join(root, "kiln");
    targets = {
      modesFile: join(kiln, "kiln", "custom_modes.yaml"),
      rulesDir: join(kiln, "rules"),
      mcpFile: join(kiln, "kiln", "mcp_settings.json"),
      history: new HistoryStore(join(kiln, "kiln", "tasks"), files),
      files,
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const importRoo = async (dryRun = false, extra: Partial<ImportTargets> = {}) =>
    applyImport(await readSource("roo", fixture.storage, { home: fixture.home, ...(extra.workspace && { workspace: extra.workspace }) }), { ...targets, ...extra }, { dryRun });

  it("brings over modes, rules, MCP servers and tasks; what cannot come is named with why", async () => {
    const result = await importRoo();
    expect(result.modes.imported).toEqual(["reviewer", "docs-writer"]);
    expect(result.modes.skipped).toEqual([{ name: expect.stringContaining("custom_modes.yaml"), reason: 'mode "Broken Slug": slug: use letters, digits and dashes' }]);
    const modes = parseModesFile(readFileSync(targets.modesFile, "utf8"), targets.modesFile);
    expect(modes.errors).toEqual([]);
    expect(modes.modes.find((m) => m.slug === "reviewer")).toMatchObject({ whenToUse: "Before merging.", groups: ["read", ["edit", { fileRegex: "\\.md$", description: "Markdown only" }]] });

    expect(result.rules.imported.sort()).toEqual(["rules-code/tests.md", "rules/nested/naming.md", "rules/style.md"]);
    expect(result.rules.skipped).toEqual([{ name: "rules/notes.json", reason: expect.stringContaining(".md") }]);
    // Copied byte for byte: CRLF stays CRLF.
    expect(readFileSync(join(targets.rulesDir, "style.md"), "utf8")).toBe("# Style\r\nUse tabs.\r\n");
    expect(readFileSync(join(`${targets.rulesDir}-code`, "tests.md"), "utf8")).toBe("Write a test first.\n");

    expect(result.mcp.imported).toEqual(["weather", "docs"]);
    expect(result.mcp.skipped).toEqual([{ name: "broken", reason: expect.stringContaining("command") }]);
    const mcp = JSON.parse(readFileSync(targets.mcpFile, "utf8")) as { mcpServers: Record<string, unknown> };
    expect(mcp.mcpServers.weather).toEqual({ command: "node", args: ["weather.js"], env: { UNITS: "metric" }, alwaysAllow: ["forecast"], disabled: false });

    expect(result.tasks.imported.sort()).toEqual([`roo-${ROO_TASKS.full.id}`, `roo-${ROO_TASKS.xml.id}`]);
    expect(result.tasks.skipped).toEqual([
      { name: expect.stringContaining(ROO_TASKS.damaged.id), reason: expect.stringMatching(/ui_messages\.json is not valid JSON/) },
      { name: expect.stringContaining(ROO_TASKS.missing.id), reason: "api_conversation_history.json is missing" },
    ]);
    const listed = await targets.history.list();
    expect(listed.entries.map((e) => e.title).sort()).toEqual([ROO_TASKS.full.title, ROO_TASKS.xml.title].sort());
    const loaded = await targets.history.load(`roo-${ROO_TASKS.full.id}`);
    expect(loaded.entry.importedFrom).toBe("roo");
    expect(loaded.ui.at(-1)).toMatchObject({ role: "completion", result: "Added a greeting to the README." });
  });

  it("keeps what the target files hold: an existing mode or server of the same name is kept and the clash reported, their format and line ends too", async () => {
    mkdirSync(join(kiln, "kiln"), { recursive: true });
    const modesText = "\uFEFF# my modes\r\ncustomModes:\r\n  - slug: reviewer\r\n    name: My Reviewer\r\n    roleDefinition: Mine.\r\n    groups: [read]";
    writeFileSync(targets.modesFile, modesText);
    const mcpText = '{\r\n  "mcpServers": {\r\n    "weather": { "command": "python", "args": ["w.py"] },\r\n    "mine": { "url": "https://mine.example.com/mcp" }\r\n  }\r\n}\r\n';
    writeFileSync(targets.mcpFile, mcpText);
    mkdirSync(targets.rulesDir, { recursive: true });
    writeFileSync(join(targets.rulesDir, "style.md"), "My own style.\n");

    const result = await importRoo();
    expect(result.modes).toMatchObject({ imported: ["docs-writer"], skipped: expect.arrayContaining([{ name: "reviewer", reason: expect.stringContaining("already has a different mode") }]) });
    const modes = readFileSync(targets.modesFile, "utf8");
    expect(modes.startsWith("\uFEFF# my modes\r\ncustomModes:\r\n  - slug: reviewer\r\n    name: My Reviewer\r\n")).toBe(true);
    expect(modes).toContain("slug: docs-writer\r\n");
    expect(modes.replace(/\r\n/g, "")).not.toContain("\n");
    expect(modes.endsWith("\n")).toBe(false);

    expect(result.mcp).toMatchObject({ imported: ["docs"], skipped: expect.arrayContaining([{ name: "weather", reason: expect.stringContaining("already has a different server") }]) });
    const mcp = readFileSync(targets.mcpFile, "utf8");
    expect(mcp.startsWith('{\r\n  "mcpServers": {\r\n    "weather": { "command": "python", "args": ["w.py"] },\r\n    "mine": { "url": "https://mine.example.com/mcp" },')).toBe(true);
    expect(mcp.replace(/\r\n/g, "")).not.toContain("\n");
    expect((JSON.parse(mcp) as { mcpServers: Record<string, unknown> }).mcpServers.docs).toEqual({ type: "streamable-http", url: "https://docs.example.com/mcp", headers: { "X-Team": "a" } });

    expect(result.rules.skipped).toContainEqual({ name: "rules/style.md", reason: expect.stringContaining("already exists with other content") });
    expect(readFileSync(join(targets.rulesDir, "style.md"), "utf8")).toBe("My own style.\n");
  });

  it("adds to a JSON modes file as JSON", async () => {
    mkdirSync(join(kiln, "kiln"), { recursive: true });
    writeFileSync(targets.modesFile, '{\n  "customModes": []\n}\n');
    await importRoo();
    const text = readFileSync(targets.modesFile, "utf8");
    expect((JSON.parse(text) as { customModes: { slug: string }[] }).customModes.map((m) => m.slug)).toEqual(["reviewer", "docs-writer"]);
  });

  it("a second import adds nothing and changes no file", async () => {
    await importRoo();
    const before = snapshot(kiln);
    const again = await importRoo();
    expect([again.modes.imported, again.rules.imported, again.mcp.imported, again.tasks.imported]).toEqual([[], [], [], []]);
    expect(again.modes.alreadyThere).toEqual(["reviewer", "docs-writer"]);
    expect(again.mcp.alreadyThere).toEqual(["weather", "docs"]);
    expect(again.rules.alreadyThere).toHaveLength(3);
    expect(again.tasks.alreadyThere).toHaveLength(2);
    expect(snapshot(kiln)).toEqual(before);
    expect((await targets.history.list()).entries).toHaveLength(2);
  });

  it("a dry run reports what the import would do and writes nothing", async () => {
    const dry = await importRoo(true);
    expect(existsSync(kiln)).toBe(false);
    const real = await importRoo(false);
    expect({ ...dry, dryRun: false }).toEqual(real);
  });

  it("a file that cannot be written is that part's failure, named with why; the other parts still come over", async () => {
    // The modes file's folder is a file: no write can succeed there.
    const blocked = join(root, "blocked");
    writeFileSync(blocked, "not a folder");
    const result = await importRoo(false, { modesFile: join(blocked, "custom_modes.yaml") });
    expect(result.modes.imported).toEqual([]);
    expect(result.modes.skipped).toEqual([{ name: join(blocked, "custom_modes.yaml"), reason: expect.stringMatching(/^could not be written \((ENOTDIR|EEXIST|ENOENT)\)/) }]);
    expect(result.mcp.imported).toEqual(["weather", "docs"]);
    expect(result.tasks.imported).toHaveLength(2);
  });

  it("never writes the source: its files keep their bytes and times", async () => {
    const projectMcp = join(fixture.project, ".roo", "mcp.json");
    const before = { ...snapshot(fixture.storage), ...snapshot(fixture.home), [projectMcp]: snapshot(join(fixture.project, ".roo"))[projectMcp] };
    await importRoo(false, { workspace: fixture.project });
    await importRoo(false, { workspace: fixture.project });
    expect({ ...snapshot(fixture.storage), ...snapshot(fixture.home), [projectMcp]: snapshot(join(fixture.project, ".roo"))[projectMcp] }).toEqual(before);
    // What it wrote went to Kiln's files only: the project's own MCP file beside Roo's.
    expect(existsSync(join(fixture.project, ".kilocode", "mcp.json"))).toBe(true);
  });

  it("with a workspace: the project's .roo/mcp.json into its .kilocode/mcp.json, and all tasks unless only the workspace's are asked for", async () => {
    const everyTask = await importRoo(true, { workspace: fixture.project });
    expect([everyTask.tasks.imported.length, everyTask.tasks.otherWorkspace]).toEqual([2, 0]);
    const result = await importRoo(false, { workspace: fixture.project, onlyWorkspaceTasks: true });
    expect(result.tasks.imported).toEqual([`roo-${ROO_TASKS.full.id}`]);
    expect(result.tasks.otherWorkspace).toBe(1);
    const file = join(fixture.project, ".kilocode", "mcp.json");
    expect(result.projectMcp).toEqual({ imported: ["project-db"], alreadyThere: [], skipped: [], file });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: { "project-db": { command: "npx", args: ["db-mcp"] } } });
  });
});

describe("import: Cline's and Kilo's own layouts", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-import-other-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const targetsIn = (dir: string): ImportTargets => {
    const files = new NodeFileSystem();
    return { modesFile: join(dir, "custom_modes.yaml"), rulesDir: join(dir, "rules"), mcpFile: join(dir, "mcp_settings.json"), history: new HistoryStore(join(dir, "tasks"), files), files };
  };
  const run = async (kind: SourceKind, source: { storage: string; home: string }, dir: string) =>
    applyImport(await readSource(kind, source.storage, { home: source.home }), targetsIn(dir), { dryRun: false });

  it("Cline: cline_mcp_settings.json, ~/Documents/Cline/Rules and its task list", async () => {
    const dir = join(root, "kiln");
    const result = await run("cline", writeClineStorage(root), dir);
    expect(result.mcp.imported).toEqual(["github", "remote"]);
    expect(result.rules.imported).toEqual(["rules/cline-style.md"]);
    expect(result.modes.imported).toEqual([]);
    expect(result.tasks.imported).toEqual([`cline-${CLINE_TASK.id}`]);
    const entry = (await targetsIn(dir).history.list()).entries[0];
    expect(entry).toMatchObject({ workspace: CLINE_TASK.workspace, model: CLINE_TASK.model, importedFrom: "cline" });
  });

  it("Kilo: modes written as JSON come over; its rules are Kiln's own folder, so none are copied", async () => {
    const dir = join(root, "kiln");
    const result = await run("kilo", writeKiloStorage(root), dir);
    expect(result.modes.imported).toEqual(["translator"]);
    expect(result.rules).toMatchObject({ imported: [], skipped: [] });
    expect(parseModesFile(readFileSync(join(dir, "custom_modes.yaml"), "utf8"), "f").modes[0]).toMatchObject({ slug: "translator", groups: ["read", ["edit", { fileRegex: "\\.json$" }]] });
  });

  it("Kilo in the editor: its ~/.kilocode/rules and rules-<mode> are copied, since the editor keeps global rules in its storage", async () => {
    const dir = join(root, "kiln");
    const source = writeKiloStorage(root);
    mkdirSync(join(source.home, ".kilocode", "rules"), { recursive: true });
    mkdirSync(join(source.home, ".kilocode", "rules-code"), { recursive: true });
    writeFileSync(join(source.home, ".kilocode", "rules", "style.md"), "Use tabs.\n");
    writeFileSync(join(source.home, ".kilocode", "rules-code", "tests.md"), "Test first.\n");
    const result = await applyImport(await readSource("kilo", source.storage, { home: source.home, kiloRules: true }), targetsIn(dir), { dryRun: false });
    expect(result.rules.imported).toEqual(["rules/style.md", "rules-code/tests.md"]);
    expect(readFileSync(join(dir, "rules-code", "tests.md"), "utf8")).toBe("Test first.\n");
  });
});
