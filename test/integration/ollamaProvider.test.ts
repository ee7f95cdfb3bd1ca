import type { ReasoningSettings } from "../../src/shared/reasoning";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { ollamaContextLength, OllamaProvider, type OllamaOptions } from "../../src/core/llm/ollama";
import { registerSecret } from "../../src/core/llm/redact";
import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from "../../src/core/llm/requestWatch";
import type { LlmRequest, StreamEvent } from "../../src/core/llm/types";
import { FakeOllamaServer } from "../fixtures/fakeOllamaServer";
import { inPseudoLocale, translated } from "../unit/pseudoL10n";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

let server: FakeOllamaServer;

beforeAll(async () => {
  server = await new FakeOllamaServer({
    models: [
      { name: "qwen3:8b", architecture: "qwen3", contextLength: 40_960, capabilities: ["completion", "tools", "thinking"] },
      { name: "llama3.1:8b-32k", architecture: "llama", contextLength: 131_072, numCtx: 32_768, capabilities: ["completion", "tools"] },
      { name: "gemma3:4b", architecture: "gemma3", contextLength: 131_072, capabilities: ["completion", "vision"] },
      { name: "old:latest", architecture: "llama" },
      { name: "gpt-oss:20b", architecture: "gptoss", contextLength: 131_072, capabilities: ["completion", "tools", "thinking"] },
    ],
    extraTags: [{ name: 42 }, {}, null, "gemma3:4b", { name: "qwen3:8b" }, { name: "bad\u0000name" }],
  }).start();
});
afterAll(() => server.close());
afterEach(() => server.clearQueue());

function ollama(
  model = "qwen3:8b",
  timeouts: StreamTimeouts = DEFAULT_STREAM_TIMEOUTS,
  options?: OllamaOptions,
  baseUrl = server.baseUrl,
  apiKey?: string,
  reasoning: ReasoningSettings = {},
): OllamaProvider {
  return new OllamaProvider({ kind: "ollama", model, baseUrl, apiKey, timeouts, ...reasoning }, options);
}

const hello: LlmRequest = { system: "You are Kiln.", messages: [{ role: "user", content: "hello" }] };

async function collect(p: OllamaProvider, request: LlmRequest = hello): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream(request)) out.push(event);
  return out;
}

async function failure(p: OllamaProvider, request: LlmRequest = hello): Promise<ProviderError> {
  try {
    await collect(p, request);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return err as ProviderError;
  }
  throw new Error("expected the stream to fail");
}

function texts(events: StreamEvent[], type: "text" | "reasoning"): string[] {
  return events.flatMap((e) => (e.type === type ? [e.text] : []));
}

function lastChat(): Record<string, unknown> {
  return server.to("/api/chat").at(-1)!.body;
}

describe("Ollama's native chat", () => {
  it("streams text piece by piece, with the thinking as reasoning and the usage", async () => {
    server.enqueue({ thinking: "the user greets me", text: "Hello there, how can I help?", usage: { input: 812, output: 9, cached: 800 } });
    const events = await collect(ollama());
    expect(texts(events, "text").length).toBeGreaterThan(3);
    expect(texts(events, "text").join("")).toBe("Hello there, how can I help?");
    expect(texts(events, "reasoning").join("")).toBe("the user greets me");
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 812, outputTokens: 9, cacheReadTokens: 800 }]);
    const body = lastChat();
    expect(body).toMatchObject({ model: "qwen3:8b", stream: true, think: true });
    expect(body.messages).toEqual([
      { role: "system", content: "You are Kiln." },
      { role: "user", content: "hello" },
    ]);
    expect(body).not.toHaveProperty("tools");
  });

  it("asks for the model's whole trained window as num_ctx, not the server's small default", async () => {
    server.enqueue({ text: "ok" });
    await collect(ollama("qwen3:8b"));
    expect(server.to("/api/show").at(-1)!.body).toEqual({ model: "qwen3:8b" });
    expect((lastChat().options as Record<string, unknown>).num_ctx).toBe(40_960);
  });

  it("uses the num_ctx that the modelfile sets over the trained window, and a cap over both", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" });
    await collect(ollama("llama3.1:8b-32k"));
    expect((lastChat().options as Record<string, unknown>).num_ctx).toBe(32_768);
    await collect(ollama("llama3.1:8b-32k", DEFAULT_STREAM_TIMEOUTS, { maxContextTokens: 16_384 }));
    expect((lastChat().options as Record<string, unknown>).num_ctx).toBe(16_384);
    expect(ollamaContextLength({ contextLength: 131_072 }, 65_536)).toBe(65_536);
    expect(ollamaContextLength({ contextLength: 8192 }, 65_536)).toBe(8192);
  });

  it("leaves num_ctx to the server when it does not say the model's window, and sends the reply limit as num_predict", async () => {
    server.enqueue({ text: "ok" });
    await collect(ollama("old:latest"), { ...hello, maxTokens: 2048 });
    expect(lastChat().options).toEqual({ num_predict: 2048 });
    expect(lastChat()).not.toHaveProperty("think");
  });

  it("asks /api/show once per provider, not before every request", async () => {
    const p = ollama("gemma3:4b");
    const before = server.to("/api/show").length;
    server.enqueue({ text: "one" }, { text: "two" });
    await collect(p);
    await collect(p);
    expect(await p.describeModel()).toMatchObject({ contextWindow: 131_072 });
    expect(server.to("/api/show").length - before).toBe(1);
  });

  it("reads lines cut anywhere across reads, characters included", async () => {
    const text = "Grüße aus Köln — 日本語のテキスト 🎉 and more words to fill several lines.";
    server.enqueue({ thinking: "ein Gedanke 🤔", text, writeBytes: 7 });
    const events = await collect(ollama());
    expect(texts(events, "text").join("")).toBe(text);
    expect(texts(events, "reasoning").join("")).toBe("ein Gedanke 🤔");
    expect(events.at(-1)).toMatchObject({ type: "usage", inputTokens: 10, outputTokens: 5 });
  });

  it("keeps the API keys it knows out of what it sends, and sends its own key as a bearer token", async () => {
    registerSecret("sk-ollama-secret-999");
    server.enqueue({ text: "ok" });
    await collect(ollama("qwen3:8b", DEFAULT_STREAM_TIMEOUTS, {}, server.baseUrl, "sk-ollama-secret-999"), {
      system: "key sk-ollama-secret-999 here",
      messages: [{ role: "user", content: "my key is sk-ollama-secret-999" }],
    });
    const sent = server.to("/api/chat").at(-1)!;
    expect(JSON.stringify(sent.body)).not.toContain("sk-ollama-secret-999");
    expect(sent.headers.authorization).toBe("Bearer sk-ollama-secret-999");
    expect(server.to("/api/show").at(-1)!.headers.authorization).toBe("Bearer sk-ollama-secret-999");
  });
});

describe("Ollama thinking settings", () => {
  it("gives gpt-oss the profile's effort, other thinking models thinking on, and models that do not think nothing", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" });
    await collect(ollama("gpt-oss:20b", DEFAULT_STREAM_TIMEOUTS, undefined, server.baseUrl, undefined, { reasoningEffort: "high" }));
    expect(lastChat().think).toBe("high");
    await collect(ollama("qwen3:8b", DEFAULT_STREAM_TIMEOUTS, undefined, server.baseUrl, undefined, { thinkingBudget: 2_000 }));
    expect(lastChat().think).toBe(true);
    await collect(ollama("llama3.1:8b-32k", DEFAULT_STREAM_TIMEOUTS, undefined, server.baseUrl, undefined, { reasoningEffort: "high" }));
    expect(lastChat()).not.toHaveProperty("think");
  });
});

describe("native tool calls with Ollama", () => {
  const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];

  it("streams each whole call as one delta and sends the call and its result back in Ollama's shape", async () => {
    server.enqueue({ text: "Let me look.", toolCalls: [{ name: "read_file", arguments: { path: "src/a.ts", start_line: 1 } }] }, { text: "It exports x." });
    const p = ollama();
    const first = await collect(p, { ...hello, tools, messages: [{ role: "user", content: "what is in src/a.ts?" }] });
    const deltas = first.filter((e) => e.type === "tool_call_delta");
    expect(deltas).toEqual([{ type: "tool_call_delta", index: 0, id: "call_0", name: "read_file", argsDelta: expect.any(String) }]);
    expect(JSON.parse(deltas[0]!.argsDelta)).toEqual({ path: "src/a.ts", start_line: 1 });
    expect(lastChat().tools).toEqual([{ type: "function", function: tools[0] }]);

    const second = await collect(p, {
      ...hello,
      tools,
      messages: [
        { role: "user", content: "what is in src/a.ts?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me look." },
            { type: "tool_use", id: "call_0", name: "read_file", input: { path: "src/a.ts", start_line: 1 } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "call_0", content: "export const x = 1;" },
            { type: "text", text: "Go on." },
          ],
        },
      ],
    });
    expect(texts(second, "text").join("")).toBe("It exports x.");
    expect(lastChat().messages).toEqual([
      { role: "system", content: "You are Kiln." },
      { role: "user", content: "what is in src/a.ts?" },
      { role: "assistant", content: "Let me look.", tool_calls: [{ function: { name: "read_file", arguments: { path: "src/a.ts", start_line: 1 } } }] },
      { role: "tool", content: "export const x = 1;", tool_name: "read_file" },
      { role: "user", content: "Go on." },
    ]);
  });

  it("gives several calls in one reply their own index, keeping an id the server gave", async () => {
    server.enqueue({
      toolCalls: [
        { name: "read_file", arguments: { path: "a.ts" }, id: "call_srv1" },
        { name: "read_file", arguments: { path: "b.ts" } },
      ],
    });
    const deltas = (await collect(ollama(), { ...hello, tools })).filter((e) => e.type === "tool_call_delta");
    expect(deltas.map((d) => [d.index, d.id, d.name, JSON.parse(d.argsDelta)])).toEqual([
      [0, "call_srv1", "read_file", { path: "a.ts" }],
      [1, "call_1", "read_file", { path: "b.ts" }],
    ]);
  });
});

describe("images for Ollama", () => {
  it("sends the user's images and a tool result's images as base64 in `images`", async () => {
    server.enqueue({ text: "A red dot." }, { text: "Same dot." });
    const p = ollama("gemma3:4b");
    await collect(p, {
      ...hello,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", mediaType: "image/png", data: PNG },
          ],
        },
      ],
    });
    expect((lastChat().messages as unknown[])[1]).toEqual({ role: "user", content: "What is this?", images: [PNG] });

    await collect(p, {
      ...hello,
      messages: [
        { role: "user", content: "Take a screenshot." },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "browser_action", input: { action: "screenshot" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: "Screenshot taken.", images: [{ mediaType: "image/png", data: PNG }] }] },
      ],
    });
    expect((lastChat().messages as unknown[]).slice(3)).toEqual([
      { role: "tool", content: "Screenshot taken.", tool_name: "browser_action" },
      { role: "user", content: "", images: [PNG] },
    ]);
  });
});

describe("what Ollama says about its models", () => {
  it("tells tools and images from the model's capabilities, with the window Kiln will ask for", async () => {
    expect(await ollama("qwen3:8b").describeModel()).toEqual({ contextWindow: 40_960, maxOutputTokens: 8192, inputPrice: 0, outputPrice: 0, supportsNativeTools: true, supportsImages: false });
    expect(await ollama("gemma3:4b").describeModel()).toMatchObject({ supportsNativeTools: false, supportsImages: true });
    expect(await ollama("llama3.1:8b-32k", DEFAULT_STREAM_TIMEOUTS, { maxContextTokens: 8192 }).describeModel()).toMatchObject({ contextWindow: 8192, maxOutputTokens: 2048 });
    // A server too old to list capabilities says nothing about them, nor about the window here.
    expect(await ollama("old:latest").describeModel()).toEqual({ inputPrice: 0, outputPrice: 0 });
  });

  it("reports an unknown model as model_not_found", async () => {
    await expect(ollama("nope:1b").describeModel()).rejects.toMatchObject({ kind: "model_not_found", status: 404 });
  });

  it("lists the pulled models, skipping entries it cannot read", async () => {
    const listed = await ollama().listModels();
    expect(listed.map((m) => m.id)).toEqual(["qwen3:8b", "llama3.1:8b-32k", "gemma3:4b", "old:latest", "gpt-oss:20b"]);
    expect(listed[0]!.info).toEqual({ inputPrice: 0, outputPrice: 0 });
  });
});

describe("Ollama failures", () => {
  it("reports a model that is not pulled as model_not_found", async () => {
    const err = await failure(ollama("nope:1b"));
    expect(err.kind).toBe("model_not_found");
    expect(err.status).toBe(404);
    expect(err.message).toContain("nope:1b");
    expect(server.to("/api/chat").some((r) => r.body.model === "nope:1b")).toBe(false);
  });

  it("reports a 500 as a server error in Ollama's own words", async () => {
    server.enqueue({ fault: { type: "http", status: 500, message: "model requires more system memory (20.0 GiB) than is available (8.0 GiB)" } });
    const err = await failure(ollama());
    expect(err.kind).toBe("server");
    expect(err.message).toContain("more system memory");
  });

  it("reports a 429 with its Retry-After", async () => {
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "3", message: "too many requests" } });
    const err = await failure(ollama());
    expect(err.kind).toBe("rate_limit");
    expect(err.retryAfterMs).toBe(3000);
  });

  it("reports a wrong key as an auth error", async () => {
    const guarded = await new FakeOllamaServer({ models: [{ name: "m", architecture: "llama", contextLength: 8192 }], apiKey: "sk-right-key-1" }).start();
    try {
      const err = await failure(ollama("m", DEFAULT_STREAM_TIMEOUTS, {}, guarded.baseUrl, "sk-wrong-key-1"));
      expect(err.kind).toBe("auth");
      guarded.enqueue({ text: "ok" });
      expect(texts(await collect(ollama("m", DEFAULT_STREAM_TIMEOUTS, {}, guarded.baseUrl, "sk-right-key-1")), "text")).toEqual(["ok"]);
    } finally {
      await guarded.close();
    }
  });

  it("reports a connection cut mid-reply after the text that arrived", async () => {
    server.enqueue({ text: "one two three four five six", fault: { type: "cut", afterLines: 3 } });
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const e of ollama().stream(hello)) if (e.type === "text") seen.push(e.text);
    } catch (err) {
      error = err;
    }
    expect(seen.join("")).toBe("one two three ");
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toMatch(/network|stream/);
  });

  it("reports a line that is not JSON as an unreadable response", async () => {
    server.enqueue({ text: "fine so far", fault: { type: "malformed", afterLines: 2 } });
    const err = await failure(ollama());
    expect(err.kind).toBe("stream");
    expect(err.message).toMatch(/could not read/);
  });

  it("reports an error line mid-stream with Ollama's words", async () => {
    server.enqueue({ text: "one two three", fault: { type: "errorLine", afterLines: 2, message: "an error was encountered while running the model: CUDA error" } });
    const err = await failure(ollama());
    expect(err.kind).toBe("stream");
    expect(err.message).toContain("CUDA error");
  });

  it("reports a reply that ends without done: true", async () => {
    server.enqueue({ text: "half a sentence and then", fault: { type: "truncate", afterLines: 3 } });
    const err = await failure(ollama());
    expect(err.kind).toBe("stream");
    expect(err.message).toMatch(/before it was complete/);
  });

  it("reports a server that is down as a network error", async () => {
    const down = await new FakeOllamaServer({ models: [] }).start();
    const baseUrl = down.baseUrl;
    await down.close();
    const err = await failure(ollama("m", DEFAULT_STREAM_TIMEOUTS, {}, baseUrl));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/Could not reach Ollama at .*ECONNREFUSED/);
  });

  it("stops when cancelled mid-reply, though the server goes silent", async () => {
    server.enqueue({ text: "a b c d e f", fault: { type: "stall", afterLines: 2 } });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const e of ollama().stream({ ...hello, signal: controller.signal })) {
        if (e.type === "text") seen.push(e.text);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(seen).toEqual(["a ", "b "]);
  });

  it("gives up on a server that never answers (the first-reply timeout)", async () => {
    server.enqueue({ fault: { type: "stall" } });
    const err = await failure(ollama("qwen3:8b", { firstReplyMs: 300, idleMs: 60_000 }));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/first-reply timeout/);
  });

  it("gives up on a reply that goes silent (the idle timeout)", async () => {
    server.enqueue({ text: "a b c d", fault: { type: "stall", afterLines: 2 } });
    const err = await failure(ollama("qwen3:8b", { firstReplyMs: 60_000, idleMs: 300 }));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/idle timeout/);
  });
});

describe("Ollama's messages in the display language", () => {
  inPseudoLocale();

  it("says each failure through l10n, keeping Ollama's own words", async () => {
    const missing = await failure(ollama("nope:1b"));
    server.enqueue({ fault: { type: "http", status: 500, message: "boom" } });
    const broken = await failure(ollama());
    server.enqueue({ text: "one two three", fault: { type: "errorLine", afterLines: 1, message: "runner died" } });
    const midStream = await failure(ollama());
    server.enqueue({ text: "half a sentence", fault: { type: "truncate", afterLines: 1 } });
    const early = await failure(ollama());
    server.enqueue({ fault: { type: "stall" } });
    const silent = await failure(ollama("qwen3:8b", { firstReplyMs: 200, idleMs: 60_000 }));
    const down = await new FakeOllamaServer({ models: [] }).start();
    const downUrl = down.baseUrl;
    await down.close();
    const unreachable = await failure(ollama("m", DEFAULT_STREAM_TIMEOUTS, {}, downUrl));
    for (const err of [missing, broken, midStream, early, silent, unreachable]) expect(translated(err.message), err.message).toBe(true);
    expect(broken.message).toContain("boom");
    expect(midStream.message).toContain("runner died");
    // The provider's name is a message of its own, so its words are translated too.
    expect(early.message).toContain(`⟦Ollama at ${server.baseUrl}⟧`);
  });
});
