import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSettingsExport } from "../../../src/core/import/providerProfiles";
import type { ProfilesPlan } from "../../../src/core/import/types";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { parseConfigText } from "../../../src/hosts/cli/configFile";
import { applyProfiles, cliProfileName } from "../../../src/hosts/cli/importProfiles";
import { describeResult, type CombinedResult } from "../../../src/hosts/cli/importCommand";

/**
 * Settings exports as Roo Code, Kilo Code (v5) and Zoo Code write them with "Export settings": the
 * profiles under providerProfiles.apiConfigs by name, each a flat object of that agent's provider
 * settings (field names as their provider-settings schema spells them), mode pins by profile id.
 */
function exportText(apiConfigs: Record<string, unknown>, extra: { modeApiConfigs?: Record<string, unknown>; current?: string } = {}): string {
  return JSON.stringify(
    {
      providerProfiles: { currentApiConfigName: extra.current ?? Object.keys(apiConfigs)[0] ?? "default", apiConfigs, modeApiConfigs: extra.modeApiConfigs ?? {} },
      globalSettings: { autoApprovalEnabled: true, customInstructions: "Be brief." },
    },
    null,
    2,
  );
}

const FILE = "/exports/roo-code-settings.json";

function read(text: string): ProfilesPlan {
  const result = parseSettingsExport(text, FILE);
  if (!result.ok) throw new Error(result.error);
  return result.plan;
}

/** Made-up credentials in the shapes the real ones have, so any that leaked would also be caught by shape. */
const KEYS = {
  anthropic: "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  openai: "sk-proj-Q1w2E3r4T5y6U7i8O9p0AsDfGhJkLzXcVbNm",
  openrouter: `sk-or-v1-${"ab12".repeat(16)}`,
  gemini: "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
  awsAccess: "AKIAIOSFODNN7EXAMPLE",
  awsSecret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  awsSession: "FwoGZXIvYXdzEBcaDPlainSessionToken0123",
  vertexJson: '{"type":"service_account","private_key":"not-a-real-one-4242"}',
  ollama: "ollama-key-9f8e7d6c5b4a",
  header: "Bearer hdr-secret-7a7a7a7a7a7a",
  codeIndex: "sk-codeindex-5151515151515151",
  plainWord: "plainsecretword",
} as const;

describe("settings export: profiles mapped to Kiln's provider kinds", () => {
  it("maps each provider family, keeping only the endpoint, model and the provider's own settings", () => {
    const plan = read(
      exportText({
        claude: { id: "p1", apiProvider: "anthropic", apiModelId: "claude-sonnet-4-5", anthropicBaseUrl: "https://proxy.example.com" },
        gpt: { id: "p2", apiProvider: "openai-native", apiModelId: "gpt-5" },
        local: { id: "p3", apiProvider: "openai", openAiBaseUrl: "http://localhost:8000/v1", openAiModelId: "qwen3-coder" },
        plainOpenai: { id: "p4", apiProvider: "openai", openAiModelId: "gpt-4.1" },
        azure: { id: "p5", apiProvider: "openai", openAiBaseUrl: "https://team.openai.azure.com", openAiModelId: "prod-deploy", openAiUseAzure: true, azureApiVersion: "2024-10-21" },
        router: { id: "p6", apiProvider: "openrouter", openRouterModelId: "anthropic/claude-sonnet-4.5" },
        gem: { id: "p7", apiProvider: "gemini", apiModelId: "gemini-2.5-pro" },
        vtx: { id: "p8", apiProvider: "vertex", apiModelId: "claude-sonnet-4-5@20250929", vertexProjectId: "my-proj", vertexRegion: "us-east5", vertexKeyFile: "/keys/sa.json" },
        aws: { id: "p9", apiProvider: "bedrock", apiModelId: "anthropic.claude-sonnet-4-5", awsRegion: "eu-west-1", awsUseProfile: true, awsProfile: "work" },
        awsArn: { id: "p10", apiProvider: "bedrock", apiModelId: "custom-arn", awsCustomArn: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/x", awsProfile: "unused" },
        llama: { id: "p11", apiProvider: "ollama", ollamaBaseUrl: "http://gpu-box:11434", ollamaModelId: "qwen3:32b" },
        studio: { id: "p12", apiProvider: "lmstudio", lmStudioModelId: "devstral", lmStudioBaseUrl: "" },
        lite: { id: "p13", apiProvider: "litellm", litellmModelId: "gpt-4o" },
        ds: { id: "p14", apiProvider: "deepseek", apiModelId: "deepseek-chat" },
        mis: { id: "p15", apiProvider: "mistral", apiModelId: "devstral-medium-latest" },
        grok: { id: "p16", apiProvider: "xai", apiModelId: "grok-code-fast-1" },
        glm: { id: "p17", apiProvider: "zai", apiModelId: "glm-4.6", zaiApiLine: "international_coding" },
        kimi: { id: "p18", apiProvider: "moonshot", apiModelId: "kimi-k2", moonshotBaseUrl: "https://api.moonshot.cn/v1" },
      }),
    );
    expect(plan.skipped).toEqual([]);
    expect(plan.profiles).toEqual([
      { name: "claude", kind: "anthropic", baseUrl: "https://proxy.example.com", model: "claude-sonnet-4-5", needsKey: true },
      { name: "gpt", kind: "openai", model: "gpt-5", needsKey: true },
      { name: "local", kind: "openai-compatible", baseUrl: "http://localhost:8000/v1", model: "qwen3-coder", needsKey: false },
      { name: "plainOpenai", kind: "openai", model: "gpt-4.1", needsKey: true },
      { name: "azure", kind: "azure", baseUrl: "https://team.openai.azure.com", model: "prod-deploy", apiVersion: "2024-10-21", needsKey: true },
      { name: "router", kind: "openrouter", model: "anthropic/claude-sonnet-4.5", needsKey: true },
      { name: "gem", kind: "gemini", model: "gemini-2.5-pro", needsKey: true },
      { name: "vtx", kind: "vertex", model: "claude-sonnet-4-5@20250929", project: "my-proj", region: "us-east5", keyFile: "/keys/sa.json", needsKey: false },
      { name: "aws", kind: "bedrock", model: "anthropic.claude-sonnet-4-5", region: "eu-west-1", awsProfile: "work", needsKey: false },
      { name: "awsArn", kind: "bedrock", model: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/x", needsKey: false },
      { name: "llama", kind: "ollama", baseUrl: "http://gpu-box:11434", model: "qwen3:32b", needsKey: false },
      { name: "studio", kind: "lmstudio", model: "devstral", needsKey: false },
      { name: "lite", kind: "openai-compatible", baseUrl: "http://localhost:4000", model: "gpt-4o", needsKey: false },
      { name: "ds", kind: "deepseek", model: "deepseek-chat", needsKey: true },
      { name: "mis", kind: "mistral", model: "devstral-medium-latest", needsKey: true },
      { name: "grok", kind: "xai", model: "grok-code-fast-1", needsKey: true },
      { name: "glm", kind: "zai", baseUrl: "https://api.z.ai/api/coding/paas/v4", model: "glm-4.6", needsKey: true },
      { name: "kimi", kind: "moonshot", baseUrl: "https://api.moonshot.cn/v1", model: "kimi-k2", needsKey: true },
    ]);
    expect(plan.current).toBe("claude");
  });

  it("copies no key anywhere, and marks each profile that had one", () => {
    const text = exportText(
      {
        claude: { id: "k1", apiProvider: "anthropic", apiKey: KEYS.anthropic, apiModelId: "claude-sonnet-4-5", codeIndexOpenAiKey: KEYS.codeIndex },
        compat: { id: "k2", apiProvider: "openai", openAiBaseUrl: "https://llm.example.com/v1", openAiApiKey: KEYS.openai, openAiHeaders: { Authorization: KEYS.header } },
        router: { id: "k3", apiProvider: "openrouter", openRouterApiKey: KEYS.openrouter },
        gem: { id: "k4", apiProvider: "gemini", geminiApiKey: KEYS.gemini },
        aws: { id: "k5", apiProvider: "bedrock", awsAccessKey: KEYS.awsAccess, awsSecretKey: KEYS.awsSecret, awsSessionToken: KEYS.awsSession, awsRegion: "us-east-1" },
        vtx: { id: "k6", apiProvider: "vertex", vertexJsonCredentials: KEYS.vertexJson, vertexProjectId: "p" },
        llama: { id: "k7", apiProvider: "ollama", ollamaModelId: "qwen3", ollamaApiKey: KEYS.ollama },
        plainLlama: { id: "k8", apiProvider: "ollama", ollamaModelId: "qwen3", codeIndexQdrantApiKey: KEYS.plainWord },
        // Keys where Kiln reads no key: a model field, a URL's password, a query parameter.
        keyAsModel: { id: "k9", apiProvider: "anthropic", apiModelId: KEYS.anthropic },
        passwordUrl: { id: "k10", apiProvider: "openai", openAiBaseUrl: `https://me:${KEYS.plainWord}@llm.example.com/v1` },
        queryKey: { id: "k11", apiProvider: "ollama", ollamaBaseUrl: `http://box:11434/?api_key=${KEYS.plainWord}` },
        // A key pasted as the provider's name.
        keyAsProvider: { id: "k12", apiProvider: KEYS.openai },
      },
      { modeApiConfigs: { code: "k1" } },
    );
    const plan = read(text);
    const whole = JSON.stringify(plan);
    for (const key of Object.values(KEYS)) expect(whole).not.toContain(key);
    expect(whole).not.toContain("hdr-secret");
    expect(whole).not.toContain("not-a-real-one");

    const needs = Object.fromEntries(plan.profiles.map((p) => [p.name, p.needsKey]));
    // openai-compatible and Ollama run without a key; these had one, so they need it.
    expect(needs).toEqual({ claude: true, compat: true, router: true, gem: true, aws: true, vtx: true, llama: true, plainLlama: false });
    expect(plan.skipped).toEqual([
      { name: "keyAsModel", reason: "apiModelId: looks like an Anthropic API key, which Kiln never copies" },
      { name: "passwordUrl", reason: "openAiBaseUrl: looks like a password in a URL, which Kiln never copies" },
      { name: "queryKey", reason: "ollamaBaseUrl: has a key in its query, which Kiln never copies" },
      { name: "keyAsProvider", reason: expect.stringContaining("Kiln has no provider for this provider") },
    ]);
  });

  it("skips unknown providers and ones Kiln has nothing like, each with its reason", () => {
    const plan = read(
      exportText({
        req: { id: "u1", apiProvider: "requesty", requestyModelId: "x" },
        copilot: { id: "u2", apiProvider: "vscode-lm", vsCodeLmModelSelector: { vendor: "copilot" } },
        cc: { id: "u3", apiProvider: "claude-code" },
        kilo: { id: "u4", apiProvider: "kilocode", kilocodeToken: KEYS.plainWord },
        never: { id: "u5" },
        good: { id: "u6", apiProvider: "groq", apiModelId: "openai/gpt-oss-120b" },
      }),
    );
    expect(plan.profiles.map((p) => p.name)).toEqual(["good"]);
    expect(plan.skipped).toEqual([
      { name: "req", reason: 'Kiln has no provider for "requesty"; add the profile by hand (as openai-compatible where the service has an OpenAI-compatible API)' },
      { name: "copilot", reason: "vscode-lm calls VS Code's language models (GitHub Copilot), which Kiln does not" },
      { name: "cc", reason: "claude-code signs in with that tool's own account, which Kiln cannot use" },
      { name: "kilo", reason: "kilocode goes through Kilo Code's own gateway and account; use OpenRouter or the model's vendor instead" },
      { name: "never", reason: "it names no provider (apiProvider); it was never set up" },
    ]);
    expect(JSON.stringify(plan)).not.toContain(KEYS.plainWord);
  });

  it("skips a profile whose own field is bad, and ignores other providers' leftovers", () => {
    const plan = read(
      exportText({
        badModel: { id: "b1", apiProvider: "anthropic", apiModelId: 42 },
        badUrl: { id: "b2", apiProvider: "ollama", ollamaBaseUrl: "ftp://box" },
        badFlag: { id: "b3", apiProvider: "openai", openAiBaseUrl: "http://x/v1", openAiUseAzure: "yes" },
        badLine: { id: "b4", apiProvider: "zai", zaiApiLine: "mars" },
        notObject: "anthropic",
        leftovers: { id: "b5", apiProvider: "anthropic", ollamaModelId: 7, openAiUseAzure: "no" },
      }),
    );
    expect(plan.profiles.map((p) => p.name)).toEqual(["leftovers"]);
    expect(plan.skipped).toEqual([
      { name: "badModel", reason: "apiModelId: must be text" },
      { name: "badUrl", reason: "ollamaBaseUrl: must be an http(s) URL" },
      { name: "badFlag", reason: "openAiUseAzure: must be true or false" },
      { name: "badLine", reason: "zaiApiLine: must be one of international_api, international_coding, china_api, china_coding" },
      { name: "notObject", reason: "must be an object of a profile's settings" },
    ]);
  });

  it("maps mode pins from profile ids to names, for the profiles that came over", () => {
    const plan = read(
      exportText(
        {
          fast: { id: "id-fast", apiProvider: "groq", apiModelId: "m" },
          gone: { id: "id-gone", apiProvider: "requesty" },
        },
        { modeApiConfigs: { code: "id-fast", architect: "id-gone", "bad slug": "id-fast", ask: 3 }, current: "gone" },
      ),
    );
    expect(plan.modeProfiles).toEqual({ code: "fast" });
    expect(plan.notes).toEqual(["mode architect: its profile was not imported, so it is pinned to none", "2 mode pins in providerProfiles.modeApiConfigs could not be read and were left out"]);
    // The selected profile was not imported: none is current.
    expect(plan.current).toBeUndefined();
  });

  it("refuses a file that is no settings export with one error naming the file and field, and never quotes it", () => {
    const broken = `{"providerProfiles": {"apiConfigs": {"a": {"apiKey": "${KEYS.anthropic}", }}}}`;
    const syntax = parseSettingsExport(broken, FILE);
    expect(syntax).toEqual({ ok: false, error: `${FILE}:1:${broken.indexOf("}}}}") + 1}: not valid JSON (PropertyNameExpected)` });

    expect(parseSettingsExport(JSON.stringify({ customModes: [] }), FILE)).toEqual({
      ok: false,
      error: `${FILE}: providerProfiles: missing: this is not a settings export (Roo Code, Kilo Code and Zoo Code write one with Export settings)`,
    });
    expect(parseSettingsExport(JSON.stringify({ providerProfiles: { apiConfigs: [] } }), FILE)).toEqual({
      ok: false,
      error: `${FILE}: providerProfiles.apiConfigs: must be an object of profiles by name`,
    });
    expect(parseSettingsExport(JSON.stringify({ providerProfiles: { currentApiConfigName: "a" } }), FILE)).toEqual({
      ok: false,
      error: `${FILE}: providerProfiles.apiConfigs: missing: the export holds no profiles`,
    });
    expect(parseSettingsExport("[]", FILE)).toEqual({ ok: false, error: `${FILE}: must hold one JSON object with providerProfiles (Roo Code, Kilo Code and Zoo Code write one with Export settings)` });
    // A byte order mark is no problem.
    expect(parseSettingsExport(`\uFEFF${exportText({ a: { apiProvider: "xai" } })}`, FILE).ok).toBe(true);
  });
});

describe("kiln import --settings: profiles into the CLI's config file", () => {
  const files = new NodeFileSystem();
  const tempConfig = () => join(mkdtempSync(join(tmpdir(), "kiln-profiles-")), "kiln", "config.json");

  it("makes the file, writes no key, and a second import adds nothing", async () => {
    const file = tempConfig();
    const plan = read(
      exportText({
        "Claude (work)": { id: "1", apiProvider: "anthropic", apiKey: KEYS.anthropic, apiModelId: "claude-sonnet-4-5" },
        local: { id: "2", apiProvider: "openai", openAiBaseUrl: "http://localhost:8000/v1", openAiModelId: "m", openAiApiKey: KEYS.openai },
        aws: { id: "3", apiProvider: "bedrock", awsRegion: "us-west-2", awsAccessKey: KEYS.awsAccess, awsSecretKey: KEYS.awsSecret },
        llama: { id: "4", apiProvider: "ollama", ollamaModelId: "qwen3" },
      }),
    );
    const first = await applyProfiles(plan, file, files, { dryRun: false });
    expect(first).toMatchObject({
      imported: ["Claude-work", "local", "aws", "llama"],
      alreadyThere: [],
      skipped: [],
      needKey: ["Claude-work", "local", "aws"],
      renamed: { "Claude (work)": "Claude-work" },
    });
    const written = readFileSync(file, "utf8");
    expect(parseConfigText(written, file, "user").problems).toEqual([]);
    expect(JSON.parse(written)).toEqual({
      profiles: {
        "Claude-work": { provider: "anthropic", model: "claude-sonnet-4-5" },
        local: { provider: "openai-compatible", baseUrl: "http://localhost:8000/v1", model: "m" },
        aws: { provider: "bedrock", region: "us-west-2" },
        llama: { provider: "ollama", model: "qwen3" },
      },
    });
    expect(written.endsWith("}\n")).toBe(true);

    const summary = describeResult({ source: "roo", storageDir: null, dryRun: false, profiles: first, notes: [] } as CombinedResult, "Roo Code", "/h", plan);
    for (const text of [written, JSON.stringify(first), summary]) for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
    expect(summary).toContain("Claude-work: ANTHROPIC_API_KEY (or name another variable with apiKeyEnv in the profile)");
    expect(summary).toContain("local: KILN_API_KEY");
    expect(summary).toContain("aws: AWS credentials");

    const second = await applyProfiles(plan, file, files, { dryRun: false });
    expect(second).toMatchObject({ imported: [], alreadyThere: ["Claude-work", "local", "aws", "llama"], skipped: [] });
    expect(readFileSync(file, "utf8")).toBe(written);
  });

  it("keeps the file's comments, line ends and missing final newline; keeps a different profile of the same name", async () => {
    const file = tempConfig();
    mkdirSync(join(file, ".."), { recursive: true });
    const before = '{\r\n  // mine\r\n  "defaults": { "mode": "code" },\r\n  "profiles": {\r\n    "llama": { "provider": "ollama", "model": "mine" }\r\n  }\r\n}';
    writeFileSync(file, before);
    const plan = read(
      exportText({
        llama: { id: "1", apiProvider: "ollama", ollamaModelId: "theirs" },
        "x y": { id: "2", apiProvider: "xai", apiModelId: "grok-4" },
        "x/y": { id: "3", apiProvider: "xai", apiModelId: "grok-3" },
      }),
    );
    const dry = await applyProfiles(plan, file, files, { dryRun: true });
    expect(dry.imported).toEqual(["x-y"]);
    expect(readFileSync(file, "utf8")).toBe(before);

    const result = await applyProfiles(plan, file, files, { dryRun: false });
    expect(result.skipped).toEqual([
      { name: "llama", reason: `${file} already has a different profile "llama"; it was kept` },
      { name: "x/y", reason: 'its name in Kiln would be "x-y", which "x y" already takes' },
    ]);
    const after = readFileSync(file, "utf8");
    expect(after).toBe(
      '{\r\n  // mine\r\n  "defaults": { "mode": "code" },\r\n  "profiles": {\r\n    "llama": { "provider": "ollama", "model": "mine" },\r\n    "x-y": {\r\n      "provider": "xai",\r\n      "model": "grok-4"\r\n    }\r\n  }\r\n}',
    );
  });

  it("leaves a broken config file alone and says why", async () => {
    const file = tempConfig();
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, '{ "profiles": { "a": { "provider": "nope" } } }\n');
    const result = await applyProfiles(read(exportText({ g: { id: "1", apiProvider: "groq" } })), file, files, { dryRun: false });
    expect(result.imported).toEqual([]);
    expect(result.skipped).toEqual([{ name: "g", reason: expect.stringMatching(/profiles\.a\.provider: must be one of .*\(fix the file, then import again\)$/) }]);
    expect(readFileSync(file, "utf8")).toBe('{ "profiles": { "a": { "provider": "nope" } } }\n');
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it("names profiles as the config file allows", () => {
    expect(["work", "Claude (work)", "  spaced out  ", "über", "***", "a".repeat(80)].map(cliProfileName)).toEqual(["work", "Claude-work", "spaced-out", "ber", "imported", "a".repeat(64)]);
  });
});
