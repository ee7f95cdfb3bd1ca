import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProvider } from "../../src/core/llm/createProvider";
import type { LlmMessage, LlmRequest, Provider, ProviderKind, ProviderSettings, StreamEvent } from "../../src/core/llm/types";
import { FakeModelServer } from "../fixtures/fakeModelServer";

/** A profile's reasoning setting, through createProvider and the real SDKs, as each server's own request fields. */

const KEY = "sk-reasoning-1";
let server: FakeModelServer;

beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function provider(kind: ProviderKind, settings: Partial<ProviderSettings> = {}): Provider {
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  return createProvider({ kind, baseUrl, model: "fake-model", apiKey: KEY, ...settings });
}

async function collect(p: Provider, request: Partial<LlmRequest> = {}): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], ...request })) out.push(event);
  return out;
}

function lastBody(): Record<string, unknown> {
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request was recorded");
  return request.body;
}

const afterCall = (id: string): LlmMessage[] => [
  { role: "user", content: "what is in a.ts?" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Reading it." },
      { type: "tool_use", id, name: "read_file", input: { path: "a.ts" } },
    ],
  },
  { role: "user", content: [{ type: "tool_result", toolUseId: id, content: "export const a = 1;" }] },
];

describe("Claude's extended thinking (Anthropic API)", () => {
  it("sends the budget within the model's output limit, and the signed thinking back with the tool call it led to", async () => {
    server.enqueue({ reasoning: "Read the file before answering.", toolCalls: [{ id: "toolu_think_1", name: "read_file", arguments: { path: "a.ts" } }] });
    const first = await collect(provider("anthropic", { thinkingBudget: 16_000 }), { maxTokens: 64_000 });
    expect(
      first
        .filter((e) => e.type === "reasoning")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("Read the file before answering.");
    expect(lastBody().thinking).toEqual({ type: "enabled", budget_tokens: 16_000 });
    expect(lastBody().max_tokens).toBe(64_000);

    server.enqueue({ text: "a.ts exports a." });
    await collect(provider("anthropic", { thinkingBudget: 16_000 }), { maxTokens: 64_000, messages: afterCall("toolu_think_1") });
    const assistant = (lastBody().messages as { role: string; content: Record<string, unknown>[] }[])[1]!;
    expect(assistant.content[0]).toEqual({ type: "thinking", thinking: "Read the file before answering.", signature: "fake-signature" });
    expect(assistant.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
  });

  it("fits a budget larger than the output limit, and sends no thinking when none is asked or the call's thinking is gone", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" });
    await collect(provider("anthropic", { thinkingBudget: 100_000 }), { maxTokens: 32_000 });
    // The answer keeps room of its own inside the model's limit.
    expect(lastBody()).toMatchObject({ max_tokens: 32_000, thinking: { type: "enabled", budget_tokens: 27_904 } });

    await collect(provider("anthropic"));
    expect(lastBody()).not.toHaveProperty("thinking");

    await collect(provider("anthropic", { reasoningEffort: "high" }), { messages: afterCall("toolu_from_another_process") });
    expect(lastBody()).not.toHaveProperty("thinking");
    const assistant = (lastBody().messages as { content: { type: string }[] }[])[1]!;
    expect(assistant.content.map((b) => b.type)).toEqual(["text", "tool_use"]);
  });
});

describe("reasoning over the OpenAI wire format, in each vendor's field", () => {
  it.each([
    ["openai", { reasoningEffort: "high" }, { reasoning_effort: "high" }],
    ["openai", { thinkingBudget: 2_000 }, { reasoning_effort: "low" }],
    ["xai", { reasoningEffort: "low" }, { reasoning_effort: "low" }],
    ["openrouter", { reasoningEffort: "medium" }, { reasoning: { effort: "medium" } }],
    ["openrouter", { thinkingBudget: 12_000 }, { reasoning: { max_tokens: 12_000 } }],
    ["qwen", { reasoningEffort: "high" }, { enable_thinking: true, thinking_budget: 24_576 }],
    ["zai", { reasoningEffort: "low" }, { thinking: { type: "enabled" } }],
  ] as const)("%s with %j sends %j", async (kind, settings, fields) => {
    server.enqueue({ text: "ok" });
    await collect(provider(kind, settings));
    expect(lastBody()).toMatchObject(fields);
  });

  it("sends nothing where the vendor takes no reasoning field, or no setting is given", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" });
    await collect(provider("deepseek", { reasoningEffort: "high" }));
    expect(Object.keys(lastBody()).filter((k) => /reason|think/.test(k))).toEqual([]);
    await collect(provider("openai"));
    expect(Object.keys(lastBody()).filter((k) => /reason|think/.test(k))).toEqual([]);
  });
});
