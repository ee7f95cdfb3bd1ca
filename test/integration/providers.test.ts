import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { createProvider } from "../../src/core/llm/createProvider";
import type { Provider, ProviderKind, StreamEvent } from "../../src/core/llm/types";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { translated, useEnglish, usePseudoLocale } from "../unit/pseudoL10n";

const KEY = "sk-test-123";
let server: FakeModelServer;

beforeAll(async () => {
  server = await new FakeModelServer({ apiKey: KEY }).start();
});
afterAll(() => server.close());

function provider(kind: ProviderKind, apiKey: string | undefined = KEY): Provider {
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  return createProvider({ kind, baseUrl, model: "fake-model", apiKey });
}

async function collect(p: Provider, signal?: AbortSignal): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], signal })) out.push(event);
  return out;
}

async function failure(p: Provider): Promise<ProviderError> {
  try {
    await collect(p);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return err as ProviderError;
  }
  throw new Error("expected the stream to fail");
}

describe.each(["anthropic", "openai"] as const)("%s provider over real HTTP streaming", (kind) => {
  it("streams text piece by piece, with reasoning and usage", async () => {
    server.enqueue({ text: "The answer is forty two.", reasoning: "think hard", usage: { input: 12, output: 7 } });
    const events = await collect(provider(kind));
    const texts = events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text);
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join("")).toBe("The answer is forty two.");
    expect(
      events
        .filter((e) => e.type === "reasoning")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("think hard");
    expect(events.find((e) => e.type === "usage")).toMatchObject({ inputTokens: 12, outputTokens: 7 });
    const request = server.requests.at(-1)!;
    expect(request.protocol).toBe(kind);
    expect(request.body.stream).toBe(true);
  });

  it("streams native tool calls as deltas that join into the arguments", async () => {
    server.enqueue({ toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "src/a.ts", start_line: 1 } }] });
    const deltas = (await collect(provider(kind))).filter((e) => e.type === "tool_call_delta") as Extract<StreamEvent, { type: "tool_call_delta" }>[];
    expect(deltas[0]).toMatchObject({ id: "call_1", name: "read_file" });
    expect(deltas.length).toBeGreaterThan(2);
    expect(JSON.parse(deltas.map((d) => d.argsDelta).join(""))).toEqual({ path: "src/a.ts", start_line: 1 });
  });

  it("sends the system prompt and the key", async () => {
    server.enqueue({ text: "ok" });
    await collect(provider(kind));
    const request = server.requests.at(-1)!;
    if (kind === "anthropic") {
      // As a block marked for prompt caching.
      expect(request.body.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
      expect(request.headers["x-api-key"] ?? request.headers.authorization).toMatch(new RegExp(`^(Bearer )?${KEY}$`));
    } else {
      expect((request.body.messages as { role: string }[])[0]).toEqual({ role: "system", content: "sys" });
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it("reports a wrong key as an auth error", async () => {
    const err = await failure(provider(kind, "sk-wrong"));
    expect(err.kind).toBe("auth");
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/rejected the API key/);
  });

  it("reports 429 with the Retry-After it was given", async () => {
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "7", message: "slow down" } });
    const err = await failure(provider(kind));
    expect(err.kind).toBe("rate_limit");
    expect(err.retryAfterMs).toBe(7000);
    expect(err.message).toMatch(/slow down.*wait 7 s/);
  });

  it("reports a 500 as a server error", async () => {
    server.enqueue({ fault: { type: "http", status: 500, message: "boom" } });
    const err = await failure(provider(kind));
    expect(err.kind).toBe("server");
    expect(err.message).toContain("boom");
  });

  it("reports a connection cut mid-stream after the text that arrived", async () => {
    server.enqueue({ text: "one two three four five six", fault: { type: "cut", afterChunks: 3 } });
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const e of provider(kind).stream({ system: "", messages: [{ role: "user", content: "x" }] })) if (e.type === "text") seen.push(e.text);
    } catch (err) {
      error = err;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toMatch(/network|stream/);
  });

  it("reports malformed SSE as an unreadable response", async () => {
    server.enqueue({ text: "fine so far", fault: { type: "malformed", afterChunks: 2 } });
    const err = await failure(provider(kind));
    expect(err.kind).toBe("stream");
  });

  it("reports a reply that ends early without its end marker", async () => {
    server.enqueue({ text: "half a sentence and then", fault: { type: "truncate", afterChunks: 3 } });
    const err = await failure(provider(kind));
    expect(err.kind).toBe("stream");
    expect(err.message).toMatch(/before it was complete/);
  });

  it("says each failure in the display language, with the provider's own words kept", async () => {
    usePseudoLocale();
    try {
      const auth = await failure(provider(kind, "sk-wrong"));
      server.enqueue({ fault: { type: "http", status: 429, retryAfter: "7", message: "slow down" } });
      const limited = await failure(provider(kind));
      server.enqueue({ fault: { type: "http", status: 500, message: "boom" } });
      const broken = await failure(provider(kind));
      server.enqueue({ text: "half a sentence and then", fault: { type: "truncate", afterChunks: 3 } });
      const early = await failure(provider(kind));
      for (const err of [auth, limited, broken, early]) expect(translated(err.message), err.message).toBe(true);
      expect(limited.message).toContain("slow down");
      expect(broken.message).toContain("boom");
      expect(() => provider(kind, "")).toThrow(/^⟦No .* API key is set/);
    } finally {
      useEnglish();
    }
  });

  it("stops when cancelled", async () => {
    server.enqueue({ text: "a b c d e f g h i j", chunkDelayMs: 50 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 80);
    await expect(collect(provider(kind), controller.signal)).rejects.toBeInstanceOf(CancelledError);
  });
});

it.each(["anthropic", "openai"] as const)("%s: a server that is down is a network error", async (kind) => {
  const down = await new FakeModelServer().start();
  const baseUrl = kind === "anthropic" ? down.anthropicBaseUrl : down.openaiBaseUrl;
  await down.close();
  const err = await failure(createProvider({ kind, baseUrl, model: "m", apiKey: KEY }));
  expect(err.kind).toBe("network");
  expect(err.message).toMatch(/Could not reach/);
});

describe.each(["anthropic", "openai"] as const)("%s native tool calls through the assembler", (kind) => {
  it("assembles a large streamed call exactly", async () => {
    const { NativeToolCallAssembler } = await import("../../src/core/toolcall/native/NativeToolCallAssembler");
    const content = 'export const x = "</content>";\n'.repeat(2000);
    server.enqueue({ text: "Writing the file.", toolCalls: [{ id: "call_w", name: "write_to_file", arguments: { path: "big.ts", content, line_count: 2000 } }] });
    const assembler = new NativeToolCallAssembler();
    for await (const event of provider(kind).stream({ system: "", messages: [{ role: "user", content: "go" }] })) {
      if (event.type === "tool_call_delta") assembler.add(event);
    }
    expect(assembler.finalize()).toEqual([
      {
        type: "tool_use",
        id: "call_w",
        name: "write_to_file",
        partial: false,
        params: { path: "big.ts", content, line_count: "2000" },
        input: { path: "big.ts", content, line_count: 2000 },
      },
    ]);
  });
});
