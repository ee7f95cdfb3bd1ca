import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatLog } from "../../../src/core/agent/ChatLog";
import { ProgressThrottle } from "../../../src/core/agent/progressThrottle";
import type { ToolItem } from "../../../src/shared/protocol/chat";

describe("progress on a tool card", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function runningCard() {
    const log = new ChatLog();
    log.append({ id: "t1", role: "tool", name: "use_mcp_tool", params: {}, status: "running" });
    const shown: (string | undefined)[] = [];
    log.onDidChange((e) => {
      if (e.type === "itemChanged" && e.item.role === "tool") shown.push(e.item.progress);
    });
    const card = () => log.find("t1") as ToolItem;
    return { log, shown, card };
  }

  it("a burst of reports shows the first at once and the latest after the interval, not each one", () => {
    const { log, shown, card } = runningCard();
    const throttle = new ProgressThrottle(250, (text) => log.setProgress("t1", text));
    for (let i = 1; i <= 100; i++) throttle.push(`${i}/100`);
    expect(shown).toEqual(["1/100"]);
    vi.runAllTimers();
    expect(shown).toEqual(["1/100", "100/100"]);
    expect(card().progress).toBe("100/100");
  });

  it("nothing shows after the call ends, and the finished card drops its progress", () => {
    const { log, shown, card } = runningCard();
    const throttle = new ProgressThrottle(250, (text) => log.setProgress("t1", text));
    throttle.push("1/3");
    throttle.push("2/3");
    throttle.stop();
    log.updateTool("t1", "done", "Completed");
    vi.runAllTimers();
    log.setProgress("t1", "3/3");
    expect(shown).toEqual(["1/3", undefined]);
    expect(card().progress).toBeUndefined();
  });
});
