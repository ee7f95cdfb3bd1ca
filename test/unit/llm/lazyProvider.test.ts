import { describe, expect, it } from "vitest";
import { LazyProvider } from "../../../src/core/llm/lazyProvider";
import { DEFAULT_STREAM_TIMEOUTS } from "../../../src/core/llm/requestWatch";
import type { Provider, ResolvedProviderConfig, StreamEvent } from "../../../src/core/llm/types";

const CONFIG: ResolvedProviderConfig = { kind: "gemini", model: "gemini-2.5-pro", baseUrl: "http://127.0.0.1:9", apiKey: "k", timeouts: DEFAULT_STREAM_TIMEOUTS };

const loaded: Provider = {
  kind: "gemini",
  model: "gemini-2.5-pro",
  async *stream() {
    yield { type: "text", text: "hello" };
    yield { type: "usage", inputTokens: 3, outputTokens: 1 };
  },
  listModels: async () => [{ id: "gemini-2.5-pro" }],
};

async function collect(p: Provider): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of p.stream({ system: "s", messages: [] })) out.push(e);
  return out;
}

describe("a provider whose SDK loads at its first request", () => {
  it("says what it is before loading anything, and loads once", async () => {
    let loads = 0;
    const lazy = new LazyProvider(CONFIG, async () => {
      loads++;
      return loaded;
    });
    expect([lazy.kind, lazy.model, lazy.baseUrl, loads]).toEqual(["gemini", "gemini-2.5-pro", "http://127.0.0.1:9", 0]);
    expect(await collect(lazy)).toEqual([
      { type: "text", text: "hello" },
      { type: "usage", inputTokens: 3, outputTokens: 1 },
    ]);
    expect(await lazy.listModels()).toEqual([{ id: "gemini-2.5-pro" }]);
    expect(await lazy.describeModel()).toBeUndefined();
    expect(loads).toBe(1);
  });

  it("reports a failed load from the request, and tries again at the next", async () => {
    let loads = 0;
    const lazy = new LazyProvider(CONFIG, async () => {
      if (++loads === 1) throw new Error("Cannot find module '@google/genai'");
      return loaded;
    });
    await expect(collect(lazy)).rejects.toThrow("Cannot find module");
    expect(await collect(lazy)).toHaveLength(2);
    expect(loads).toBe(2);
  });
});
