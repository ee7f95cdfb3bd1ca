import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicProvider } from "../../src/core/llm/anthropic";
import { costOf, resolveModelInfo } from "../../src/core/llm/models";
import type { LlmMessage, StreamEvent } from "../../src/core/llm/types";
import { FakeModelServer } from "../fixtures/fakeModelServer";

let server: FakeModelServer;
beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

const CONVERSATION: LlmMessage[] = [
  { role: "user", content: "The task" },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } }] },
  { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: "export const a = 1;" }] },
  { role: "assistant", content: "Now the other file." },
  { role: "user", content: "[read_file] Result:\nexport const b = 2;" },
];
const TOOLS = [
  { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "attempt_completion", description: "Finish", parameters: { type: "object", properties: { result: { type: "string" } } } },
];
const CACHED = { cache_control: { type: "ephemeral" } };

describe("Anthropic prompt caching", () => {
  it("marks the tools, the system prompt and the last two user turns, and reports the cache tokens with their price", async () => {
    server.enqueue({ text: "ok", usage: { input: 120, output: 40, cacheRead: 10_000, cacheWrite: 2_000 } });
    const provider = new AnthropicProvider("sk-cache", "claude-sonnet-4-5", { baseUrl: server.anthropicBaseUrl });
    const events: StreamEvent[] = [];
    for await (const event of provider.stream({ system: "You are Kiln.", messages: CONVERSATION, tools: TOOLS })) events.push(event);

    const body = server.requests.at(-1)!.body as { system: unknown; tools: unknown[]; messages: { content: unknown }[] };
    expect(body.system).toEqual([{ type: "text", text: "You are Kiln.", ...CACHED }]);
    expect(body.tools[0]).not.toHaveProperty("cache_control");
    expect(body.tools[1]).toMatchObject({ name: "attempt_completion", ...CACHED });
    // The newest user turn writes the cache, the one before reads what the last request wrote.
    expect(body.messages[4]!.content).toEqual([{ type: "text", text: "[read_file] Result:\nexport const b = 2;", ...CACHED }]);
    expect(body.messages[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "t1", content: "export const a = 1;", ...CACHED }]);
    expect(body.messages[0]!.content).toBe("The task");
    expect(JSON.stringify(body.messages[1])).not.toContain("cache_control");

    const usage = events.find((e) => e.type === "usage")!;
    expect(usage).toMatchObject({ inputTokens: 120, outputTokens: 40, cacheReadTokens: 10_000, cacheWriteTokens: 2_000 });
    // $3/M input, $0.30/M cache reads, $3.75/M cache writes, $15/M output.
    expect(costOf(usage as Extract<StreamEvent, { type: "usage" }>, resolveModelInfo("anthropic", "claude-sonnet-4-5").info, "anthropic")).toBeCloseTo(
      (120 * 3 + 10_000 * 0.3 + 2_000 * 3.75 + 40 * 15) / 1e6,
      10,
    );
  });
});
