import { beforeAll, describe, expect, it } from "vitest";
import { checkBudget } from "../../../src/core/context/budget";
import { countTokens, countTokensLarge, IMAGE_TOKENS, loadTokenizer, messageTokens } from "../../../src/core/context/tokens";
import { planWindow, promptLimit } from "../../../src/core/context/window";
import type { LlmMessage } from "../../../src/core/llm/types";

beforeAll(loadTokenizer);

describe("token counting", () => {
  it("counts with the o200k encoding, and a large text in slices gives the same count", async () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    const big = Array.from({ length: 20_000 }, (_, i) => `const value${i} = compute(${i}); // line ${i}`).join("\n");
    expect(big.length).toBeGreaterThan(200_000);
    expect(await countTokensLarge(big)).toBe(countTokens(big));
  });

  it("counts a message's blocks: text, tool calls, results and images", () => {
    const message: LlmMessage = {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "t1", content: "hello world", images: [{ mediaType: "image/png", data: "AAAA" }] },
        { type: "text", text: "hello world" },
      ],
    };
    expect(messageTokens(message)).toBe(2 + IMAGE_TOKENS + 2 + 4);
  });
});

/** A conversation of the task and `pairs` assistant/user exchanges, each message `size` tokens. */
function conversation(pairs: number): LlmMessage[] {
  const messages: LlmMessage[] = [{ role: "user", content: "the task" }];
  for (let i = 0; i < pairs; i++) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read_file", input: {} }] });
    messages.push({ role: "user", content: [{ type: "tool_result", toolUseId: `t${i}`, content: "..." }] });
  }
  return messages;
}

describe("the sliding window", () => {
  const tokens = () => 100;

  it("hides nothing when the conversation fits", () => {
    expect(planWindow(conversation(3), tokens, 700)).toEqual({ hide: 0, tokens: 700 });
  });

  it("hides the fewest oldest exchanges, whole, keeping the task and each tool call with its result", () => {
    const messages = conversation(5);
    const plan = planWindow(messages, tokens, 750)!;
    expect(plan).toEqual({ hide: 4, tokens: 700 });
    const kept = [messages[0]!, ...messages.slice(1 + plan.hide)];
    expect(kept[0]!.content).toBe("the task");
    // Roles still alternate, and every kept tool_use has its tool_result right after it.
    kept.forEach((m, i) => expect(m.role).toBe(i % 2 === 0 ? "user" : "assistant"));
    for (let i = 1; i < kept.length; i += 2) {
      const use = (kept[i]!.content as { id: string }[])[0]!.id;
      expect((kept[i + 1]!.content as { toolUseId: string }[])[0]!.toolUseId).toBe(use);
    }
  });

  it("gives up when even the task and the last exchange do not fit", () => {
    expect(planWindow(conversation(3), tokens, 250)).toBeUndefined();
  });

  it("leaves the reply's reserve and a 10% margin out of the window", () => {
    expect(promptLimit(200_000, 8_000)).toBe(172_000);
    expect(promptLimit(8_000, 16_000)).toBe(0);
  });
});

describe("hard budgets", () => {
  const next = { inputTokens: 10_000, maxOutputTokens: 4_000, maxCost: 0.1 };

  it("stops before a request that could cross the token budget, not after", () => {
    expect(checkBudget({ maxTokens: 100_000 }, { tokens: 85_000, cost: 0 }, next)).toEqual({ ok: true });
    const stop = checkBudget({ maxTokens: 100_000 }, { tokens: 86_001, cost: 0 }, next);
    expect(stop).toMatchObject({ ok: false, limit: "maxTokens" });
    expect(stop.ok || stop.reason).toMatch(/used 86,001 tokens; the next request could take up to 14,000 more, over its budget of 100,000/);
  });

  it("stops before crossing the cost budget, and refuses to guess when prices are unknown", () => {
    expect(checkBudget({ maxCost: 1 }, { tokens: 0, cost: 0.9 }, next)).toEqual({ ok: true });
    expect(checkBudget({ maxCost: 1 }, { tokens: 0, cost: 0.95 }, next)).toMatchObject({ ok: false, limit: "maxCost" });
    expect(checkBudget({ maxCost: 1 }, { tokens: 0, cost: undefined }, next)).toMatchObject({ ok: false, reason: expect.stringContaining("prices are unknown") });
  });

  it("keeps each request under a price step", () => {
    expect(checkBudget({ maxInputPerRequest: 200_000 }, { tokens: 0, cost: 0 }, { ...next, inputTokens: 200_001 })).toMatchObject({ ok: false, limit: "maxInputPerRequest" });
    expect(checkBudget({ maxInputPerRequest: 200_000 }, { tokens: 0, cost: 0 }, { ...next, inputTokens: 200_000 })).toEqual({ ok: true });
  });
});
