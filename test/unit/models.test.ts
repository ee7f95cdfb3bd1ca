import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_MODEL_INFO, formatUsd, matchModelId, resolveModelInfo, usageConvention, type ModelInfo } from "../../src/core/llm/models";

describe("model lookup", () => {
  it("finds known models, with dated and aliased suffixes", () => {
    const sonnet = resolveModelInfo("anthropic", "claude-sonnet-4-5-20250929");
    expect(sonnet).toMatchObject({ known: true, matched: "claude-sonnet-4-5", errors: [] });
    expect(sonnet.info).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 64_000, inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 });

    expect(resolveModelInfo("openai", "gpt-4.1-2025-04-14").matched).toBe("gpt-4.1");
    expect(resolveModelInfo("anthropic", "claude-3-7-sonnet-latest").matched).toBe("claude-3-7-sonnet");
    expect(resolveModelInfo("anthropic", "claude-sonnet-4-5@20250929").matched).toBe("claude-sonnet-4-5");
    expect(resolveModelInfo("anthropic", " Claude-Haiku-4-5 ").matched).toBe("claude-haiku-4-5");
  });

  it("prefers the longest prefix, at a name boundary", () => {
    expect(matchModelId("openai", "gpt-4.1-mini-2025-04-14")).toBe("gpt-4.1-mini");
    expect(matchModelId("openai", "gpt-4o-mini")).toBe("gpt-4o-mini");
    expect(matchModelId("openai", "gpt-4o-2024-08-06")).toBe("gpt-4o");
    expect(matchModelId("openai", "o3-mini-2025-01-31")).toBe("o3-mini");
    expect(matchModelId("anthropic", "claude-opus-4-20250514")).toBe("claude-opus-4");
    expect(matchModelId("anthropic", "claude-opus-4-1-20250805")).toBe("claude-opus-4-1");
    expect(matchModelId("openai", "gpt-5.2")).toBeUndefined();
    expect(matchModelId("openai", "o3x")).toBeUndefined();
  });

  it("uses the provider's default model for an empty id", () => {
    expect(resolveModelInfo("anthropic", "").matched).toBe("claude-sonnet-5-5");
    expect(resolveModelInfo("openai", "  ").matched).toBe("gpt-4.1");
  });

  it("gives unknown models the conservative default", () => {
    for (const [kind, model] of [
      ["openai-compatible", "llama3.1:8b"],
      ["openai-compatible", "gpt-4o"],
      ["openai", "ft:some-model"],
      ["anthropic", "claude-next"],
    ] as const) {
      const r = resolveModelInfo(kind, model);
      expect(r).toEqual({ info: { ...DEFAULT_MODEL_INFO }, known: false, errors: [] });
      expect(r.info.supportsNativeTools).toBe(true);
    }
  });

  it("does not share table entries with callers", () => {
    resolveModelInfo("openai", "gpt-4o", { contextWindow: 1 }).info.maxOutputTokens = 1;
    expect(resolveModelInfo("openai", "gpt-4o").info).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    resolveModelInfo("anthropic", "claude-sonnet-4").info.tiers![0]!.inputPrice = 0;
    expect(resolveModelInfo("anthropic", "claude-sonnet-4-5").info.tiers![0]!.inputPrice).toBe(6);
  });
});

describe("overrides", () => {
  it("merges valid fields over a known model and over the default", () => {
    const r = resolveModelInfo("anthropic", "claude-sonnet-4-5", { contextWindow: 1_000_000 });
    expect(r).toMatchObject({ known: true, errors: [] });
    expect(r.info).toMatchObject({ contextWindow: 1_000_000, inputPrice: 3 });

    const local = resolveModelInfo("openai-compatible", "qwen2.5-coder", { contextWindow: 32_768, inputPrice: 0, outputPrice: 0, supportsNativeTools: false });
    expect(local.known).toBe(false);
    expect(local.info).toEqual({ ...DEFAULT_MODEL_INFO, contextWindow: 32_768, inputPrice: 0, outputPrice: 0, supportsNativeTools: false });
  });

  it("reports bad fields by name, ignores them and keeps the good ones", () => {
    const r = resolveModelInfo("openai", "gpt-4o", {
      contextWindow: 64_000,
      maxOutputTokens: 1.5,
      inputPrice: -1,
      outputPrice: Infinity,
      supportsImages: "yes",
      contextWindw: 10,
      tiers: [{ aboveInputTokens: 100, inputPrice: 1, outputPrice: "2" }],
    });
    expect(r.info).toMatchObject({ contextWindow: 64_000, maxOutputTokens: 16_384, inputPrice: 2.5, outputPrice: 10, supportsImages: true });
    expect(r.info.tiers).toBeUndefined();
    const fields = r.errors.map((e) => e.split(":")[0]);
    expect(fields).toEqual(["maxOutputTokens", "inputPrice", "outputPrice", "supportsImages", "contextWindw", "tiers[0].outputPrice"]);
    expect(r.errors.find((e) => e.startsWith("contextWindw"))).toMatch(/unknown model setting/);
  });

  it("rejects a non-object and zero token counts", () => {
    expect(resolveModelInfo("openai", "gpt-4o", "big").errors).toEqual(["model overrides: expected an object"]);
    expect(resolveModelInfo("openai", "gpt-4o", { contextWindow: 0 }).errors[0]).toMatch(/^contextWindow: /);
    expect(resolveModelInfo("openai", "gpt-4o", null).errors).toEqual([]);
  });
});

describe("cost", () => {
  const sonnet = resolveModelInfo("anthropic", "claude-sonnet-4-5").info;
  const gpt41 = resolveModelInfo("openai", "gpt-4.1").info;

  it("bills Anthropic cache reads and writes apart from input", () => {
    // 10k fresh input at $3, 50k cache reads at $0.30, 5k cache writes at $3.75, 2k output at $15.
    const cost = costOf({ inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 50_000, cacheWriteTokens: 5_000 }, sonnet, "anthropic");
    expect(cost).toBeCloseTo(0.03 + 0.015 + 0.01875 + 0.03, 10);
  });

  it("bills OpenAI cached tokens out of the prompt count", () => {
    // 100k prompt of which 80k cached: 20k at $2 and 80k at $0.50, plus 1k output at $8.
    const cost = costOf({ inputTokens: 100_000, outputTokens: 1_000, cacheReadTokens: 80_000 }, gpt41, "openai");
    expect(cost).toBeCloseTo(0.04 + 0.04 + 0.008, 10);
    expect(costOf({ inputTokens: 10, outputTokens: 0, cacheReadTokens: 50 }, gpt41, "openai")).toBeCloseTo(50 * 0.5e-6, 12);
  });

  it("switches to a tier by the request's total input, cache included", () => {
    // 150k cache reads + 60k input = 210k > 200k: everything at the long-context rate.
    const cost = costOf({ inputTokens: 60_000, outputTokens: 1_000, cacheReadTokens: 150_000 }, sonnet, "anthropic");
    expect(cost).toBeCloseTo(0.36 + 0.09 + 0.0225, 10);
    const below = costOf({ inputTokens: 50_000, outputTokens: 1_000, cacheReadTokens: 150_000 }, sonnet, "anthropic");
    expect(below).toBeCloseTo(0.15 + 0.045 + 0.015, 10);
  });

  it("picks the highest tier passed and derives missing cache prices", () => {
    const info: ModelInfo = {
      ...DEFAULT_MODEL_INFO,
      inputPrice: 1,
      outputPrice: 2,
      tiers: [
        { aboveInputTokens: 1_000, inputPrice: 10, outputPrice: 20 },
        { aboveInputTokens: 100, inputPrice: 5, outputPrice: 10 },
      ],
    };
    expect(costOf({ inputTokens: 500, outputTokens: 0 }, info, "openai")).toBeCloseTo(500 * 5e-6, 12);
    expect(costOf({ inputTokens: 2_000, outputTokens: 1_000, cacheReadTokens: 1_000 }, info, "openai")).toBeCloseTo((1_000 * 10 + 1_000 * 10 + 1_000 * 20) / 1e6, 12);
    expect(costOf({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 1_000, cacheWriteTokens: 1_000 }, info, "anthropic")).toBeCloseTo((1_000 * 1 + 1_000 * 12.5) / 1e6, 12);
  });

  it("is undefined without prices", () => {
    expect(costOf({ inputTokens: 1, outputTokens: 1 }, resolveModelInfo("openai-compatible", "llama3").info, "openai")).toBeUndefined();
    expect(costOf({ inputTokens: 1, outputTokens: 1 }, { ...DEFAULT_MODEL_INFO, inputPrice: 1 }, "openai")).toBeUndefined();
  });

  it("maps provider kinds to the convention their usage events follow", () => {
    expect(usageConvention("anthropic")).toBe("anthropic");
    expect(usageConvention("openai")).toBe("openai");
    expect(usageConvention("openai-compatible")).toBe("openai");
  });
});

describe("formatUsd", () => {
  it("formats", () => {
    expect(formatUsd(0.0123)).toBe("$0.0123");
    expect(formatUsd(0)).toBe("$0.0000");
    expect(formatUsd(0.00001)).toBe("<$0.0001");
    expect(formatUsd(12.5)).toBe("$12.50");
    expect(formatUsd(NaN)).toBe("$?");
  });
});

describe("the table for Gemini, and for Claude on Bedrock and Vertex", () => {
  it.each([
    ["bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"],
    ["bedrock", "anthropic.claude-3-5-haiku-20241022-v1:0", "claude-3-5-haiku"],
    ["bedrock", "global.anthropic.claude-opus-4-5-20251101-v1:0", "claude-opus-4-5"],
    ["vertex", "claude-sonnet-4-5@20250929", "claude-sonnet-4-5"],
    ["vertex", "gemini-2.5-pro", "gemini-2.5-pro"],
    ["gemini", "gemini-2.5-flash-lite", "gemini-2.5-flash-lite"],
    ["gemini", "models/gemini-2.5-pro", "gemini-2.5-pro"],
  ] as const)("%s %s is priced as %s", (kind, id, matched) => {
    expect(resolveModelInfo(kind, id).matched).toBe(matched);
  });

  it("does not price another vendor's model on Bedrock as Claude", () => {
    expect(resolveModelInfo("bedrock", "meta.llama3-70b-instruct-v1:0").known).toBe(false);
    expect(resolveModelInfo("bedrock", "amazon.nova-pro-v1:0").info.inputPrice).toBeUndefined();
  });

  it("charges Gemini 2.5 Pro's higher rate past 200k input, with cached tokens at the cache rate", () => {
    const { info } = resolveModelInfo("gemini", "gemini-2.5-pro");
    expect(costOf({ inputTokens: 100_000, outputTokens: 1_000, cacheReadTokens: 40_000 }, info, usageConvention("gemini"))).toBeCloseTo((60_000 * 1.25 + 40_000 * 0.125 + 1_000 * 10) / 1e6, 10);
    expect(costOf({ inputTokens: 300_000, outputTokens: 1_000 }, info, usageConvention("gemini"))).toBeCloseTo((300_000 * 2.5 + 1_000 * 15) / 1e6, 10);
  });

  it("counts Bedrock's cache reads and writes apart from input, as Anthropic does", () => {
    const { info } = resolveModelInfo("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(costOf({ inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 10_000, cacheWriteTokens: 2_000 }, info, usageConvention("bedrock"))).toBeCloseTo(
      (1_000 * 3 + 10_000 * 0.3 + 2_000 * 3.75 + 100 * 15) / 1e6,
      10,
    );
  });
});
