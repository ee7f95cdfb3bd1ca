import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProvider, resolveProviderConfig } from "../../src/core/llm/createProvider";
import { ProviderError } from "../../src/core/llm/errors";
import { modelRows } from "../../src/core/llm/modelRows";
import { PROVIDER_ENTRIES, providerEntry, type ProviderKind } from "../../src/shared/providerCatalog";
import type { Provider, StreamEvent } from "../../src/core/llm/types";
import { parseArgs } from "../../src/hosts/cli/args";
import { FakeModelServer } from "../fixtures/fakeModelServer";

const KEY = "sk-compat-777";

/** OpenRouter's GET /api/v1/models, in its published shape: prices are strings of USD per token. */
const OPENROUTER_MODELS = {
  data: [
    {
      id: "anthropic/claude-sonnet-4.5",
      name: "Anthropic: Claude Sonnet 4.5",
      context_length: 1_000_000,
      architecture: { modality: "text+image->text", input_modalities: ["text", "image"], output_modalities: ["text"] },
      pricing: { prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003", input_cache_write: "0.00000375" },
      top_provider: { context_length: 1_000_000, max_completion_tokens: 64_000, is_moderated: false },
      supported_parameters: ["max_tokens", "tools", "tool_choice", "reasoning"],
    },
    {
      id: "qwen/qwen3-coder:free",
      name: "Qwen: Qwen3 Coder (free)",
      context_length: 262_144,
      architecture: { input_modalities: ["text"] },
      pricing: { prompt: "0", completion: "0" },
      top_provider: { context_length: 262_144, max_completion_tokens: null },
      supported_parameters: ["max_tokens"],
    },
    // A router whose price depends on the model it picks: no price, never "free".
    { id: "openrouter/auto", name: "Auto Router", context_length: 2_000_000, pricing: { prompt: "-1", completion: "-1" } },
    // Damaged entries are skipped, the rest kept.
    { name: "no id" },
    { id: "" },
    "not an object",
  ],
};

/** LM Studio's native GET /api/v0/models. */
const LMSTUDIO_MODELS = {
  object: "list",
  data: [
    {
      id: "qwen2.5-coder-14b-instruct",
      object: "model",
      type: "llm",
      publisher: "lmstudio-community",
      state: "loaded",
      max_context_length: 32_768,
      loaded_context_length: 8_192,
      capabilities: ["tool_use"],
    },
    { id: "gemma-3-12b", object: "model", type: "vlm", state: "not-loaded", max_context_length: 131_072 },
    { id: "text-embedding-nomic-embed-text-v1.5", object: "model", type: "embeddings", state: "not-loaded", max_context_length: 2_048 },
  ],
};

let server: FakeModelServer;

beforeAll(async () => {
  server = await new FakeModelServer({
    apiKey: KEY,
    routes: { "/v1/models": OPENROUTER_MODELS, "/api/v0/models": LMSTUDIO_MODELS },
  }).start();
});
afterAll(() => server.close());

async function collect(p: Provider, maxTokens?: number): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], maxTokens })) out.push(event);
  return out;
}

const text = (events: StreamEvent[]) =>
  events
    .filter((e) => e.type === "text")
    .map((e) => (e as { text: string }).text)
    .join("");

const PRESETS = PROVIDER_ENTRIES.filter((e) => e.preset).map((e) => e.kind);

/** The name each vendor's API reads the reply limit under (OpenAI renamed it; most compatible APIs kept the old one). */
const LIMIT_FIELD: Record<string, "max_tokens" | "max_completion_tokens"> = {
  deepseek: "max_tokens",
  mistral: "max_tokens",
  xai: "max_tokens",
  groq: "max_tokens",
  cerebras: "max_completion_tokens",
  fireworks: "max_tokens",
  together: "max_tokens",
  moonshot: "max_tokens",
  qwen: "max_tokens",
  zai: "max_tokens",
};

describe("presets over the OpenAI-compatible path", () => {
  it("covers the vendors the issue names", () => {
    expect(PRESETS).toEqual(["deepseek", "mistral", "xai", "groq", "cerebras", "fireworks", "together", "moonshot", "qwen", "zai"]);
  });

  it.each(PRESETS)("%s: fills in the vendor's endpoint and key variable; needs a key", (kind) => {
    const entry = providerEntry(kind);
    expect(resolveProviderConfig({ kind, baseUrl: "", model: "", apiKey: KEY })).toMatchObject({ baseUrl: entry.defaultBaseUrl, model: entry.defaultModel });
    expect(entry.defaultBaseUrl).toMatch(/^https:\/\/[^/]+\.[a-z]+\//);
    let refused: unknown;
    try {
      createProvider({ kind, baseUrl: "", model: "", apiKey: undefined });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as ProviderError).kind).toBe("no_key");
    expect((refused as ProviderError).message).toContain(entry.keyEnv!);
  });

  it.each(PRESETS)("%s: streams a reply, with the vendor's limit field and a bearer key", async (kind) => {
    server.enqueue({ text: "Hello from the preset.", reasoning: "thinking first" });
    const events = await collect(createProvider({ kind, baseUrl: server.openaiBaseUrl, model: "vendor-model", apiKey: KEY }), 1234);
    expect(text(events)).toBe("Hello from the preset.");
    expect(events.some((e) => e.type === "reasoning")).toBe(true);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe("vendor-model");
    // The limit goes by the name the vendor reads: most kept OpenAI's older max_tokens.
    const field = LIMIT_FIELD[kind]!;
    expect(sent.body[field]).toBe(1234);
    expect(sent.body[field === "max_tokens" ? "max_completion_tokens" : "max_tokens"]).toBeUndefined();
  });

  it("a trailing slash on the base URL does not double the path", async () => {
    server.enqueue({ text: "ok" });
    await collect(createProvider({ kind: "deepseek", baseUrl: `${server.openaiBaseUrl}/`, model: "m", apiKey: KEY }));
    expect(server.requests.at(-1)!.path).toBe("/v1/chat/completions");
  });
});

describe("OpenRouter", () => {
  const openrouter = (model = "anthropic/claude-sonnet-4.5") => createProvider({ kind: "openrouter", baseUrl: server.openaiBaseUrl, model, apiKey: KEY });

  it("defaults to OpenRouter's endpoint", () => {
    expect(resolveProviderConfig({ kind: "openrouter", baseUrl: "", model: "", apiKey: KEY }).baseUrl).toBe("https://openrouter.ai/api/v1");
  });

  it("lists models with window, output limit, prices per million and abilities; skips damaged entries", async () => {
    const listed = await openrouter().listModels!();
    expect(listed.map((m) => m.id)).toEqual(["anthropic/claude-sonnet-4.5", "qwen/qwen3-coder:free", "openrouter/auto"]);
    const rows = modelRows("openrouter", listed);
    const sonnet = rows.find((r) => r.id === "anthropic/claude-sonnet-4.5")!;
    expect(sonnet).toMatchObject({
      name: "Anthropic: Claude Sonnet 4.5",
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.3,
      cacheWritePrice: 3.75,
      supportsImages: true,
      supportsNativeTools: true,
      known: true,
    });
    expect(rows.find((r) => r.id === "qwen/qwen3-coder:free")).toMatchObject({ inputPrice: 0, outputPrice: 0, supportsImages: false, supportsNativeTools: false, contextWindow: 262_144 });
    const auto = rows.find((r) => r.id === "openrouter/auto")!;
    expect(auto.inputPrice).toBeUndefined();
    expect(auto.outputPrice).toBeUndefined();
  });

  it("describes the task's model from its list, so cost and window are OpenRouter's own", async () => {
    expect(await openrouter().describeModel!()).toMatchObject({ contextWindow: 1_000_000, inputPrice: 3, outputPrice: 15, maxOutputTokens: 64_000 });
    expect(await openrouter("vendor/not-listed").describeModel!()).toBeUndefined();
  });
});

describe("LM Studio", () => {
  const lmstudio = (model: string) => createProvider({ kind: "lmstudio", baseUrl: server.anthropicBaseUrl, model, apiKey: KEY });

  it("chats over its OpenAI-compatible routes under /v1", async () => {
    server.enqueue({ text: "local reply" });
    expect(text(await collect(lmstudio("qwen2.5-coder-14b-instruct")))).toBe("local reply");
    expect(server.requests.at(-1)!.path).toBe("/v1/chat/completions");
    expect(resolveProviderConfig({ kind: "lmstudio", baseUrl: "", model: "m", apiKey: undefined }).baseUrl).toBe("http://localhost:1234");
  });

  it("lists from its native API: a loaded model's window is the length it was loaded with; no embedding models", async () => {
    const rows = modelRows("lmstudio", await lmstudio("x").listModels!());
    expect(rows.map((r) => r.id)).toEqual(["gemma-3-12b", "qwen2.5-coder-14b-instruct"]);
    expect(rows[1]).toMatchObject({ contextWindow: 8_192, supportsNativeTools: true, supportsImages: false, inputPrice: 0, outputPrice: 0 });
    expect(rows[0]).toMatchObject({ contextWindow: 131_072, supportsImages: true });
  });

  it("needs a model id, and says so", () => {
    expect(() => createProvider({ kind: "lmstudio", baseUrl: "", model: "", apiKey: undefined })).toThrow(/LM Studio needs a model id/);
  });
});

describe("Azure OpenAI", () => {
  it("sends to the deployment's URL with the API version and the key as api-key", async () => {
    server.enqueue({ text: "from azure" });
    const azure = createProvider({ kind: "azure", baseUrl: server.anthropicBaseUrl, model: "my-gpt-deployment", apiKey: KEY });
    expect(text(await collect(azure, 500))).toBe("from azure");
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/openai/deployments/my-gpt-deployment/chat/completions");
    expect(new URLSearchParams(sent.query).get("api-version")).toBe("2024-10-21");
    expect(sent.headers["api-key"]).toBe(KEY);
    expect(sent.body.max_completion_tokens).toBe(500);
  });

  it("takes another API version from the profile", async () => {
    server.enqueue({ text: "ok" });
    await collect(createProvider({ kind: "azure", baseUrl: server.anthropicBaseUrl, model: "dep", apiKey: KEY, apiVersion: "2025-04-01-preview" }));
    expect(new URLSearchParams(server.requests.at(-1)!.query).get("api-version")).toBe("2025-04-01-preview");
  });

  it.each([
    [{ baseUrl: "", model: "dep" }, /endpoint as the base URL/],
    [{ baseUrl: "https://x.openai.azure.com", model: "" }, /deployment's name as the model/],
  ])("says what is missing: %j", (settings, message) => {
    expect(() => createProvider({ kind: "azure", ...settings, apiKey: KEY })).toThrow(message);
  });
});

describe("every kind in the catalog", () => {
  it.each(PROVIDER_ENTRIES.map((e) => [e.kind, e] as const))("%s has a label, a family and a way to find its key or endpoint", (kind: ProviderKind, entry) => {
    expect(entry.label.length).toBeGreaterThan(1);
    expect(entry.needsKey ? entry.keyEnv : true).toBeTruthy();
    if (entry.defaultBaseUrl) expect(() => new URL(entry.defaultBaseUrl!)).not.toThrow();
    expect(kind).toBe(entry.kind);
  });
});

describe("the CLI's flags for a provider's own settings", () => {
  it("reach the provider's settings, each under its name", () => {
    const args = parseArgs(
      ["run", "--provider", "vertex", "--project", "my-proj", "--region", "europe-west1", "--key-file", "/keys/sa.json", "--aws-profile", "work", "--api-version", "2025-01-01", "go"],
      {},
      "/tmp",
    );
    expect(args.settings).toMatchObject({ kind: "vertex", project: "my-proj", region: "europe-west1", keyFile: "/keys/sa.json", awsProfile: "work", apiVersion: "2025-01-01" });
    expect(() => parseArgs(["run", "--region"], {}, "/tmp")).toThrow("--region needs a value");
  });
});
