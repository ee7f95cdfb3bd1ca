import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFlags, UsageError, type CliArgs } from "../../../src/hosts/cli/args";
import { applyConfig, ConfigError, configPlaces, parseConfigText, readConfigFiles, type ConfigScope, type LoadedConfig } from "../../../src/hosts/cli/configFile";

const USER = "/home/u/.kilocode/kiln/config.json";
const PROJECT = "/ws/.kilocode/kiln.json";

// Put together from pieces, so that secret scanners do not take this file for a leak.
const ANTHROPIC_SHAPED = ["sk-", "ant-", "api03-", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7d"].join("");

/** The problems of one file's text, or its config when it has none. */
function check(value: unknown, scope: ConfigScope = "user") {
  return parseConfigText(typeof value === "string" ? value : JSON.stringify(value), scope === "user" ? USER : PROJECT, scope);
}

function loaded(user?: unknown, project?: unknown): LoadedConfig {
  const files = [];
  for (const [value, scope] of [
    [user, "user"],
    [project, "project"],
  ] as const) {
    if (value === undefined) continue;
    const { config, problems } = check(value, scope);
    expect(problems).toEqual([]);
    files.push(config!);
  }
  return { files, looked: [USER, PROJECT] };
}

/** parseFlags, then the config applied, as main.ts does. */
function configured(argv: string[], config: LoadedConfig, env: Record<string, string> = {}, resumed?: { provider?: string }): CliArgs {
  const args = parseFlags(argv, env, "/ws");
  applyConfig(args, config, resumed);
  return args;
}

const problemsOf = (fn: () => unknown): readonly string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("no ConfigError thrown");
};

describe("config file: reading", () => {
  it("reads JSONC: comments and trailing commas", () => {
    const { config, problems } = check(`{
      "$schema": "https://example.com/kiln.schema.json",
      // the one I use at work
      "profiles": {
        "work": { "provider": "openrouter", "model": "anthropic/claude-sonnet-4.5", /* effort */ "reasoningEffort": "high", },
      },
      "defaults": { "profile": "work", "approve": "read,edit", "maxRequests": 20 },
    }`);
    expect(problems).toEqual([]);
    expect(config!.profiles.work).toEqual({ provider: "openrouter", model: "anthropic/claude-sonnet-4.5", reasoningEffort: "high" });
    expect(config!.defaults).toEqual({ profile: "work", approve: ["read", "edit"], maxRequests: 20 });
  });

  it("says where a syntax error is, as FILE:LINE:COL", () => {
    expect(check('{\n  "profiles": {\n    "work": { "provider": "openai" "model": "gpt-4.1" }\n  }\n}').problems).toEqual([`${USER}:3:36: expected ","`]);
    expect(check('{ "defaults": { "mode": "code" }').problems).toEqual([`${USER}:1:33: expected "}"`]);
    expect(check("[]").problems).toEqual([`${USER}: must hold one JSON object, like {"profiles": {}}`]);
  });

  it.each([
    ["an unknown field", { profiles: { work: { provider: "openai", modle: "gpt-4.1" } } }, "profiles.work.modle: unknown field (the fields here: provider, baseUrl, model,"],
    ["an unknown top-level field", { profile: "work" }, `${USER}: profile: unknown field (the fields here: $schema, defaults, profiles)`],
    ["a provider Kiln has not", { profiles: { work: { provider: "palm" } } }, "profiles.work.provider: must be one of anthropic, openai,"],
    ["a profile without a provider", { profiles: { work: { model: "x" } } }, "profiles.work.provider: a profile needs its provider: one of anthropic,"],
    [
      "both reasoning fields",
      { profiles: { work: { provider: "anthropic", reasoningEffort: "high", thinkingBudget: 16000 } } },
      "profiles.work.thinkingBudget: give reasoningEffort or thinkingBudget, not both",
    ],
    ["a budget out of range", { profiles: { work: { provider: "anthropic", thinkingBudget: 100 } } }, "profiles.work.thinkingBudget: must be a whole number from 1024 to 200000"],
    [
      "an option the provider's family does not read",
      { profiles: { work: { provider: "openrouter", region: "us-east-1" } } },
      "profiles.work.region: OpenRouter does not read it (Amazon Bedrock and Google Vertex AI do)",
    ],
    ["a bad model figure", { profiles: { work: { provider: "openai", modelInfo: { contextWindow: -5 } } } }, "profiles.work.modelInfo.contextWindow: "],
    ["an unknown approval word", { defaults: { approve: "read,everything" } }, 'defaults.approve: unknown group "everything"'],
    ["a retry count out of range", { defaults: { retries: 11 } }, "defaults.retries: must be a whole number from 0 to 10"],
    ["an empty command prefix", { defaults: { allowCommands: ["npm test", " "] } }, "defaults.allowCommands[1]: must be a command prefix"],
    ["defaults that are not an object", { defaults: ["code"] }, "defaults: must be an object of default settings"],
    ["a profile that is not an object", { profiles: { work: "openai" } }, "profiles.work: must be an object of a profile's settings"],
    ["a profile name that is hard to type", { profiles: { "my work": { provider: "openai" } } }, "profiles.my work: a profile's name is up to 64 letters"],
    ["a base URL that is not http(s)", { profiles: { work: { provider: "openai", baseUrl: "ftp://x" } } }, "profiles.work.baseUrl: must be an http(s) URL"],
    [
      "a key field",
      { profiles: { work: { provider: "anthropic", apiKey: "abc" } } },
      "profiles.work.apiKey: keys are never kept in the config file; set the provider's variable (e.g. ANTHROPIC_API_KEY) or name one with apiKeyEnv",
    ],
    ["a token field anywhere", { defaults: { githubToken: "abc" } }, "defaults.githubToken: keys are never kept in the config file"],
  ])("names the file and the field: %s", (_what, value, expected) => {
    const { config, problems } = check(value);
    expect(config).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
    expect(problems[0]!.startsWith(`${USER}: `)).toBe(true);
  });

  it("refuses a value shaped like a key, naming the field but not the value", () => {
    const { problems } = check({ profiles: { work: { provider: "anthropic", model: ANTHROPIC_SHAPED } } });
    expect(problems).toEqual([
      `${USER}: profiles.work.model: this looks like an Anthropic API key; keys are never kept in the config file; set the provider's variable (e.g. ANTHROPIC_API_KEY) or name one with apiKeyEnv`,
    ]);
    expect(problems.join("\n")).not.toContain(ANTHROPIC_SHAPED.slice(7));
    const inUrl = check({ profiles: { proxy: { provider: "openai", baseUrl: "https://me:hunter2hunter2@proxy.example.com/v1" } } });
    expect(inUrl.problems.join("\n")).toMatch(/profiles\.proxy\.baseUrl: this looks like a password in a URL/);
    expect(inUrl.problems.join("\n")).not.toContain("hunter2");
  });

  it("takes the names of where a key is (apiKeyEnv, keyFile) and counted tokens for what they are", () => {
    const { config, problems } = check(
      {
        profiles: {
          v: { provider: "vertex", project: "p1", keyFile: "keys/sa.json", region: "europe-west4" },
          o: { provider: "openai", apiKeyEnv: "WORK_OPENAI_KEY", modelInfo: { maxOutputTokens: 4000 } },
        },
      },
      "user",
    );
    expect(problems).toEqual([]);
    // Relative to the config file, wherever the CLI runs.
    expect(config!.profiles.v!.keyFile).toBe("/home/u/.kilocode/kiln/keys/sa.json");
  });

  it("reports every problem of both files at once", () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-config-"));
    const user = join(dir, "config.json");
    writeFileSync(user, JSON.stringify({ profiles: { a: { provider: "palm" }, b: { provider: "openai", protocol: "json" } } }));
    mkdirSync(join(dir, "ws", ".kilocode"), { recursive: true });
    writeFileSync(join(dir, "ws", ".kilocode", "kiln.json"), '{ "defaults": { "mode": 3 } }');
    const problems = problemsOf(() => readConfigFiles(configPlaces(join(dir, "ws"), { KILN_CONFIG: user })));
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${user}: profiles\\.a\\.provider: must be one of anthropic, openai, `)),
      `${user}: profiles.b.protocol: must be xml, native or auto`,
      `${join(dir, "ws", ".kilocode", "kiln.json")}: defaults.mode: must be a mode's slug (code, architect, ask, debug, orchestrator or a custom mode)`,
    ]);
  });

  it("finds the user's file in HOME, or where KILN_CONFIG says; a KILN_CONFIG file that is missing is an error", () => {
    const home = mkdtempSync(join(tmpdir(), "kiln-home-"));
    mkdirSync(join(home, ".kilocode", "kiln"), { recursive: true });
    writeFileSync(join(home, ".kilocode", "kiln", "config.json"), '{ "profiles": { "mine": { "provider": "openai" } } }');
    const found = readConfigFiles(configPlaces(join(home, "nowhere"), { HOME: home }));
    expect(found.files.map((f) => Object.keys(f.profiles))).toEqual([["mine"]]);
    expect(readConfigFiles(configPlaces(join(home, "nowhere"), { HOME: join(home, "empty") })).files).toEqual([]);
    const missing = join(home, "elsewhere.json");
    expect(problemsOf(() => readConfigFiles(configPlaces(home, { HOME: home, KILN_CONFIG: missing })))).toEqual([`${missing}: KILN_CONFIG names this file, and there is none`]);
  });
});

describe("config file: a project's file", () => {
  it.each([
    [{ defaults: { approve: "all" } }, "defaults.approve: approvals come from your own config (~/.kilocode/kiln/config.json) or flags, not from a project's file"],
    [{ defaults: { allowCommands: ["rm"] } }, "defaults.allowCommands: approvals come from your own config"],
    [{ defaults: { denyCommands: ["git push"] } }, "defaults.denyCommands: approvals come from your own config"],
    [{ profiles: { p: { provider: "anthropic", apiKeyEnv: "ANTHROPIC_API_KEY" } } }, "profiles.p.apiKeyEnv: a project's file may not choose which variable your key is read from"],
    [{ profiles: { p: { provider: "vertex", keyFile: "sa.json" } } }, "profiles.p.keyFile: a project's file may not choose which credentials are read"],
    [{ profiles: { p: { provider: "anthropic", baseUrl: "https://collector.example.com" } } }, "profiles.p.baseUrl: a project's file may point a profile only at this machine"],
    [{ profiles: { p: { provider: "openai-compatible", baseUrl: "http://localhost.example.com:11434/v1" } } }, "profiles.p.baseUrl: a project's file may point"],
  ])("refuses %j", (value, expected) => {
    const { problems } = check(value, "project");
    expect(problems).toEqual([expect.stringContaining(`${PROJECT}: ${expected}`)]);
    // The user's own file may set all of these.
    expect(check(value, "user").problems).toEqual([]);
  });

  it("lets a project point a profile at a server on this machine", () => {
    for (const baseUrl of ["http://localhost:11434", "http://127.0.0.1:1234/v1", "http://127.1.2.3:8080/v1", "http://[::1]:8080/v1"]) {
      expect(check({ profiles: { local: { provider: "openai-compatible", baseUrl, model: "qwen" } } }, "project").problems).toEqual([]);
    }
  });
});

describe("config file: what applies", () => {
  const user = {
    defaults: { profile: "work", mode: "architect", protocol: "auto", maxRequests: 20, retries: 5 },
    profiles: {
      work: { provider: "openrouter", model: "anthropic/claude-sonnet-4.5", protocol: "native", apiKeyEnv: "WORK_KEY", reasoningEffort: "high" },
      local: { provider: "ollama", model: "qwen3-coder" },
    },
  };

  it("uses the chosen profile and the file's defaults where flags and environment say nothing", () => {
    const args = configured(["run", "task"], loaded(user));
    expect(args.settings).toMatchObject({ kind: "openrouter", model: "anthropic/claude-sonnet-4.5", reasoningEffort: "high" });
    expect(args).toMatchObject({ apiKeyEnv: "WORK_KEY", protocol: "native", mode: "architect", maxRequests: 20, retries: 5 });
    const local = configured(["run", "--profile", "local", "task"], loaded(user));
    expect(local.settings).toMatchObject({ kind: "ollama", model: "qwen3-coder", baseUrl: "" });
    expect(local.protocol).toBe("auto");
    expect(local.apiKeyEnv).toBeUndefined();
  });

  it("lets flags win over the environment, the environment over the profile, the profile over defaults", () => {
    const config = loaded(user);
    const env = { KILN_MODEL: "from-env", KILN_BASE_URL: "http://env.example/v1" };
    const flagged = configured(["run", "--model", "from-flag", "--protocol", "xml", "--max-requests", "7", "--profile", "work", "task"], config, env);
    expect(flagged.settings).toMatchObject({ kind: "openrouter", model: "from-flag", baseUrl: "http://env.example/v1" });
    expect(flagged).toMatchObject({ protocol: "xml", maxRequests: 7, retries: 5 });
    expect(configured(["run", "task"], config, env).settings.model).toBe("from-env");
    expect(configured(["run", "task"], config).settings.model).toBe("anthropic/claude-sonnet-4.5");
    // Without a config, the built-in defaults.
    expect(configured(["run", "task"], loaded())).toMatchObject({ settings: { kind: "anthropic", model: "" }, protocol: "xml", mode: "code", maxRequests: 50, retries: 3 });
  });

  it("merges the project's file over the user's: a profile whole, defaults field by field", () => {
    const project = { defaults: { mode: "ask" }, profiles: { work: { provider: "openrouter", model: "qwen/qwen3-coder" } } };
    const args = configured(["run", "task"], loaded(user, project));
    expect(args.settings).toMatchObject({ kind: "openrouter", model: "qwen/qwen3-coder" });
    // The project's "work" replaced the user's whole: its key variable and effort are gone.
    expect(args.apiKeyEnv).toBeUndefined();
    expect(args.settings.reasoningEffort).toBeUndefined();
    expect(args).toMatchObject({ mode: "ask", maxRequests: 20, protocol: "auto" });
  });

  it("says which profiles exist and which files were read when --profile names none", () => {
    expect(problemsOf(() => configured(["run", "--profile", "hoem", "task"], loaded(user, { profiles: { local2: { provider: "lmstudio" } } })))).toEqual([
      `--profile: no profile "hoem"; the profiles are local, local2, work (read ${USER} and ${PROJECT})`,
    ]);
    expect(problemsOf(() => configured(["chat", "--profile", "work", "hi"], loaded()))).toEqual([`--profile: no profile "work"; there are no profiles (no config file at ${USER} or ${PROJECT})`]);
    expect(problemsOf(() => configured(["run", "task"], loaded({ defaults: { profile: "gone" } })))).toEqual([`${USER}: defaults.profile: no profile "gone"; there are no profiles (read ${USER})`]);
    expect(() => parseFlags(["history", "--profile", "work"], {}, "/ws")).toThrow(new UsageError("--profile is for run, chat, resume and models"));
  });

  it("keeps a profile to its own provider", () => {
    const config = loaded(user);
    expect(problemsOf(() => configured(["run", "--profile", "work", "--provider", "anthropic", "task"], config))).toEqual([
      "--profile work is for openrouter, but --provider names anthropic; give one of them",
    ]);
    // defaults.profile is left out when this run names another provider: none of its model or key variable goes with it.
    const other = configured(["run", "--provider", "anthropic", "task"], config);
    expect(other.settings).toMatchObject({ kind: "anthropic", model: "" });
    expect(other.apiKeyEnv).toBeUndefined();
    expect(other.protocol).toBe("auto");
  });

  it("lets an explicit --profile win over a resumed task's provider, and defaults.profile not", () => {
    const config = loaded(user);
    const explicit = configured(["resume", "task-1", "--profile", "local"], config, {}, { provider: "anthropic" });
    expect(explicit.given).toEqual({ kind: true, model: true });
    expect(explicit.settings.kind).toBe("ollama");
    const byDefault = configured(["resume", "task-1"], config, {}, { provider: "anthropic" });
    expect(byDefault.given).toEqual({});
    expect(byDefault.apiKeyEnv).toBeUndefined();
    // Of the same provider, the default profile's settings stay (history.ts then restores the task's own model).
    expect(configured(["resume", "task-1"], config, {}, { provider: "openrouter" }).apiKeyEnv).toBe("WORK_KEY");
  });

  it("takes the file's approvals with the flags': the flags' words and allow list win, deny lists add up", () => {
    const config = loaded({ defaults: { approve: "read,command", allowCommands: ["npm test"], denyCommands: ["git push"] } });
    const fromFile = configured(["run", "task"], config);
    expect(fromFile.autoApprove).toMatchObject({ read: { enabled: true }, write: { enabled: false }, execute: { enabled: true, allowed: ["npm test"], denied: ["git push"] } });
    const flagged = configured(["run", "--allow-command", "make", "--deny-command", "rm", "task"], config);
    expect(flagged.autoApprove.execute).toMatchObject({ allowed: ["make"], denied: ["git push", "rm"] });
    expect(configured(["run", "--approve", "read", "task"], config).autoApprove).toMatchObject({ read: { enabled: true }, execute: { enabled: false } });
    expect(() => configured(["run", "--allow-command", "make", "task"], loaded())).toThrow("--allow-command and --deny-command need command in --approve");
  });
});
