import { describe, expect, it } from "vitest";
import { repairToolPairing } from "../../../src/core/agent/pairing";
import type { LlmMessage } from "../../../src/core/llm/types";

const call = (id: string) => ({ type: "tool_use" as const, id, name: "read_file", input: { path: "a" } });
const result = (id: string) => ({ type: "tool_result" as const, toolUseId: id, content: "ok" });

describe("tool_use / tool_result pairing before a request", () => {
  it("leaves a well-formed conversation exactly as it is", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "reading" }, call("a"), call("b")] },
      { role: "user", content: [result("a"), result("b")] },
    ];
    expect(repairToolPairing(messages)).toEqual({ messages, problems: [] });
  });

  it("gives every call without a result an 'interrupted' one, including at the end", () => {
    const { messages, problems } = repairToolPairing([
      { role: "user", content: "go" },
      { role: "assistant", content: [call("a"), call("b")] },
      { role: "user", content: [result("a")] },
      { role: "assistant", content: [call("c")] },
    ]);
    expect(messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", toolUseId: "b", content: expect.stringMatching(/interrupted/), isError: true }, result("a")] });
    expect(messages[4]).toMatchObject({ role: "user", content: [{ toolUseId: "c" }] });
    expect(problems).toHaveLength(2);
  });

  it("drops results that answer no call, and duplicates", () => {
    const { messages, problems } = repairToolPairing([
      { role: "user", content: "go" },
      { role: "assistant", content: [call("a")] },
      { role: "user", content: [result("a"), result("a"), result("zzz"), { type: "text", text: "and also" }] },
    ]);
    expect(messages[2]).toEqual({ role: "user", content: [result("a"), { type: "text", text: "and also" }] });
    expect(problems).toEqual([expect.stringMatching(/a, which no call/), expect.stringMatching(/zzz/)]);
  });
});
