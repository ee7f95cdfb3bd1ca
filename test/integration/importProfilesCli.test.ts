/**
 * `kiln import --settings` end to end: the bundled CLI reads a Roo Code settings export (written here
 * in the shape "Export settings" gives it), adds its profiles to the config file in a temp HOME, and
 * `kiln run --profile` then reaches the fake model server with the key from the environment, the only
 * place it comes from. The server refuses any other key.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { writeRooStorage } from "../fixtures/rooStorage";
import { buildCli, runCli, xmlTurn } from "./cliProcess";

const RUN_KEY = "sk-run-key-given-through-the-environment";
/** Keys as the export holds them; none may turn up in any file or output. */
const EXPORTED_KEYS = ["sk-ant-api03-ExportedKeyExportedKey0123456789", "sk-proj-Exported1Key2For3The4Compatible5Server6"];

const state = {} as { cli: string; server: FakeModelServer };
beforeAll(async () => {
  state.cli = await buildCli();
  state.server = await new FakeModelServer({ apiKey: RUN_KEY }).start();
});
afterAll(() => state.server.close());

/** A temp HOME with no agent's storage in it, an export beside it and a workspace. */
function place() {
  const root = mkdtempSync(join(tmpdir(), "kiln-import-profiles-"));
  const home = join(root, "home");
  const workspace = join(root, "ws");
  mkdirSync(home);
  mkdirSync(workspace);
  const settings = join(root, "roo-code-settings.json");
  writeFileSync(
    settings,
    JSON.stringify(
      {
        providerProfiles: {
          currentApiConfigName: "Local Model",
          apiConfigs: {
            "Local Model": { id: "a1", apiProvider: "openai", openAiBaseUrl: state.server.openaiBaseUrl, openAiModelId: "imported-model", openAiApiKey: EXPORTED_KEYS[1] },
            claude: { id: "a2", apiProvider: "anthropic", apiModelId: "claude-sonnet-4-5", apiKey: EXPORTED_KEYS[0] },
            relay: { id: "a3", apiProvider: "human-relay" },
          },
          modeApiConfigs: { code: "a1", architect: "a2" },
        },
        globalSettings: { autoApprovalEnabled: false },
      },
      null,
      2,
    ),
  );
  const env: Record<string, string> = { HOME: home, USERPROFILE: home, APPDATA: join(home, "AppData"), XDG_CONFIG_HOME: "", KILN_HISTORY_DIR: join(root, "tasks") };
  return { root, home, workspace, settings, env, configFile: join(home, ".kilocode", "kiln", "config.json") };
}

function expectNoKeys(...texts: string[]): void {
  for (const text of texts) for (const key of EXPORTED_KEYS) expect(text).not.toContain(key);
}

const SLOW = { timeout: 60_000 };

describe("kiln import --settings", SLOW, () => {
  it("imports the profiles alone, without keys; kiln run --profile then works with the key from the environment; a second import adds nothing", async () => {
    const where = place();
    const imported = await runCli(state.cli, ["import", "--from", "roo", "--settings", where.settings, "--json"], where.env);
    expect(imported.code, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout) as {
      storageDir: null;
      profiles: { imported: string[]; needKey: string[]; skipped: { name: string; reason: string }[]; renamed: Record<string, string> };
      notes: string[];
    };
    expect(result.storageDir).toBeNull();
    expect(result.profiles).toMatchObject({ imported: ["Local-Model", "claude"], needKey: ["Local-Model", "claude"], renamed: { "Local Model": "Local-Model" } });
    expect(result.profiles.skipped).toEqual([{ name: "relay", reason: "human-relay has a person paste the replies; Kiln has nothing like it" }]);
    expect(result.notes.join("\n")).toContain("only the profiles of --settings are imported");
    expect(result.notes.join("\n")).toContain("2 mode pins were left out");
    const config = readFileSync(where.configFile, "utf8");
    expect(JSON.parse(config)).toEqual({
      profiles: {
        "Local-Model": { provider: "openai-compatible", baseUrl: state.server.openaiBaseUrl, model: "imported-model" },
        claude: { provider: "anthropic", model: "claude-sonnet-4-5" },
      },
    });
    expectNoKeys(imported.stdout, imported.stderr, config);

    // No key given: the server refuses the request (it wants RUN_KEY).
    const before = state.server.requests.length;
    const keyless = await runCli(state.cli, ["run", "--profile", "Local-Model", "--workspace", where.workspace, "--no-checkpoints", "Say done"], where.env);
    expect(keyless.code).not.toBe(0);

    state.server.enqueue(xmlTurn("attempt_completion", { result: "Done with the imported profile." }));
    const run = await runCli(state.cli, ["run", "--profile", "Local-Model", "--workspace", where.workspace, "--no-checkpoints", "Say done"], { ...where.env, KILN_API_KEY: RUN_KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Done with the imported profile.");
    const sent = state.server.requests.slice(before).at(-1)!;
    expect(sent.body.model).toBe("imported-model");
    expect(sent.headers.authorization).toBe(`Bearer ${RUN_KEY}`);

    const again = await runCli(state.cli, ["import", "--from", "roo", "--settings", where.settings], where.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Provider profiles \(into .*config\.json\): 0 imported, 2 already there, 1 skipped/);
    expect(again.stdout).toContain("Local-Model: KILN_API_KEY (or name another variable with apiKeyEnv in the profile)");
    expect(again.stdout).toContain("claude: ANTHROPIC_API_KEY");
    expect(readFileSync(where.configFile, "utf8")).toBe(config);
    expectNoKeys(again.stdout, again.stderr);
  });

  it("imports the profiles beside the storage's modes, servers and tasks", async () => {
    const where = place();
    const { storage } = writeRooStorage(join(where.root, "roo"));
    const dry = await runCli(state.cli, ["import", "--from", "roo", "--path", storage, "--settings", where.settings, "--dry-run", "--json"], where.env);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { storageDir: string; modes: { imported: string[] }; profiles: { imported: string[] } };
    expect(plan.storageDir).toBe(storage);
    expect(plan.modes.imported).toEqual(["reviewer", "docs-writer"]);
    expect(plan.profiles.imported).toEqual(["Local-Model", "claude"]);
    expect(existsSync(join(where.home, ".kilocode"))).toBe(false);

    const real = await runCli(state.cli, ["import", "--from", "roo", "--path", storage, "--settings", where.settings], where.env);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/Modes \(into .*\): 2 imported/);
    expect(real.stdout).toMatch(/Provider profiles \(into .*config\.json\): 2 imported, 0 already there, 1 skipped/);
    expect(Object.keys((JSON.parse(readFileSync(where.configFile, "utf8")) as { profiles: object }).profiles)).toEqual(["Local-Model", "claude"]);
  });

  it("stops on a file that is no settings export, naming it, before writing anything; refuses --settings for Cline", async () => {
    const where = place();
    const bad = join(where.root, "modes.json");
    writeFileSync(bad, JSON.stringify({ customModes: [] }));
    const refused = await runCli(state.cli, ["import", "--from", "kilo", "--settings", bad], where.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`kiln: --settings: ${bad}: providerProfiles: missing: this is not a settings export (Roo Code, Kilo Code and Zoo Code write one with Export settings)\n`);
    expect(existsSync(join(where.home, ".kilocode"))).toBe(false);

    const missing = await runCli(state.cli, ["import", "--from", "zoo", "--settings", join(where.root, "nope.json")], where.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`kiln: --settings ${join(where.root, "nope.json")}: there is no such file\n`);

    const cline = await runCli(state.cli, ["import", "--from", "cline", "--settings", where.settings], where.env);
    expect(cline.code).toBe(2);
    expect(cline.stderr).toContain("--settings reads a settings export of kilo, roo, zoo; cline writes none");
  });
});
