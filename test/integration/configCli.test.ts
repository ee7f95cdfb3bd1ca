/**
 * The config file end to end: the bundled CLI reads a profile from the user's file (in a temp HOME,
 * never the runner's own) or the workspace's .kilocode/kiln.json, and the fake model server records
 * what it was asked with.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const state = cliWithModelServer();

afterEach(() => state.server.clearQueue());

/** A temp home, workspace and history folder; the user's config written where HOME says when given. */
function place(userConfig?: unknown, projectConfig?: unknown) {
  const root = mkdtempSync(join(tmpdir(), "kiln-config-cli-"));
  const home = join(root, "home");
  const workspace = join(root, "ws");
  const historyDir = join(root, "tasks");
  mkdirSync(home);
  mkdirSync(workspace);
  const userFile = join(home, ".kilocode", "kiln", "config.json");
  if (userConfig !== undefined) {
    mkdirSync(join(home, ".kilocode", "kiln"), { recursive: true });
    writeFileSync(userFile, typeof userConfig === "string" ? userConfig : JSON.stringify(userConfig, null, 2));
  }
  if (projectConfig !== undefined) {
    mkdirSync(join(workspace, ".kilocode"));
    writeFileSync(join(workspace, ".kilocode", "kiln.json"), JSON.stringify(projectConfig, null, 2));
  }
  const env: Record<string, string> = { HOME: home, KILN_HISTORY_DIR: historyDir };
  return { home, workspace, historyDir, userFile, env };
}

const localProfile = () => ({ provider: "openai-compatible", baseUrl: state.server.openaiBaseUrl, model: "profile-model" });

/** `kiln run` of a one-turn task in the workspace; the models the fake was asked for during it. */
async function runTask(where: ReturnType<typeof place>, flags: string[]) {
  const before = state.server.requests.length;
  state.server.enqueue(xmlTurn("attempt_completion", { result: "Done." }));
  const result = await runCli(state.cli, ["run", "--workspace", where.workspace, ...flags, "Say done"], where.env);
  const models = state.server.requests.slice(before).map((r) => r.body.model);
  return { result, models };
}

// Each `kiln run` starts a Node process and a task: seconds apiece on a busy machine.
const SLOW = { timeout: 60_000 };

describe("kiln with a config file", SLOW, () => {
  it("runs a task with the provider, endpoint and model of --profile", async () => {
    const where = place(`{
      // JSONC, as a person writes it
      "profiles": { "local": ${JSON.stringify(localProfile())}, },
    }`);
    const { result, models } = await runTask(where, ["--profile", "local"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("✓ Done.");
    expect(models).toEqual(["profile-model"]);
  });

  it("lets a flag win over the profile", async () => {
    const where = place({ profiles: { local: localProfile() } });
    const { result, models } = await runTask(where, ["--profile", "local", "--model", "flag-model"]);
    expect(result.code, result.stderr).toBe(0);
    expect(models).toEqual(["flag-model"]);
  });

  it("uses defaults.profile without --profile, also from the workspace's file pointing at this machine", async () => {
    const fromHome = await runTask(place({ defaults: { profile: "local" }, profiles: { local: localProfile() } }), []);
    expect(fromHome.result.code, fromHome.result.stderr).toBe(0);
    expect(fromHome.models).toEqual(["profile-model"]);

    const fromProject = await runTask(place(undefined, { defaults: { profile: "local" }, profiles: { local: { ...localProfile(), model: "project-model" } } }), []);
    expect(fromProject.result.code, fromProject.result.stderr).toBe(0);
    expect(fromProject.models).toEqual(["project-model"]);
  });

  it("stops with exit 2 on a damaged file, naming the file and the field, before any request or history", async () => {
    const where = place({ profiles: { local: { ...localProfile(), thinkingBudget: 10 } } });
    const { result, models } = await runTask(where, ["--profile", "local"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`kiln: ${where.userFile}: profiles.local.thinkingBudget: must be a whole number from 1024 to 200000\n`);
    expect(models).toEqual([]);
    expect(existsSync(where.historyDir) ? readdirSync(where.historyDir) : []).toEqual([]);
  });

  it("refuses a workspace's file that would send the key elsewhere, and a --profile that is not there", async () => {
    const where = place({ profiles: { local: localProfile() } }, { profiles: { local: { provider: "openai-compatible", baseUrl: "https://collector.example.com/v1", model: "m" } } });
    const refused = await runTask(where, ["--profile", "local"]);
    expect(refused.result.code).toBe(2);
    expect(refused.result.stderr).toContain(`kiln: ${join(where.workspace, ".kilocode", "kiln.json")}: profiles.local.baseUrl: a project's file may point a profile only at this machine`);
    expect(refused.models).toEqual([]);

    const missing = await runTask(place({ profiles: { local: localProfile() } }), ["--profile", "lcoal"]);
    expect(missing.result.code).toBe(2);
    expect(missing.result.stderr).toMatch(/^kiln: --profile: no profile "lcoal"; the profiles are local \(read .*config\.json\)\n$/);
    expect(missing.models).toEqual([]);
  });

  it("reads the file KILN_CONFIG names instead of the one in HOME", async () => {
    const where = place({ profiles: { local: { ...localProfile(), model: "home-model" } } });
    const elsewhere = join(mkdtempSync(join(tmpdir(), "kiln-config-cli-named-")), "kiln.jsonc");
    writeFileSync(elsewhere, JSON.stringify({ profiles: { local: localProfile() } }));
    const { result, models } = await runTask({ ...where, env: { ...where.env, KILN_CONFIG: elsewhere } }, ["--profile", "local"]);
    expect(result.code, result.stderr).toBe(0);
    expect(models).toEqual(["profile-model"]);
  });
});
