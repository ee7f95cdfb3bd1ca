import { describe, expect, it } from "vitest";
import { MAX_LINK_URL, MAX_RUN_COMMAND, parseWebviewMessage } from "../../../src/shared/protocol/messages";

// The messages the conversation view added; the host parses them as it does every other.
describe("chat/openLink and chat/runCommand are validated where they enter the host", () => {
  it("accepts a link and a command", () => {
    expect(parseWebviewMessage({ type: "chat/openLink", url: "https://example.com/a?b=1" })).toEqual({
      ok: true,
      message: { type: "chat/openLink", url: "https://example.com/a?b=1" },
    });
    expect(parseWebviewMessage({ type: "chat/runCommand", command: "  npm test \n" })).toEqual({ ok: true, message: { type: "chat/runCommand", command: "npm test" } });
  });

  it.each([
    ["an empty link", { type: "chat/openLink", url: "" }],
    ["a link over the limit", { type: "chat/openLink", url: `https://example.com/${"x".repeat(MAX_LINK_URL)}` }],
    ["a link that is not a string", { type: "chat/openLink", url: { href: "https://example.com" } }],
    ["an empty command", { type: "chat/runCommand", command: "   " }],
    ["a command over 10k", { type: "chat/runCommand", command: "x".repeat(MAX_RUN_COMMAND + 1) }],
    ["a command with extra fields", { type: "chat/runCommand", command: "ls", cwd: "/" }],
  ])("rejects %s", (_label, raw) => {
    expect(parseWebviewMessage(raw).ok).toBe(false);
  });

  it("caps a command at 10,000 characters", () => {
    expect(MAX_RUN_COMMAND).toBe(10_000);
    expect(parseWebviewMessage({ type: "chat/runCommand", command: "x".repeat(MAX_RUN_COMMAND) }).ok).toBe(true);
  });
});
