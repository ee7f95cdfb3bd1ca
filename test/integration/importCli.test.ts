import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";
import { ROO_TASKS, writeRooStorage } from "../fixtures/rooStorage";
import { HistoryStore } from "../../src/core/history/HistoryStore";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";

const ctx = cliWithModelServer();

/** A temp home with a Roo Code global storage in it; the CLI's history goes to that home's default folder. */
function rooHome() {
  const root = mkdtempSync(join(tmpdir(), "kiln-import-cli-"));
  const fixture = writeRooStorage(root);
  const env = { HOME: fixture.home, USERPROFILE: fixture.home, KILN_HISTORY_DIR: "" };
  return { ...fixture, env, kilnDir: join(fixture.home, ".kilocode", "kiln") };
}

interface Entry {
  id: string;
  title: string;
  status: string;
  importedFrom?: string;
}

async function historyIds(env: Record<string, string>): Promise<string[]> {
  const listed = await runCli(ctx.cli, ["history", "--json"], env);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as Entry[]).map((e) => e.id).sort();
}

const FULL_ID = `roo-${ROO_TASKS.full.id}`;
const XML_ID = `roo-${ROO_TASKS.xml.id}`;

describe("kiln import", () => {
  it("a dry run lists what would come over as JSON and writes nothing; the import then brings it; a second adds nothing", { timeout: 60_000 }, async () => {
    const { storage, env, kilnDir, home } = rooHome();
    const dry = await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage, "--dry-run", "--json"], env);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { dryRun: boolean; tasks: { imported: string[]; skipped: { name: string; reason: string }[] }; modes: { imported: string[] }; mcp: { imported: string[] } };
    expect(plan.dryRun).toBe(true);
    expect(plan.tasks.imported.sort()).toEqual([FULL_ID, XML_ID]);
    expect(plan.tasks.skipped.map((s) => s.name)).toEqual([expect.stringContaining(ROO_TASKS.damaged.id), expect.stringContaining(ROO_TASKS.missing.id)]);
    expect(plan.modes.imported).toEqual(["reviewer", "docs-writer"]);
    expect(plan.mcp.imported).toEqual(["weather", "docs"]);
    expect(existsSync(join(home, ".kilocode"))).toBe(false);

    const real = await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage], env);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain(`Import from Roo Code (${storage})`);
    expect(real.stdout).toMatch(/Modes \(into .*custom_modes\.yaml\): 2 imported, 0 already there, 1 skipped/);
    expect(real.stdout).toMatch(/Tasks \(into .*tasks\): 2 imported, 0 already there, 2 skipped/);
    expect(real.stdout).toContain("ui_messages.json is not valid JSON");
    expect(readFileSync(join(kilnDir, "custom_modes.yaml"), "utf8")).toContain("slug: reviewer");
    expect(JSON.parse(readFileSync(join(kilnDir, "mcp_settings.json"), "utf8"))).toMatchObject({ mcpServers: { weather: { command: "node" } } });
    expect(readFileSync(join(home, ".kilocode", "rules", "style.md"), "utf8")).toBe("# Style\r\nUse tabs.\r\n");
    expect(await historyIds(env)).toEqual([FULL_ID, XML_ID]);

    const again = await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Tasks \(into .*\): 0 imported, 2 already there/);
    expect(again.stdout).toMatch(/MCP servers \(into .*\): 0 imported, 2 already there/);
    expect(await historyIds(env)).toEqual([FULL_ID, XML_ID]);
  });

  it("without --path, says where it looked when no data is found", async () => {
    const home = mkdtempSync(join(tmpdir(), "kiln-import-empty-"));
    const result = await runCli(ctx.cli, ["import", "--from", "cline"], { HOME: home, USERPROFILE: home, APPDATA: join(home, "AppData"), XDG_CONFIG_HOME: "" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^kiln: no Cline data found \(looked in .*saoudrizwan\.claude-dev.*\); give its global storage folder with --path DIR/);
  });

  it("refuses a missing --from and an unknown source", async () => {
    const missing = await runCli(ctx.cli, ["import"], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("kiln import needs --from kilo|roo|zoo|cline");
    const unknown = await runCli(ctx.cli, ["import", "--from", "copilot"], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--from must be kilo, roo, zoo, cline (got "copilot")');
  });

  it("--workspace imports only that folder's tasks and its .roo/mcp.json", async () => {
    const { storage, env, project } = rooHome();
    const result = await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage, "--workspace", project, "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { tasks: { imported: string[]; otherWorkspace: number }; projectMcp: { imported: string[] } };
    expect(parsed.tasks).toMatchObject({ imported: [FULL_ID], otherWorkspace: 1 });
    expect(parsed.projectMcp.imported).toEqual(["project-db"]);
    expect(JSON.parse(readFileSync(join(project, ".kilocode", "mcp.json"), "utf8"))).toEqual({ mcpServers: { "project-db": { command: "npx", args: ["db-mcp"] } } });
    expect(await historyIds(env)).toEqual([FULL_ID]);
  });

  it.runIf(process.platform !== "win32")("imported tasks resume where they were, and kiln run uses the imported modes and MCP servers", { timeout: 60_000 }, async () => {
    const { storage, env } = rooHome();
    const imported = await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage], env);
    expect(imported.code, imported.stderr).toBe(0);
    const provider = ["--provider", "openai", "--base-url", ctx.server.openaiBaseUrl];

    // The XML-era task, in its own folder (made here: Roo ran it elsewhere).
    const before = ctx.server.requests.length;
    ctx.server.clearQueue();
    ctx.server.enqueue(xmlTurn("attempt_completion", { result: "The forecast is rain." }));
    const resumed = await runCli(ctx.cli, ["resume", XML_ID, ...provider, "--workspace", mkdtempSync(join(tmpdir(), "kiln-import-ws-")), "Try the weather server again"], {
      ...env,
      OPENAI_API_KEY: "sk-i",
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("The forecast is rain.");
    const sent = JSON.stringify(ctx.server.requests[before]!.body.messages);
    expect(sent).toMatch(/Check the weather server[\s\S]*use_mcp_tool[\s\S]*Rain, 7°C[\s\S]*Try the weather server again/);

    // The native task (Roo's native tool calls): resumed with native tools, its tool results paired.
    const nativeBefore = ctx.server.requests.length;
    ctx.server.enqueue({ toolCalls: [{ name: "attempt_completion", arguments: { result: "French added too." } }] });
    const native = await runCli(ctx.cli, ["resume", FULL_ID, ...provider, "--workspace", mkdtempSync(join(tmpdir(), "kiln-import-ws-")), "Add French after all"], { ...env, OPENAI_API_KEY: "sk-i" });
    expect(native.code, native.stderr).toBe(0);
    expect(native.stdout).toContain("French added too.");
    const body = ctx.server.requests[nativeBefore]!.body as { messages: unknown[]; tools?: unknown[] };
    expect(JSON.stringify(body.messages)).toMatch(/Add a greeting to the README[\s\S]*toolu_01[\s\S]*Add French after all/);
    expect(body.tools?.length).toBeGreaterThan(0);

    // kiln run finds the imported mode in the global modes file, and the imported servers in the global MCP file.
    const runBefore = ctx.server.requests.length;
    ctx.server.enqueue(xmlTurn("attempt_completion", { result: "Reviewed." }));
    const run = await runCli(ctx.cli, ["run", ...provider, "--workspace", mkdtempSync(join(tmpdir(), "kiln-import-ws-")), "--mode", "reviewer", "--no-checkpoints", "Review the last change"], {
      ...env,
      OPENAI_API_KEY: "sk-i",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(ctx.server.requests[runBefore]!.body)).toContain("You review changes for bugs and unclear names.");
    // weather.js is not there: the server fails, which shows it was read from the imported file.
    expect(run.stderr).toContain('MCP: server "weather" is not available');

    const listed = await runCli(ctx.cli, ["history", "--json"], env);
    const entries = JSON.parse(listed.stdout) as Entry[];
    // Resumed and saved again, it stays marked as brought over from Roo.
    expect(entries.filter((e) => e.id === XML_ID)).toEqual([expect.objectContaining({ status: "completed", importedFrom: "roo" })]);
    expect(entries.filter((e) => e.id === FULL_ID)).toHaveLength(1);
  });

  it("an imported task whose mode is not defined here resumes in code mode, and says so", { timeout: 60_000 }, async () => {
    const { storage, env, kilnDir } = rooHome();
    expect((await runCli(ctx.cli, ["import", "--from", "roo", "--path", storage], env)).code).toBe(0);
    // As if its custom mode came over only in Roo: the history keeps a slug Kiln does not know.
    const store = new HistoryStore(join(kilnDir, "tasks"), new NodeFileSystem());
    const saved = await store.load(XML_ID);
    await store.save({ ...saved, entry: { ...saved.entry, mode: "roo-only-mode" } });
    ctx.server.clearQueue();
    ctx.server.enqueue(xmlTurn("attempt_completion", { result: "Went on in Code." }));
    const resumed = await runCli(ctx.cli, ["resume", XML_ID, "--provider", "openai", "--base-url", ctx.server.openaiBaseUrl, "--workspace", mkdtempSync(join(tmpdir(), "kiln-import-ws-")), "Go on"], {
      ...env,
      OPENAI_API_KEY: "sk-i",
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('the task\'s mode "roo-only-mode" is not defined here; it goes on in code mode');
    expect(resumed.stdout).toContain("Went on in Code.");
  });
});
