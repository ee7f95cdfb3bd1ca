import { describe, expect, it } from "vitest";
import { InputQueue } from "../../../src/core/agent/inputQueue";

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
