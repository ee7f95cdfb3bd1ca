import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createProvider } from "../../src/core/llm/createProvider";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { reasoningOf, type ReasoningSettings } from "../../src/shared/reasoning";
import { GeminiProvider, SKIP_SIGNATURE } from "../../src/core/llm/gemini";
import { registerSecret } from "../../src/core/llm/redact";
import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from "../../src/core/llm/requestWatch";
import type { LlmMessage, LlmRequest, NativeTool, StreamEvent } from "../../src/core/llm/types";
import { FakeGeminiServer, type ListedGeminiModel } from "../fixtures/fakeGeminiServer";
import { translated, useEnglish, usePseudoLocale } from "../unit/pseudoL10n";

const KEY = "gemini-test-key-0123456789";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const MODELS: ListedGeminiModel[] = [
  {
    name: "models/gemini-2.5-pro",
    displayName: "Gemini 2.5 Pro",
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ["generateContent", "countTokens", "createCachedContent"],
  },
  { name: "models/text-embedding-004", displayName: "Text Embedding 004", inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ["embedContent"] },
  { name: "models/gemini-3-pro-preview", displayName: "Gemini 3 Pro Preview", inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, supportedGenerationMethods: ["generateContent"] },
  { name: "models/gemini-2.0-flash", displayName: "Gemini 2.0 Flash", inputTokenLimit: 1_048_576, outputTokenLimit: 8192, supportedGenerationMethods: ["generateContent", "countTokens"] },
  // Odd entries: numbers that are no token counts, no name at all, an id no URL can carry.
  { name: "models/gemini-odd", inputTokenLimit: "lots", outputTokenLimit: -5, supportedGenerationMethods: ["generateContent"] },
  { displayName: "Nameless", supportedGenerationMethods: ["generateContent"] },
  { name: "models/bad id?x=1", supportedGenerationMethods: ["generateContent"] },
];

let server: FakeGeminiServer;

beforeAll(async () => {
  server = await new FakeGeminiServer({ apiKey: KEY, models: MODELS, maxPageSize: 2 }).start();
});
afterEach(() => server.clearQueue());
afterAll(() => server.close());

function gemini(options: { model?: string; apiKey?: string; baseUrl?: string; timeouts?: StreamTimeouts } & ReasoningSettings = {}): GeminiProvider {
  return new GeminiProvider({
    ...reasoningOf(options),
    kind: "gemini",
    apiKey: options.apiKey ?? KEY,
    model: options.model ?? "gemini-2.5-pro",
    baseUrl: options.baseUrl ?? server.baseUrl,
    timeouts: options.timeouts ?? DEFAULT_STREAM_TIMEOUTS,
  });
}

async function collect(provider: GeminiProvider, request: Partial<LlmRequest> = {}): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of provider.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], ...request })) out.push(event);
  return out;
}

/** The events that came before the stream failed, and the failure. */
async function collectUntilFailure(provider: GeminiProvider, request: Partial<LlmRequest> = {}): Promise<{ events: StreamEvent[]; error: ProviderError }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of provider.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], ...request })) events.push(event);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return { events, error: err as ProviderError };
  }
  throw new Error("expected the stream to fail");
}

async function failure(provider: GeminiProvider = gemini()): Promise<ProviderError> {
  return (await collectUntilFailure(provider)).error;
}

function texts(events: StreamEvent[], type: "text" | "reasoning" = "text"): string[] {
  return events.flatMap((e) => (e.type === type ? [e.text] : []));
}

function lastBody(): Record<string, unknown> {
  return server.requests.at(-1)!.body;
}

type SentPart = Record<string, unknown>;
function sentContents(): { role: string; parts: SentPart[] }[] {
  return lastBody().contents as { role: string; parts: SentPart[] }[];
}

const READ_FILE: NativeTool = {
  name: "read_file",
  description: "Read a file",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, ranges: { type: "array", items: { type: "object", properties: { start: { type: "integer" } } } } },
    required: ["path"],
    additionalProperties: false,
  },
};

describe("Gemini provider over real HTTP streaming", () => {
  it("streams thought summaries as reasoning and the answer in pieces, with one usage event", async () => {
    server.enqueue({ thoughts: "Weigh the two options first.", text: "The answer is forty two.", usage: { prompt: 1200, cached: 800, candidates: 7, thoughts: 30 } });
    const events = await collect(gemini());
    expect(texts(events).length).toBeGreaterThan(3);
    expect(texts(events).join("")).toBe("The answer is forty two.");
    expect(texts(events, "reasoning").join("")).toBe("Weigh the two options first.");
    // Gemini's prompt count includes the cached tokens; thinking is billed as output.
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 1200, outputTokens: 37, cacheReadTokens: 800 }]);
    const request = server.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent");
    expect(request.query.get("alt")).toBe("sse");
    expect(request.headers["x-goog-api-key"]).toBe(KEY);
  });

  it("is what the settings make: kind gemini with its key and model, its SDK loaded at the first request", async () => {
    server.enqueue({ text: "From the settings." });
    const fromSettings = createProvider({ kind: "gemini", baseUrl: server.baseUrl, model: "gemini-2.5-pro", apiKey: KEY });
    expect([fromSettings.kind, fromSettings.model]).toEqual(["gemini", "gemini-2.5-pro"]);
    const events: StreamEvent[] = [];
    for await (const event of fromSettings.stream({ system: "sys", messages: [{ role: "user", content: "hello" }] })) events.push(event);
    expect(texts(events).join("")).toBe("From the settings.");
    expect(server.requests.at(-1)!.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent");
    expect((await fromSettings.listModels!()).length).toBeGreaterThan(0);
  });

  it("sends the system instruction, the tools as JSON schema and the reply limit in Gemini's shape", async () => {
    server.enqueue({ text: "ok" });
    await collect(gemini(), {
      system: "You are Kiln.",
      tools: [READ_FILE],
      maxTokens: 4096,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "read a.ts" },
      ],
    });
    const body = lastBody();
    expect(body.systemInstruction).toMatchObject({ parts: [{ text: "You are Kiln." }] });
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: "read_file", description: "Read a file", parametersJsonSchema: READ_FILE.parameters }] }]);
    expect(body.generationConfig).toEqual({ maxOutputTokens: 4096, thinkingConfig: { includeThoughts: true } });
    expect(sentContents()).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "hello" }] },
      { role: "user", parts: [{ text: "read a.ts" }] },
    ]);
  });

  it("asks for thought summaries only from models that think", async () => {
    server.enqueue({ text: "ok" });
    await collect(gemini({ model: "gemini-2.0-flash" }));
    expect(lastBody().generationConfig ?? {}).not.toHaveProperty("thinkingConfig");
    expect(lastBody().systemInstruction).toMatchObject({ parts: [{ text: "sys" }] });
  });

  it("keeps a registered key out of what the model is sent", async () => {
    const secret = "sk-live-gemini-secret-998877";
    registerSecret(secret);
    server.enqueue({ text: "ok" });
    await collect(gemini(), { system: `key ${secret}`, messages: [{ role: "user", content: `my key is ${secret}` }] });
    const sent = JSON.stringify(lastBody());
    expect(sent).not.toContain(secret);
    expect(sent).toContain("my key is [redacted]");
  });

  it("runs a two-step native tool exchange: the call whole, then its result under the call's name with its thought signature", async () => {
    server.enqueue({ text: "Reading it.", functionCalls: [{ name: "read_file", args: { path: "src/a.ts", ranges: [{ start: 1 }] }, thoughtSignature: "c2lnLWFiYw==" }] });
    const provider = gemini({ model: "gemini-3-pro-preview" });
    const first = await collect(provider, { tools: [READ_FILE], messages: [{ role: "user", content: "what is in a.ts?" }] });
    const calls = first.filter((e) => e.type === "tool_call_delta");
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call).toMatchObject({ index: 0, name: "read_file" });
    expect(call.id).toMatch(/^call_/);
    expect(JSON.parse(call.argsDelta)).toEqual({ path: "src/a.ts", ranges: [{ start: 1 }] });

    server.enqueue({ text: "It exports x." });
    const history: LlmMessage[] = [
      { role: "user", content: "what is in a.ts?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading it." },
          { type: "tool_use", id: call.id!, name: "read_file", input: { path: "src/a.ts", ranges: [{ start: 1 }] } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", toolUseId: call.id!, content: "export const x = 1;" }] },
    ];
    const second = await collect(provider, { tools: [READ_FILE], messages: history });
    expect(texts(second).join("")).toBe("It exports x.");
    expect(sentContents()).toEqual([
      { role: "user", parts: [{ text: "what is in a.ts?" }] },
      { role: "model", parts: [{ text: "Reading it." }, { functionCall: { name: "read_file", args: { path: "src/a.ts", ranges: [{ start: 1 }] } }, thoughtSignature: "c2lnLWFiYw==" }] },
      { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "export const x = 1;" } } }] },
    ]);
  });

  it("keeps Gemini's own call ids, gives each call of a reply its own index, and sends a failed result as an error", async () => {
    server.enqueue({
      functionCalls: [
        { id: "fc-7", name: "read_file", args: { path: "a.ts" } },
        { id: "fc-8", name: "list_files", args: {} },
      ],
    });
    const provider = gemini();
    const calls = (await collect(provider, { tools: [READ_FILE] })).filter((e) => e.type === "tool_call_delta");
    expect(calls.map((c) => [c.index, c.id, c.name, c.argsDelta])).toEqual([
      [0, "fc-7", "read_file", '{"path":"a.ts"}'],
      [1, "fc-8", "list_files", "{}"],
    ]);

    server.enqueue({ text: "ok" });
    await collect(provider, {
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "fc-7", name: "read_file", input: { path: "a.ts" } },
            { type: "tool_use", id: "fc-8", name: "list_files", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "fc-8", content: "a.ts" },
            { type: "tool_result", toolUseId: "fc-7", content: "ENOENT: no such file", isError: true },
          ],
        },
      ],
    });
    const [, model, results] = sentContents();
    expect(model!.parts).toEqual([{ functionCall: { id: "fc-7", name: "read_file", args: { path: "a.ts" } } }, { functionCall: { id: "fc-8", name: "list_files", args: {} } }]);
    expect(results!.parts).toEqual([
      { functionResponse: { id: "fc-8", name: "list_files", response: { output: "a.ts" } } },
      { functionResponse: { id: "fc-7", name: "read_file", response: { error: "ENOENT: no such file" } } },
    ]);
  });

  it("sends Gemini 3 a call whose signature Kiln does not have with Google's skip marker, on the first call of a turn only", async () => {
    const history: LlmMessage[] = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "a.ts" } },
          { type: "tool_use", id: "toolu_02", name: "read_file", input: { path: "b.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "toolu_01", content: "A" },
          { type: "tool_result", toolUseId: "toolu_02", content: "B" },
        ],
      },
    ];
    server.enqueue({ text: "ok" });
    await collect(gemini({ model: "gemini-3-pro-preview" }), { messages: history });
    expect(sentContents()[1]!.parts.map((p) => p.thoughtSignature)).toEqual([SKIP_SIGNATURE, undefined]);
    // Other providers' ids are not Gemini's: they stay out of the request.
    expect(sentContents()[2]!.parts).toEqual([{ functionResponse: { name: "read_file", response: { output: "A" } } }, { functionResponse: { name: "read_file", response: { output: "B" } } }]);

    server.enqueue({ text: "ok" });
    await collect(gemini({ model: "gemini-2.5-pro" }), { messages: history });
    expect(sentContents()[1]!.parts.map((p) => p.thoughtSignature)).toEqual([undefined, undefined]);
  });

  it("sends images as inlineData: the user's and those of a tool result", async () => {
    server.enqueue({ text: "A red dot." });
    await collect(gemini(), {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image", mediaType: "image/png", data: PNG },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "shot-1", name: "browser_action", input: { action: "screenshot" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "shot-1", content: "Screenshot taken.", images: [{ mediaType: "image/jpeg", data: PNG }] }] },
      ],
    });
    const [user, , result] = sentContents();
    expect(user!.parts).toEqual([{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data: PNG } }]);
    expect(result!.parts).toEqual([{ functionResponse: { name: "browser_action", response: { output: "Screenshot taken." } } }, { inlineData: { mimeType: "image/jpeg", data: PNG } }]);
  });

  it("ends a reply cut at the reply limit (MAX_TOKENS) normally, with what it wrote", async () => {
    server.enqueue({ text: "This reply is cut", finishReason: "MAX_TOKENS" });
    const events = await collect(gemini(), { maxTokens: 5 });
    expect(texts(events).join("")).toBe("This reply is cut");
  });

  it("lists the models that generate content, page after page, with their limits", async () => {
    const before = server.requests.length;
    const listed = await gemini().listModels();
    expect(listed).toEqual([
      { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", info: { contextWindow: 1_048_576 + 65_536, maxOutputTokens: 65_536 } },
      { id: "gemini-3-pro-preview", name: "Gemini 3 Pro Preview", info: { contextWindow: 1_048_576 + 65_536, maxOutputTokens: 65_536 } },
      { id: "gemini-2.0-flash", name: "Gemini 2.0 Flash", info: { contextWindow: 1_048_576 + 8192, maxOutputTokens: 8192 } },
      { id: "gemini-odd" },
    ]);
    const pages = server.requests.slice(before);
    expect(pages.map((r) => [r.method, r.path, r.query.get("pageToken")])).toEqual([
      ["GET", "/v1beta/models", null],
      ["GET", "/v1beta/models", "2"],
      ["GET", "/v1beta/models", "4"],
      ["GET", "/v1beta/models", "6"],
    ]);
    expect(pages.every((r) => r.headers["x-goog-api-key"] === KEY)).toBe(true);
  });

  it("reports a wrong key on the model list as an auth error", async () => {
    await expect(gemini({ apiKey: "wrong-key-12345678" }).listModels()).rejects.toMatchObject({ kind: "auth", status: 400 });
  });
});

describe("Gemini provider failures", () => {
  it("reports Google's 400 for a wrong key as an auth error", async () => {
    const err = await failure(gemini({ apiKey: "wrong-key-12345678" }));
    expect(err.kind).toBe("auth");
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/rejected the API key.*API key not valid/);
  });

  it.each([
    { fault: { status: 401, message: "Request had invalid authentication credentials." }, kind: "auth" },
    { fault: { status: 400, message: "API key expired. Please renew the API key.", reason: "API_KEY_EXPIRED" }, kind: "auth" },
    { fault: { status: 403, message: "Your API key was reported as leaked. Please use another API key." }, kind: "auth" },
    { fault: { status: 403, message: "The caller does not have permission" }, kind: "no_access" },
    { fault: { status: 503, message: "The model is overloaded. Please try again later." }, kind: "overloaded" },
    { fault: { status: 500, message: "An internal error has occurred." }, kind: "server" },
    { fault: { status: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)." }, kind: "context_too_long" },
    { fault: { status: 400, message: "Function calling is not enabled for models/gemma-3-27b-it" }, kind: "bad_request" },
  ] as const)("reports HTTP $fault.status ($fault.message) as $kind", async ({ fault, kind }) => {
    server.enqueue({ fault: { type: "http", ...fault } });
    const err = await failure();
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(fault.status);
    expect(err.message).toContain(fault.message);
  });

  it("reports a model the API does not know as model_not_found", async () => {
    const err = await failure(gemini({ model: "gemini-nope" }));
    expect(err.kind).toBe("model_not_found");
    expect(err.message).toContain("models/gemini-nope is not found");
  });

  it("reports 429 RESOURCE_EXHAUSTED as a rate limit with Google's retry delay", async () => {
    server.enqueue({ fault: { type: "http", status: 429, message: "You exceeded your current quota.", retryDelay: "7s" } });
    const err = await failure();
    expect(err.kind).toBe("rate_limit");
    expect(err.retryAfterMs).toBe(7000);
    expect(err.message).toMatch(/exceeded your current quota.*wait 7 s/);
  });

  it("reports a reply the safety filters stopped as refused, after the text that came", async () => {
    server.enqueue({ text: "Here is how one would", finishReason: "SAFETY" });
    const { events, error } = await collectUntilFailure(gemini());
    expect(texts(events).join("")).toBe("Here is how one would");
    expect(error.kind).toBe("refused");
    expect(error.message).toContain("SAFETY");
  });

  it.each(["RECITATION", "PROHIBITED_CONTENT"])("reports a reply ended by %s as refused", async (reason) => {
    server.enqueue({ finishReason: reason });
    const err = await failure();
    expect(err.kind).toBe("refused");
    expect(err.message).toContain(reason);
  });

  it("reports a blocked prompt as refused", async () => {
    server.enqueue({ blockReason: "PROHIBITED_CONTENT" });
    const err = await failure();
    expect(err.kind).toBe("refused");
    expect(err.message).toContain("PROHIBITED_CONTENT");
  });

  it("reports a tool call the API could not form as a stream failure, which the loop retries", async () => {
    server.enqueue({ finishReason: "MALFORMED_FUNCTION_CALL" });
    const err = await failure();
    expect(err.kind).toBe("stream");
    expect(err.message).toContain("MALFORMED_FUNCTION_CALL");
  });

  it("reports a connection cut mid-stream after the text that arrived", async () => {
    server.enqueue({ text: "one two three four five six", fault: { type: "cut", afterChunks: 3 } });
    const { events, error } = await collectUntilFailure(gemini());
    expect(texts(events).join("")).toBe("one two three ");
    expect(error.kind).toBe("network");
  });

  it("reports malformed SSE as an unreadable response", async () => {
    server.enqueue({ text: "fine so far", fault: { type: "malformed", afterChunks: 1 } });
    const err = await failure();
    expect(err.kind).toBe("stream");
    expect(err.message).toMatch(/could not read/);
  });

  it.each([
    { what: "parts that are no list", payload: { candidates: [{ content: { parts: "not a list", role: "model" } }] } },
    { what: "a function call without a name", payload: { candidates: [{ content: { parts: [{ functionCall: { args: {} } }], role: "model" }, finishReason: "STOP" }] } },
    { what: "token counts that are no numbers", payload: { candidates: [{ content: { parts: [{ text: "x" }] } }], usageMetadata: { promptTokenCount: "many" } } },
  ])("reports a chunk with $what as an unreadable response", async ({ payload }) => {
    server.enqueue({ text: "fine so far", fault: { type: "odd", afterChunks: 1, payload } });
    const { events, error } = await collectUntilFailure(gemini());
    expect(texts(events).join("")).toBe("fine ");
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/could not read/);
  });

  it("reports a stream that ends without a finishReason as incomplete", async () => {
    server.enqueue({ text: "half a sentence and then", finishReason: null });
    const { events, error } = await collectUntilFailure(gemini());
    expect(texts(events).join("")).toBe("half a sentence and then");
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/before it was complete/);
  });

  it("reports a server that is down as a network error", async () => {
    const down = await new FakeGeminiServer({ apiKey: KEY }).start();
    const baseUrl = down.baseUrl;
    await down.close();
    const err = await failure(gemini({ baseUrl }));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/Could not reach Google Gemini \(ECONNREFUSED\)/);
  });

  it("stops reading when cancelled mid-stream and closes the connection", async () => {
    // Ten seconds of reply: a connection left open would still be streaming when the wait below gives up.
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `).join("");
    server.enqueue({ text: words, chunkDelayMs: 50 });
    const closedBefore = server.closedEarly;
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of gemini().stream({ system: "", messages: [{ role: "user", content: "x" }], signal: controller.signal })) {
        if (event.type === "text") {
          seen.push(event.text);
          controller.abort();
        }
      }
    })();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(seen).toHaveLength(1);
    await vi.waitFor(() => expect(server.closedEarly).toBeGreaterThan(closedBefore), { timeout: 8000 });
  });

  it("gives up on a server that accepts the request and then says nothing (the first-reply timeout)", async () => {
    server.enqueue({ text: "never sent", fault: { type: "stall" } });
    const err = await failure(gemini({ timeouts: { firstReplyMs: 300, idleMs: 300 } }));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/first-reply timeout/);
  });

  it("gives up on a reply that goes silent halfway (the idle timeout)", async () => {
    server.enqueue({ text: "one two three four", fault: { type: "stall", afterChunks: 2 } });
    const { events, error } = await collectUntilFailure(gemini({ timeouts: { firstReplyMs: 5000, idleMs: 300 } }));
    expect(texts(events).join("")).toBe("one two ");
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/idle timeout/);
  });

  it("needs a key", () => {
    expect(() => gemini({ apiKey: "" })).toThrow(/No Google Gemini API key is set.*GEMINI_API_KEY/);
  });

  it("says each failure in the display language, with Google's own words kept", async () => {
    usePseudoLocale();
    try {
      const auth = await failure(gemini({ apiKey: "wrong-key-12345678" }));
      server.enqueue({ fault: { type: "http", status: 429, message: "You exceeded your current quota.", retryDelay: "7s" } });
      const limited = await failure();
      server.enqueue({ text: "Here is", finishReason: "SAFETY" });
      const refused = await failure();
      server.enqueue({ blockReason: "SAFETY" });
      const blocked = await failure();
      server.enqueue({ text: "half a sentence", finishReason: null });
      const early = await failure();
      server.enqueue({ text: "fine so far", fault: { type: "malformed", afterChunks: 1 } });
      const unreadable = await failure();
      server.enqueue({ fault: { type: "stall" } });
      const silent = await failure(gemini({ timeouts: { firstReplyMs: 300, idleMs: 300 } }));
      for (const err of [auth, limited, refused, blocked, early, unreadable, silent]) expect(translated(err.message), err.message).toBe(true);
      expect(auth.message).toContain("API key not valid");
      expect(limited.message).toContain("You exceeded your current quota.");
      expect(() => gemini({ apiKey: "" })).toThrow(/^⟦No .* API key is set/);
    } finally {
      useEnglish();
    }
  });
});

describe("Gemini thinking settings", () => {
  const thinkingConfig = () => (lastBody().generationConfig as { thinkingConfig?: unknown } | undefined)?.thinkingConfig;

  it("gives Gemini 2.5 a token budget and Gemini 3 a thinking level, thoughts shown either way", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" }, { text: "ok" });
    await collect(gemini({ thinkingBudget: 6_000 }));
    expect(thinkingConfig()).toEqual({ includeThoughts: true, thinkingBudget: 6_000 });
    await collect(gemini({ reasoningEffort: "low" }));
    expect(thinkingConfig()).toEqual({ includeThoughts: true, thinkingBudget: 2_048 });
    await collect(gemini({ model: "gemini-3-pro-preview", thinkingBudget: 30_000 }));
    expect(thinkingConfig()).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
    await collect(gemini());
    expect(thinkingConfig()).toEqual({ includeThoughts: true });
  });

  it("sends no thinking config to a model that does not think, whatever the profile says", async () => {
    server.enqueue({ text: "ok" });
    await collect(gemini({ model: "gemini-2.0-flash", reasoningEffort: "high" }));
    expect(thinkingConfig()).toBeUndefined();
  });
});
