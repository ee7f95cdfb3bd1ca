import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { notificationCommand, showSystemNotification } from "../../src/platform/node/systemNotification";

describe("system notifications", () => {
  it("Linux: notify-send with the text after --, so a body that looks like a flag stays text", () => {
    expect(notificationCommand("linux", "Kiln finished", "--help; rm -rf /")).toEqual({
      command: "notify-send",
      args: ["--app-name=Kiln", "--expire-time=10000", "--", "Kiln finished", "--help; rm -rf /"],
    });
  });

  it("macOS: AppleScript with the quotes and backslashes in the text escaped", () => {
    const command = notificationCommand("darwin", 'Kiln "asks"', 'Run \\"rm"? ` $(x)');
    expect(command?.command).toBe("osascript");
    expect(command?.args).toEqual(["-e", 'display notification "Run \\\\\\"rm\\"? ` $(x)" with title "Kiln \\"asks\\""']);
  });

  it("control characters become spaces and a long body is cut", () => {
    const command = notificationCommand("linux", "Kiln\nfailed", `line one\n\u001b[31mred${"x".repeat(400)}`);
    expect(command?.args.at(-2)).toBe("Kiln failed");
    expect(command?.args.at(-1)).toHaveLength(300);
    expect(command?.args.at(-1)).not.toMatch(/[\u0000-\u001f]/);
  });

  it("no command on other systems: VS Code's own notification is the one shown", () => {
    expect(notificationCommand("win32", "Kiln", "done")).toBeUndefined();
  });

  it("resolves false instead of throwing where the program is missing", async () => {
    let present = true;
    try {
      execFileSync("sh", ["-c", "command -v notify-send"]);
    } catch {
      present = false;
    }
    // This machine may or may not have libnotify; without it the call must say so quietly.
    if (!present) expect(await showSystemNotification("Kiln", "test")).toBe(false);
    expect(await showSystemNotification("Kiln", "test", "win32")).toBe(false);
  });
});
