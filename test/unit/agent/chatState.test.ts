import { describe, expect, it } from "vitest";
import { InputQueue } from "../../../src/core/agent/inputQueue";
import { UsageMeter } from "../../../src/core/agent/usage";

describe("InputQueue", () => {
  it("gives messages back in the order they were queued", () => {
    const queue = new InputQueue();
    queue.add("a");
    queue.add("b");
    expect([queue.next(), queue.next(), queue.next()]).toEqual(["a", "b", undefined]);
  });

  it("holds everything after a pause until the user takes each one; empty, it runs again", () => {
    const queue = new InputQueue();
    queue.add("a");
    queue.add("b");
    queue.pause();
    expect(queue.next()).toBeUndefined();
    expect(queue.take(1)).toBe("b");
    expect(queue.isPaused).toBe(true);
    expect(queue.take(0)).toBe("a");
    expect(queue.isPaused).toBe(false);
    queue.add("c");
    expect(queue.next()).toBe("c");
  });

  it("refuses past its limit and keeps what it has; a pause of an empty queue holds nothing back", () => {
    const queue = new InputQueue(2);
    expect([queue.add("a"), queue.add("b"), queue.add("c")]).toEqual([true, true, false]);
    expect(queue.messages).toEqual(["a", "b"]);
    expect(queue.take(5)).toBeUndefined();
    queue.clear();
    queue.pause();
    queue.add("d");
    expect(queue.next()).toBe("d");
  });
});

describe("UsageMeter's context figures", () => {
  const info = { contextWindow: 200_000, maxOutputTokens: 8_000, supportsImages: false, supportsNativeTools: true };
  it("counts Anthropic's cached prompt tokens, which its input count leaves out", () => {
    const meter = new UsageMeter();
    meter.noteContext({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 40_000, cacheWriteTokens: 2_000 }, info, "anthropic");
    expect(meter.context()).toEqual({ used: 42_150, window: 200_000, reserved: 8_000 });
  });
  it("takes OpenAI's prompt count as it is (cached tokens are inside it)", () => {
    const meter = new UsageMeter();
    meter.noteContext({ inputTokens: 42_100, outputTokens: 50, cacheReadTokens: 40_000 }, info, "openai");
    expect(meter.context()).toEqual({ used: 42_150, window: 200_000, reserved: 8_000 });
  });
});
