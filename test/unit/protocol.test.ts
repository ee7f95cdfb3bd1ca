import { describe, expect, it } from "vitest";
import { MAX_USER_TEXT, parseWebviewMessage } from "../../src/shared/protocol/messages";

describe("webview -> host messages are validated", () => {
  it("accepts each well-formed message", () => {
    for (const message of [
      { type: "view/ready" },
      { type: "chat/send", text: "explain this file" },
      { type: "chat/retry" },
      { type: "chat/cancel" },
      { type: "chat/newTask" },
      { type: "chat/openSettings", section: "modes" },
    ]) {
      expect(parseWebviewMessage(message)).toEqual({ ok: true, message });
    }
  });

  it("trims the text of a chat message", () => {
    expect(parseWebviewMessage({ type: "chat/send", text: "  hi \n" })).toEqual({ ok: true, message: { type: "chat/send", text: "hi" } });
  });

  it.each([
    ["an unknown type", { type: "chat/deleteEverything" }],
    ["a missing type", { text: "hi" }],
    ["a non-object", "chat/send"],
    ["null", null],
    ["text that is not a string", { type: "chat/send", text: 42 }],
    ["empty text", { type: "chat/send", text: "   " }],
    ["text over the limit", { type: "chat/send", text: "x".repeat(MAX_USER_TEXT + 1) }],
    ["an extra field", { type: "chat/retry", command: "rm -rf /" }],
    ["an MCP answer of an unknown kind", { type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "payment", approved: true } }],
    ["a form answer with a nested value", { type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "elicitation", action: "accept", content: { address: { street: "x" } } } }],
    ["a form answer with an unknown action", { type: "chat/mcpAnswer", id: "mcp-1", answer: { kind: "elicitation", action: "maybe" } }],
    ["settings opened at a section that does not exist", { type: "chat/openSettings", section: "../../etc" }],
  ])("rejects %s with a reason", (_label, raw) => {
    const result = parseWebviewMessage(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/^invalid webview message/);
  });
});
