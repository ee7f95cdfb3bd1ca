import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGeminiServer } from "../fixtures/fakeGeminiServer";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { buildCli, runCli, xmlTurn } from "./cliProcess";

const OPENROUTER_MODELS = {
  data: [
    {
      id: "anthropic/claude-sonnet-4.5",
      name: "Anthropic: Claude Sonnet 4.5",
      context_length: 1_000_000,
      architecture: { input_modalities: ["text", "image"] },
      pricing: { prompt: "0.000003", completion: "0.000015" },
      top_provider: { context_length: 1_000_000, max_completion_tokens: 64_000 },
      supported_parameters: ["tools"],
    },
    { id: "qwen/qwen3-coder:free", context_length: 262_144, pricing: { prompt: "0", completion: "0" }, supported_parameters: [] },
  ],
};

let cli: string;
let server: FakeModelServer;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer({ routes: { "/v1/models": OPENROUTER_MODELS } }).start();
});
afterAll(() => server.close());

describe("kiln models", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "kiln-models-cache-"));
  const openrouter = () => ["models", "--provider", "openrouter", "--base-url", server.openaiBaseUrl];

  it("lists the provider's models with window and prices, then answers from its cache until --refresh", async () => {
    const env = { OPENROUTER_API_KEY: "sk-or-1", KILN_CACHE_DIR: cacheDir };
    const first = await runCli(cli, [...openrouter(), "--json"], env);
    expect(first.code, first.stderr).toBe(0);
    const listed = JSON.parse(first.stdout) as {
      provider: string;
      source: string;
      models: { id: string; contextWindow: number; inputPrice?: number; outputPrice?: number; supportsNativeTools: boolean }[];
    };
    expect(listed.provider).toBe("openrouter");
    expect(listed.source).toBe("live");
    expect(listed.models).toEqual([
      expect.objectContaining({
        id: "anthropic/claude-sonnet-4.5",
        contextWindow: 1_000_000,
        maxOutputTokens: 64_000,
        inputPrice: 3,
        outputPrice: 15,
        supportsNativeTools: true,
        supportsImages: true,
      }),
      expect.objectContaining({ id: "qwen/qwen3-coder:free", contextWindow: 262_144, inputPrice: 0, outputPrice: 0, supportsNativeTools: false }),
    ]);

    const again = await runCli(cli, [...openrouter(), "--json"], env);
    expect(JSON.parse(again.stdout)).toEqual({ ...listed, source: "cache" });
    const refreshed = await runCli(cli, [...openrouter(), "--json", "--refresh"], env);
    expect(JSON.parse(refreshed.stdout).source).toBe("live");
  });

  it("prints a table a person can read", async () => {
    const result = await runCli(cli, [...openrouter(), "--refresh"], { OPENROUTER_API_KEY: "sk-or-1", KILN_CACHE_DIR: cacheDir });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^MODEL\s+WINDOW\s+MAX OUT\s+IN\/M\s+OUT\/M\s+TOOLS\s+VISION$/);
    expect(lines[1]).toMatch(/^anthropic\/claude-sonnet-4\.5\s+1M\s+64k\s+\$3\.00\s+\$15\.00\s+yes\s+yes$/);
    expect(lines[2]).toMatch(/^qwen\/qwen3-coder:free\s+262k\s+\S+\s+free\s+free\s+no\s+no$/);
    expect(result.stderr).toMatch(/2 models of OpenRouter, listed now/);
  });

  it("fills a list of ids from Kiln's table (Anthropic lists no prices)", async () => {
    const anthropic = await new FakeModelServer({ apiKey: "sk-ant-1", models: ["claude-sonnet-4-5-20250929", "claude-haiku-4-5"] }).start();
    try {
      const result = await runCli(cli, ["models", "--provider", "anthropic", "--base-url", anthropic.anthropicBaseUrl, "--json"], { ANTHROPIC_API_KEY: "sk-ant-1", KILN_CACHE_DIR: cacheDir });
      expect(result.code, result.stderr).toBe(0);
      const rows = (JSON.parse(result.stdout) as { models: unknown[] }).models;
      expect(rows).toEqual([
        expect.objectContaining({ id: "claude-haiku-4-5", inputPrice: 1, outputPrice: 5, contextWindow: 200_000 }),
        expect.objectContaining({ id: "claude-sonnet-4-5-20250929", inputPrice: 3, outputPrice: 15, contextWindow: 200_000 }),
      ]);
    } finally {
      await anthropic.close();
    }
  });

  it("runs a provider whose SDK the bundle loads at its first request (Gemini): the list and a reply", async () => {
    const gemini = await new FakeGeminiServer({
      apiKey: "gm-key-1",
      models: [{ name: "models/gemini-2.5-pro", displayName: "Gemini 2.5 Pro", inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, supportedGenerationMethods: ["generateContent"] }],
    }).start();
    try {
      const env = { GEMINI_API_KEY: "gm-key-1", KILN_CACHE_DIR: cacheDir };
      const listed = await runCli(cli, ["models", "--provider", "gemini", "--base-url", gemini.baseUrl, "--json", "--refresh"], env);
      expect(listed.code, listed.stderr).toBe(0);
      // The window is Google's input plus output limit; the prices are Kiln's table's.
      expect(JSON.parse(listed.stdout).models).toEqual([expect.objectContaining({ id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", contextWindow: 1_114_112, inputPrice: 1.25, outputPrice: 10 })]);
      gemini.enqueue({ text: "Hello from Gemini." });
      const chat = await runCli(cli, ["chat", "--provider", "gemini", "--base-url", gemini.baseUrl, "--model", "gemini-2.5-pro", "Say hello"], env);
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.stdout).toContain("Hello from Gemini.");
    } finally {
      await gemini.close();
    }
  });

  it("says which key is missing, and a provider that refuses the key", async () => {
    const noKey = await runCli(cli, [...openrouter(), "--refresh"], { KILN_CACHE_DIR: cacheDir });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/No OpenRouter API key is set.*OPENROUTER_API_KEY/);
    const strict = await new FakeModelServer({ apiKey: "sk-right", routes: { "/v1/models": OPENROUTER_MODELS } }).start();
    try {
      const refused = await runCli(cli, ["models", "--provider", "openrouter", "--base-url", strict.openaiBaseUrl, "--refresh"], { OPENROUTER_API_KEY: "sk-wrong", KILN_CACHE_DIR: cacheDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/OpenRouter rejected the API key \(HTTP 401/);
      expect(refused.stderr).not.toContain("sk-wrong");
    } finally {
      await strict.close();
    }
  });

  it("refuses a provider Kiln does not know, naming the ones it does", async () => {
    const result = await runCli(cli, ["models", "--provider", "palm"], { KILN_CACHE_DIR: cacheDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--provider must be one of anthropic, openai, .*deepseek/);
  });
});

describe("kiln resume goes on with the task's own provider", () => {
  it("uses the saved provider, URL and model with no flags; a --model flag wins", { timeout: 60_000 }, async () => {
    const workspace = mkdtempSync(join(tmpdir(), "kiln-resume-provider-ws-"));
    const historyDir = mkdtempSync(join(tmpdir(), "kiln-resume-provider-history-"));
    server.clearQueue();
    server.enqueue(xmlTurn("attempt_completion", { result: "First part done." }));
    const env = { KILN_API_KEY: "sk-local" };
    const run = await runCli(
      cli,
      ["run", "--provider", "openai-compatible", "--base-url", server.openaiBaseUrl, "--model", "local-coder", "--workspace", workspace, "--history-dir", historyDir, "--json", "Start the work"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const id = (JSON.parse(run.stdout.split("\n")[0]!) as { id: string }).id;

    // No provider flags: before, this fell back to Anthropic and failed with "No Anthropic API key".
    server.enqueue(xmlTurn("attempt_completion", { result: "Second part done." }));
    const resumed = await runCli(cli, ["resume", id, "--history-dir", historyDir, "Now the second part"], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Second part done.");
    expect(server.requests.at(-1)!.body.model).toBe("local-coder");

    server.enqueue(xmlTurn("attempt_completion", { result: "Third part done." }));
    const switched = await runCli(cli, ["resume", id, "--history-dir", historyDir, "--model", "bigger-coder", "And a third"], env);
    expect(switched.code, switched.stderr).toBe(0);
    expect(server.requests.at(-1)!.body.model).toBe("bigger-coder");
  });
});
