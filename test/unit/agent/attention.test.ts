import { describe, expect, it } from "vitest";
import { attentionOf } from "../../../src/core/agent/attention";
import type { ChatItem } from "../../../src/shared/protocol/chat";

const appended = (item: ChatItem) => ({ type: "appended" as const, item });
const changed = (item: ChatItem) => ({ type: "itemChanged" as const, item });

describe("what calls for the user while they are away", () => {
  it("a finished task, with the first line of its result", () => {
    expect(attentionOf(appended({ id: "c1", role: "completion", result: "Added the test.\nAll 12 pass." }))).toEqual({ kind: "done", key: "c1", text: "Added the test." });
  });

  it("a failure, with its message", () => {
    expect(attentionOf(appended({ id: "e1", role: "error", error: { kind: "auth", message: "OpenAI rejected the API key (HTTP 401).", retryable: true } }))).toEqual({
      kind: "failed",
      key: "e1",
      text: "OpenAI rejected the API key (HTTP 401).",
    });
  });

  it("a call waiting for Approve / Reject, by its card's sentence; the same card is the same key", () => {
    const waiting: ChatItem = {
      id: "t7",
      role: "tool",
      name: "write_to_file",
      params: {},
      status: "waiting",
      view: { title: "Kiln wants to write", target: "src/greet.ts" },
      approval: { summary: "Write src/greet.ts (3 lines)", outsideWorkspace: false },
    };
    expect(attentionOf(changed(waiting))).toEqual({ kind: "approval", key: "t7", text: "Kiln wants to write src/greet.ts" });
    expect(attentionOf(changed({ ...waiting, status: "running", approval: undefined }))).toBeUndefined();
  });

  it("a question the model asks", () => {
    expect(attentionOf(appended({ id: "q1", role: "question", question: "Which test runner?", suggestions: [] }))).toEqual({ kind: "question", key: "q1", text: "Which test runner?" });
  });

  it("nothing for streaming text, a call that runs, or a long line beyond 200 characters", () => {
    expect(attentionOf({ type: "textDelta", id: "a1", delta: "hi", field: "text" })).toBeUndefined();
    expect(attentionOf(changed({ id: "t1", role: "tool", name: "read_file", params: {}, status: "running" }))).toBeUndefined();
    const long = attentionOf(appended({ id: "c2", role: "completion", result: "x".repeat(500) }));
    expect(long?.text).toHaveLength(200);
    expect(long?.text.endsWith("…")).toBe(true);
  });
});
