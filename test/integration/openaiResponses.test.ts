import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { createProvider } from "../../src/core/llm/createProvider";
import type { LlmMessage, LlmRequest, Provider, ProviderKind, ProviderSettings, StreamEvent } from "../../src/core/llm/types";
import { NativeToolCallAssembler } from "../../src/core/toolcall/native/NativeToolCallAssembler";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";

/** OpenAI's reasoning models through the Responses API: createProvider, the real SDK, real HTTP. */

const KEY = "sk-responses-test-1";
let server: FakeModelServer;

beforeAll(async () => {
  server = await new FakeModelServer({ apiKey: KEY }).start();
});
afterAll(() => server.close());

function provider(model: string, settings: Partial<ProviderSettings> & { kind?: ProviderKind; apiKey?: string } = {}): Provider {
  return createProvider({ kind: "openai", baseUrl: server.openaiBaseUrl, model, apiKey: KEY, ...settings });
}

async function collect(p: Provider, request: Partial<LlmRequest> = {}): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream({ system: "You are Kiln.", messages: [{ role: "user", content: "hello" }], ...request })) out.push(event);
  return out;
}

async function failure(p: Provider, request: Partial<LlmRequest> = {}): Promise<{ error: ProviderError; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of p.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], ...request })) events.push(event);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return { error: err as ProviderError, events };
  }
  throw new Error("expected the stream to fail");
}

const joined = (events: StreamEvent[], type: "text" | "reasoning") =>
  events
    .filter((e) => e.type === type)
    .map((e) => (e as { text: string }).text)
    .join("");

function lastRequest(): RecordedRequest {
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request was recorded");
  return request;
}

describe("OpenAI reasoning models over the Responses API", () => {
  it("streams the reasoning summary and the text, with usage counting cached input", async () => {
    server.enqueue({
      reasoning: "The user greets me.\n\nA short greeting back is enough.",
      text: "Hello! How can I help with your code today?",
      usage: { input: 1200, output: 80, cacheRead: 1024 },
    });
    const events = await collect(provider("o4-mini"), { maxTokens: 4096 });

    expect(events.filter((e) => e.type === "text").length).toBeGreaterThan(3);
    expect(joined(events, "text")).toBe("Hello! How can I help with your code today?");
    // The summary's two parts stay two paragraphs.
    expect(joined(events, "reasoning")).toBe("The user greets me.\n\nA short greeting back is enough.");
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1024 }]);
    // The reasoning comes before the answer, as the model wrote it.
    expect(events.findIndex((e) => e.type === "reasoning")).toBeLessThan(events.findIndex((e) => e.type === "text"));

    const request = lastRequest();
    expect(request.path).toBe("/v1/responses");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({
      model: "o4-mini",
      instructions: "You are Kiln.",
      input: [{ role: "user", content: "hello" }],
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
      max_output_tokens: 4096,
    });
    expect(request.body).not.toHaveProperty("messages");
    expect(request.body).not.toHaveProperty("tools");
  });

  it("sends the reasoning of a reply that called a tool back with the call and its result", async () => {
    const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
    server.enqueue({
      reasoning: "I should read a.ts first.",
      encryptedReasoning: "gAAAAB-opaque-reasoning-1",
      text: "Reading it.",
      toolCalls: [{ id: "call_read_1", name: "read_file", arguments: { path: "src/a.ts", note: "the whole file, please" } }],
    });
    const first = await collect(provider("gpt-5"), { tools, messages: [{ role: "user", content: "What does a.ts export?" }] });
    expect(lastRequest().body.tools).toEqual([{ type: "function", name: "read_file", description: "Read a file", parameters: tools[0]!.parameters, strict: false }]);

    const deltas = first.filter((e) => e.type === "tool_call_delta");
    expect(deltas[0]).toMatchObject({ id: "call_read_1", name: "read_file", argsDelta: "" });
    // The arguments came in pieces and join into the call the assembler hands the loop.
    expect(deltas.length).toBeGreaterThan(3);
    const assembler = new NativeToolCallAssembler();
    for (const delta of deltas) assembler.add(delta);
    expect(assembler.finalize()).toMatchObject([{ type: "tool_use", id: "call_read_1", name: "read_file", input: { path: "src/a.ts", note: "the whole file, please" } }]);

    server.enqueue({ text: "a.ts exports a." });
    const messages: LlmMessage[] = [
      { role: "user", content: "What does a.ts export?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading it." },
          { type: "tool_use", id: "call_read_1", name: "read_file", input: { path: "src/a.ts", note: "the whole file, please" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", toolUseId: "call_read_1", content: "export const a = 1;" }] },
    ];
    const second = await collect(provider("gpt-5"), { tools, messages });
    expect(joined(second, "text")).toBe("a.ts exports a.");
    expect(lastRequest().body.input).toEqual([
      { role: "user", content: "What does a.ts export?" },
      { type: "reasoning", summary: [{ type: "summary_text", text: "I should read a.ts first." }], encrypted_content: "gAAAAB-opaque-reasoning-1" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading it." }] },
      { type: "function_call", call_id: "call_read_1", name: "read_file", arguments: JSON.stringify({ path: "src/a.ts", note: "the whole file, please" }) },
      { type: "function_call_output", call_id: "call_read_1", output: "export const a = 1;" },
    ]);
  });

  it("sends no reasoning for a call it has none for (a resumed task), nor reasoning that came without its encrypted content", async () => {
    server.enqueue({ reasoning: "Look at b.ts.", encryptedReasoning: null, toolCalls: [{ id: "call_b", name: "read_file", arguments: { path: "b.ts" } }] });
    await collect(provider("o3"));
    server.enqueue({ text: "done" }, { text: "done" });
    for (const id of ["call_b", "call_from_another_process"]) {
      const messages: LlmMessage[] = [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path: "b.ts" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: id, content: "b" }] },
      ];
      await collect(provider("o3"), { messages });
      expect((lastRequest().body.input as { type?: string }[]).map((item) => item.type ?? "message")).toEqual(["message", "function_call", "function_call_output"]);
    }
  });

  it("sends images as input_image data URLs, a tool result's after its output", async () => {
    server.enqueue({ text: "A red square." });
    const png = { mediaType: "image/png" as const, data: "iVBORw0KGgo=" };
    await collect(provider("gpt-5-mini"), {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", ...png },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "call_shot", name: "screenshot", input: {} }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "call_shot", content: "Screenshot taken.", images: [png] }] },
      ],
    });
    expect(lastRequest().body.input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "What is this?" },
          { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
        ],
      },
      { type: "function_call", call_id: "call_shot", name: "screenshot", arguments: "{}" },
      { type: "function_call_output", call_id: "call_shot", output: "Screenshot taken." },
      { role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" }] },
    ]);
  });

  it.each([
    [{ reasoningEffort: "high" }, { summary: "auto", effort: "high" }],
    [{ thinkingBudget: 2_000 }, { summary: "auto", effort: "low" }],
    [{}, { summary: "auto" }],
  ] as const)("a profile with %j sends reasoning %j", async (settings, reasoning) => {
    server.enqueue({ text: "ok" });
    await collect(provider("openai/gpt-5.1-codex", settings));
    expect(lastRequest().path).toBe("/v1/responses");
    expect(lastRequest().body.reasoning).toEqual(reasoning);
  });

  it("keeps the key out of the instructions, as on every other path", async () => {
    server.enqueue({ text: "ok" });
    await collect(provider("o4-mini"), { system: `Never print ${KEY}.` });
    expect(lastRequest().body.instructions).toBe("Never print [redacted].");
  });

  it("ends a reply cut at max_output_tokens normally, with what came", async () => {
    server.enqueue({ text: "The first half of a long", incomplete: true, usage: { input: 50, output: 16 } });
    const events = await collect(provider("o4-mini"), { maxTokens: 16 });
    expect(joined(events, "text")).toBe("The first half of a long");
    expect(events.at(-1)).toMatchObject({ type: "usage", inputTokens: 50, outputTokens: 16 });
  });
});

describe("what stays on Chat Completions", () => {
  it.each([
    ["openai", "gpt-4.1"],
    ["openai", "gpt-5-chat-latest"],
    ["openai-compatible", "o3"],
    ["xai", "gpt-5"],
  ] as const)("%s %s", async (kind, model) => {
    server.enqueue({ text: "from chat completions", reasoning: "thinking" });
    const events = await collect(provider(model, { kind }));
    expect(joined(events, "text")).toBe("from chat completions");
    expect(lastRequest().path).toBe("/v1/chat/completions");
    expect(lastRequest().body).toHaveProperty("messages");
  });
});

describe("Responses API failures", () => {
  it("reports a wrong key as an auth error", async () => {
    const { error } = await failure(provider("o4-mini", { apiKey: "sk-wrong-key" }));
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
  });

  it("reports 429 with the Retry-After it was given", async () => {
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "12", message: "Rate limit reached for o4-mini" } });
    const { error } = await failure(provider("o4-mini"));
    expect(error.kind).toBe("rate_limit");
    expect(error.retryAfterMs).toBe(12_000);
    expect(error.message).toContain("Rate limit reached for o4-mini");
  });

  it("reports a prompt longer than the window as context_too_long", async () => {
    server.enqueue({ fault: { type: "http", status: 400, message: "Your input exceeds the context window of this model." } });
    const { error } = await failure(provider("gpt-5"));
    expect(error.kind).toBe("context_too_long");
  });

  it("reports a stream that stops before response.completed, after the text that came", async () => {
    server.enqueue({ text: "half a sentence and then more", fault: { type: "truncate", afterChunks: 8 } });
    const { error, events } = await failure(provider("o4-mini"));
    expect(joined(events, "text").length).toBeGreaterThan(0);
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/before it was complete.*response\.completed/);
  });

  it("reports a connection cut mid-reply", async () => {
    server.enqueue({ text: "one two three four five six", fault: { type: "cut", afterChunks: 8 } });
    const { error, events } = await failure(provider("o4-mini"));
    expect(events.some((e) => e.type === "text")).toBe(true);
    expect(error.kind).toMatch(/network|stream/);
  });

  it("reports an unreadable event as such", async () => {
    server.enqueue({ text: "fine so far", fault: { type: "malformed", afterChunks: 6 } });
    const { error } = await failure(provider("o4-mini"));
    expect(error.kind).toBe("stream");
  });

  it("stops when cancelled mid-stream", async () => {
    server.enqueue({ text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 20 });
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    const run = (async () => {
      for await (const event of provider("o4-mini").stream({ system: "", messages: [{ role: "user", content: "x" }], signal: controller.signal })) {
        seen.push(event);
        if (event.type === "text") controller.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(joined(seen, "text").length).toBeLessThan("a b c d e f g h i j k l m n o p".length);
  });

  it("reports response.failed with the server's message, as the kind its code stands for", async () => {
    server.enqueue({ text: "Starting", fault: { type: "failed", as: "response.failed", code: "server_error", message: "The model had an internal error. Please retry." } });
    const failed = await failure(provider("o4-mini"));
    expect(failed.error.kind).toBe("server");
    expect(failed.error.message).toContain("The model had an internal error. Please retry.");
    expect(joined(failed.events, "text")).toBe("Starting");

    server.enqueue({ fault: { type: "failed", as: "response.failed", code: "invalid_prompt", message: "Invalid prompt: flagged as potentially violating our usage policy." } });
    const refused = await failure(provider("o4-mini"));
    expect(refused.error.kind).toBe("bad_request");
    expect(refused.error.providerDetail).toBe("Invalid prompt: flagged as potentially violating our usage policy.");
  });

  it("reports an error event with the server's message", async () => {
    server.enqueue({ fault: { type: "failed", as: "error", code: "rate_limit_exceeded", message: "Rate limit reached mid-stream." } });
    const limited = await failure(provider("gpt-5"));
    expect(limited.error.kind).toBe("rate_limit");
    expect(limited.error.message).toContain("Rate limit reached mid-stream.");

    server.enqueue({ text: "partial", fault: { type: "failed", as: "error", code: null, message: "An unexpected error occurred." } });
    const unexpected = await failure(provider("gpt-5"));
    expect(unexpected.error.kind).toBe("stream");
    expect(unexpected.error.message).toContain("An unexpected error occurred.");
  });
});
