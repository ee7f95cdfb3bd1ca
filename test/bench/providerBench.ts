/**
 * Issue 18's numbers: the time to the first streamed token that Kiln's provider adds over the raw
 * SDK (or, for Ollama, raw fetch) stream against the same local server, per provider (OpenAI and a
 * preset, its reasoning models' Responses API, Anthropic, Ollama, Gemini, Bedrock; Vertex streams through the Anthropic and Gemini code) (target: under
 * 5 ms), and the model picker's search over an OpenRouter-sized list of 500 models (target: under
 * 50 ms with rendering; this measures the search and row building in Node). Medians of many runs,
 * interleaved so both sides see the same machine. Prints numbers; asserts nothing.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { performance } from "node:perf_hooks";
import { createProvider } from "../../src/core/llm/createProvider";
import { modelRows } from "../../src/core/llm/modelRows";
import type { Provider } from "../../src/core/llm/types";
import { filterModels } from "../../src/shared/modelList";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { FakeOllamaServer } from "../fixtures/fakeOllamaServer";
import { FakeGeminiServer } from "../fixtures/fakeGeminiServer";
import { FakeBedrockServer } from "../fixtures/fakeBedrockServer";

const RUNS = 40;
const KEY = "sk-bench";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function firstToken(start: () => AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>, isToken: (event: unknown) => boolean): Promise<number> {
  const started = performance.now();
  let at = NaN;
  for await (const event of await start()) {
    if (Number.isNaN(at) && isToken(event)) at = performance.now() - started;
  }
  return at;
}

interface Pair {
  name: string;
  kiln: () => Promise<number>;
  raw: () => Promise<number>;
}

async function compare(pair: Pair): Promise<void> {
  const kiln: number[] = [];
  const raw: number[] = [];
  // Warm both (connections, JIT), then interleave.
  await pair.kiln();
  await pair.raw();
  for (let i = 0; i < RUNS; i++) {
    kiln.push(await pair.kiln());
    raw.push(await pair.raw());
  }
  const k = median(kiln);
  const r = median(raw);
  console.log(`  ${pair.name.padEnd(10)} first token: Kiln ${k.toFixed(2)} ms, raw ${r.toFixed(2)} ms, added ${(k - r).toFixed(2)} ms (median of ${RUNS})`);
}

const request = { system: "sys", messages: [{ role: "user" as const, content: "hi" }] };
const kilnToken = (p: Provider) => () =>
  firstToken(
    () => p.stream(request),
    (e) => (e as { type: string }).type === "text",
  );

/** Gemini and Bedrock, whose SDKs Kiln loads on the first request (lazyProvider.ts): measured once warm, as in a task. */
async function compareLazyProviders(): Promise<void> {
  const TEXT = "one two three four five";
  const gemini = await new FakeGeminiServer({ apiKey: KEY }).start();
  const bedrock = await new FakeBedrockServer({ bearerTokens: [KEY] }).start();
  try {
    const { GoogleGenAI } = await import("@google/genai");
    const geminiRaw = new GoogleGenAI({ vertexai: false, apiKey: KEY, apiVersion: "v1beta", httpOptions: { baseUrl: gemini.baseUrl } });
    const geminiKiln = createProvider({ kind: "gemini", baseUrl: gemini.baseUrl, model: "gemini-2.5-flash", apiKey: KEY });
    await compare({
      name: "gemini",
      kiln: () => {
        gemini.enqueue({ text: TEXT });
        return kilnToken(geminiKiln)();
      },
      raw: () => {
        gemini.enqueue({ text: TEXT });
        return firstToken(
          () => geminiRaw.models.generateContentStream({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
          (e) => Boolean((e as { text?: string }).text),
        );
      },
    });
    // As the CLI does: the SDK's Node 22 notice would only clutter the numbers.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    const { BedrockRuntimeClient, ConverseStreamCommand } = await import("@aws-sdk/client-bedrock-runtime");
    const bedrockRaw = new BedrockRuntimeClient({ region: "us-east-1", endpoint: bedrock.endpoint, maxAttempts: 1, token: { token: KEY }, authSchemePreference: ["httpBearerAuth"] });
    const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const bedrockKiln = createProvider({ kind: "bedrock", baseUrl: bedrock.endpoint, model, apiKey: KEY, region: "us-east-1" });
    await compare({
      name: "bedrock",
      kiln: () => {
        bedrock.enqueue({ text: TEXT });
        return kilnToken(bedrockKiln)();
      },
      raw: () => {
        bedrock.enqueue({ text: TEXT });
        return firstToken(
          async () => (await bedrockRaw.send(new ConverseStreamCommand({ modelId: model, messages: [{ role: "user", content: [{ text: "hi" }] }] }))).stream!,
          (e) => Boolean((e as { contentBlockDelta?: { delta?: { text?: string } } }).contentBlockDelta?.delta?.text),
        );
      },
    });
  } finally {
    await gemini.close();
    await bedrock.close();
  }
}

export async function runProviderBench(): Promise<void> {
  console.log("\nProviders: time to first streamed token added by Kiln over the raw client (target < 5 ms)");
  const server = await new FakeModelServer({ apiKey: KEY, fallback: () => ({ text: "one two three four five" }) }).start();
  const ollama = await new FakeOllamaServer({ models: [{ name: "bench", architecture: "llama", contextLength: 8192, capabilities: ["completion", "tools"] }] }).start();
  try {
    const openaiRaw = new OpenAI({ apiKey: KEY, baseURL: server.openaiBaseUrl, maxRetries: 0 });
    // The OpenAI client as a user of the SDK would call it: the baseline for OpenAI and every preset.
    const openaiRawFirst = () =>
      firstToken(
        () =>
          openaiRaw.chat.completions.create({
            model: "m",
            stream: true,
            messages: [
              { role: "system", content: "sys" },
              { role: "user", content: "hi" },
            ],
          }) as unknown as AsyncIterable<unknown>,
        (e) => Boolean((e as OpenAI.Chat.Completions.ChatCompletionChunk).choices[0]?.delta?.content),
      );
    const anthropicRaw = new Anthropic({ apiKey: KEY, baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    await compare({
      name: "openai",
      kiln: kilnToken(createProvider({ kind: "openai", baseUrl: server.openaiBaseUrl, model: "m", apiKey: KEY })),
      raw: openaiRawFirst,
    });
    // OpenAI's reasoning models stream through the Responses API (openaiResponses.ts).
    await compare({
      name: "responses",
      kiln: kilnToken(createProvider({ kind: "openai", baseUrl: server.openaiBaseUrl, model: "o4-mini", apiKey: KEY })),
      raw: () =>
        firstToken(
          () => openaiRaw.responses.create({ model: "o4-mini", stream: true, instructions: "sys", input: "hi", store: false }) as unknown as AsyncIterable<unknown>,
          (e) => (e as { type: string }).type === "response.output_text.delta",
        ),
    });
    await compare({
      name: "anthropic",
      kiln: kilnToken(createProvider({ kind: "anthropic", baseUrl: server.anthropicBaseUrl, model: "m", apiKey: KEY })),
      raw: () =>
        firstToken(
          () => anthropicRaw.messages.create({ model: "m", max_tokens: 100, stream: true, system: "sys", messages: [{ role: "user", content: "hi" }] }) as unknown as AsyncIterable<unknown>,
          (e) => (e as { type: string }).type === "content_block_delta",
        ),
    });
    await compare({
      name: "deepseek",
      kiln: kilnToken(createProvider({ kind: "deepseek", baseUrl: server.openaiBaseUrl, model: "m", apiKey: KEY })),
      raw: openaiRawFirst,
    });
    // Kiln's Ollama provider asks /api/show once per provider, as a task does; the raw side is one fetch of /api/chat.
    const ollamaProvider = createProvider({ kind: "ollama", baseUrl: ollama.baseUrl, model: "bench", apiKey: undefined });
    await compare({
      name: "ollama",
      kiln: () => {
        ollama.enqueue({ text: "one two three four five" });
        return kilnToken(ollamaProvider)();
      },
      raw: async () => {
        ollama.enqueue({ text: "one two three four five" });
        return firstToken(
          async function* () {
            const res = await fetch(`${ollama.baseUrl}/api/chat`, { method: "POST", body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hi" }] }) });
            const decoder = new TextDecoder();
            for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) yield decoder.decode(part, { stream: true });
          },
          (chunk) => String(chunk).includes('"content":"one'),
        );
      },
    });
  } finally {
    await server.close();
    await ollama.close();
  }
  await compareLazyProviders();

  console.log("\nModel picker: an OpenRouter list of 500 models (target < 50 ms to show and search)");
  const listed = Array.from({ length: 500 }, (_, i) => ({ id: `vendor-${i % 25}/model-${i}`, name: `Vendor ${i % 25}: Model ${i}`, info: { contextWindow: 131_072, inputPrice: 1, outputPrice: 4 } }));
  const rowsMs: number[] = [];
  const searchMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = performance.now();
    const rows = modelRows("openrouter", listed).map((r) => ({
      id: r.id,
      name: r.name,
      contextWindow: r.contextWindow,
      inputPrice: r.inputPrice,
      outputPrice: r.outputPrice,
      tools: r.supportsNativeTools,
      vision: r.supportsImages,
    }));
    const b = performance.now();
    for (const query of ["v", "ve", "ven", "vendor 1", "vendor 12 model", "model-49"]) filterModels(rows, query);
    searchMs.push((performance.now() - b) / 6);
    rowsMs.push(b - a);
  }
  console.log(`  rows from the list: ${median(rowsMs).toFixed(2)} ms; one search keystroke: ${median(searchMs).toFixed(3)} ms (median of ${RUNS}; drawing is capped at 100 rows)`);
}
