import type { CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { LlmRequest, Provider, StreamEvent } from "../../../src/core/llm/types";
import { MAX_SAMPLING_TOKENS, runSampling, samplingRequestFrom, shownSampling, toLlmMessages } from "../../../src/core/mcp/sampling";
import { McpRequestRefused } from "../../../src/core/mcp/requests";

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

type Params = CreateMessageRequest["params"];

/** A provider that records each request and streams a fixed reply. */
class ReplyingProvider implements Provider {
  readonly kind = "openai-compatible" as const;
  readonly model = "test-model";
  readonly requests: LlmRequest[] = [];
  constructor(private readonly events: StreamEvent[]) {}
  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    this.requests.push(request);
    yield* this.events;
  }
}

function params(over: Partial<Params> = {}): Params {
  return { messages: [{ role: "user", content: { type: "text", text: "What is 2+2?" } }], maxTokens: 100, ...over };
}

describe("a sampling request in Kiln's terms", () => {
  it("keeps text and images for the model, names audio, and joins messages of one role in a row", () => {
    const request = samplingRequestFrom(
      "everything",
      params({
        systemPrompt: "You are a calculator.",
        messages: [
          { role: "user", content: { type: "text", text: "Look at this:" } },
          {
            role: "user",
            content: [
              { type: "image", data: PIXEL, mimeType: "image/png" },
              { type: "audio", data: "AAAA", mimeType: "audio/wav" },
            ],
          },
          { role: "assistant", content: { type: "text", text: "A pixel." } },
          { role: "user", content: { type: "text", text: "What colour?" } },
        ],
      }),
    );
    expect(toLlmMessages(request.messages)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look at this:" },
          { type: "image", mediaType: "image/png", data: PIXEL },
          { type: "text", text: "[audio: audio/wav, 3 bytes, left out: the model takes no audio]" },
        ],
      },
      { role: "assistant", content: "A pixel." },
      { role: "user", content: "What colour?" },
    ]);
    // The card shows the image as a line of text, never its data.
    const shown = shownSampling(request);
    expect(shown.systemPrompt).toBe("You are a calculator.");
    expect(shown.messages[1]).toEqual({ role: "user", text: `[image: image/png, ${Math.floor((PIXEL.length * 3) / 4)} bytes]\n[audio: audio/wav, 3 bytes, left out: the model takes no audio]` });
  });

  it("caps maxTokens at Kiln's limit and refuses what it does not do", () => {
    expect(samplingRequestFrom("s", params({ maxTokens: 10_000_000 })).maxTokens).toBe(MAX_SAMPLING_TOKENS);
    const refused = (p: Params) => () => samplingRequestFrom("s", p);
    expect(refused(params({ tools: [{ name: "t", inputSchema: { type: "object" } }] }))).toThrow(McpRequestRefused);
    expect(refused(params({ maxTokens: 0 }))).toThrow(/positive whole number/);
    expect(refused(params({ messages: [] }))).toThrow(/no messages/);
    expect(refused(params({ messages: [{ role: "user", content: { type: "text", text: "x".repeat(100_001) } }] }))).toThrow(/at most 100000/);
    expect(refused(params({ messages: [{ role: "assistant", content: { type: "tool_use", id: "1", name: "t", input: {} } }] }))).toThrow(/tool calls and results/);
  });
});

describe("running a sampling request", () => {
  it("sends the server's system prompt, messages and token cap, and answers with the text and the model", async () => {
    const provider = new ReplyingProvider([
      { type: "text", text: "Four" },
      { type: "text", text: "." },
      { type: "usage", inputTokens: 12, outputTokens: 2 },
    ]);
    const request = samplingRequestFrom("s", params({ systemPrompt: "Be brief." }));
    const answer = await runSampling(provider, request, new AbortController().signal);
    expect(answer).toEqual({ text: "Four.", model: "test-model", stopReason: "endTurn" });
    expect(provider.requests[0]).toMatchObject({ system: "Be brief.", messages: [{ role: "user", content: "What is 2+2?" }], maxTokens: 100 });
  });

  it("says the answer stopped at the cap when the model used every token, and fails on an empty answer", async () => {
    const capped = new ReplyingProvider([
      { type: "text", text: "Four and" },
      { type: "usage", inputTokens: 1, outputTokens: 3 },
    ]);
    expect((await runSampling(capped, samplingRequestFrom("s", params({ maxTokens: 3 })), new AbortController().signal)).stopReason).toBe("maxTokens");
    const silent = new ReplyingProvider([{ type: "usage", inputTokens: 1, outputTokens: 0 }]);
    await expect(runSampling(silent, samplingRequestFrom("s", params()), new AbortController().signal)).rejects.toThrow(/no text/);
  });
});
