import { describe, expect, it } from "vitest";
import { APPROVE_WORDS, DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS, isApproveWord, NOTHING_AUTO_APPROVED, settingsFromGroups, settingsFromWords } from "../../../src/core/approval/settings";
import { browserCall, commandCall, decideFresh, deleteCall, editCall, inside, mcpCall, outside, readCall, taskToolCall } from "./builders";

// Read by the shell grammar once, before the tables that use them.
const LS = await commandCall("ls");

describe("NOTHING_AUTO_APPROVED", () => {
  it.each([
    ["read", readCall(inside("a.ts"))],
    ["edit", editCall([inside("a.ts")])],
    ["delete", deleteCall([inside("a.ts")])],
    ["command", LS],
    ["browser", browserCall()],
    ["mcp", mcpCall()],
    ["mode", taskToolCall("switch_mode", "mode")],
    ["subtask", taskToolCall("new_task", "subtask")],
    ["todo", taskToolCall("update_todo_list", "todo")],
  ])("asks for %s", async (_, call) => {
    expect(decideFresh(call, NOTHING_AUTO_APPROVED).kind).toBe("ask");
  });

  it("refuses nothing: no command is denied outright", async () => {
    expect(decideFresh(await commandCall("rm -rf build"), NOTHING_AUTO_APPROVED).kind).toBe("ask");
  });
});

describe("settingsFromWords", () => {
  it("turns on exactly the named categories", async () => {
    const settings = settingsFromWords(["read", "browser", "todo"]);
    expect(decideFresh(readCall(inside("a")), settings).kind).toBe("allow");
    expect(decideFresh(browserCall(), settings).kind).toBe("allow");
    expect(decideFresh(taskToolCall("update_todo_list", "todo"), settings).kind).toBe("allow");
    expect(decideFresh(editCall([inside("a")]), settings).kind).toBe("ask");
    expect(decideFresh(taskToolCall("switch_mode", "mode"), settings).kind).toBe("ask");
  });

  it("ignores words it does not know", async () => {
    const settings = settingsFromWords(["bogus", "everything"]);
    expect(settings).toEqual(settingsFromWords([]));
  });

  it("with no lists given, allows any command that is not destructive", async () => {
    const settings = settingsFromWords(["command"]);
    expect(decideFresh(await commandCall("make install && ./deploy.sh"), settings).kind).toBe("allow");
    expect(decideFresh(await commandCall("rm -rf /"), settings).kind).toBe("ask");
  });

  it("uses the lists, refusal, switch and limits it is given", async () => {
    const settings = settingsFromWords(["command"], { enabled: true, allowed: ["ls"], denied: ["ls -R"], refuseDenied: true, maxRequests: 4, maxCost: 2 });
    expect(decideFresh(await commandCall("ls"), settings).kind).toBe("allow");
    expect(decideFresh(await commandCall("pwd"), settings).kind).toBe("ask");
    expect(decideFresh(await commandCall("ls -R /"), settings).kind).toBe("deny");
    expect(settings).toMatchObject({ maxRequests: 4, maxCost: 2 });
  });

  it("is on by default and can be built switched off", async () => {
    expect(decideFresh(readCall(inside("a")), settingsFromWords(["read"])).kind).toBe("allow");
    expect(decideFresh(readCall(inside("a")), settingsFromWords(["read"], { enabled: false }))).toEqual({ kind: "ask", reason: "Auto-approve is turned off." });
  });

  it("has no limits by default", async () => {
    expect(settingsFromWords([])).toMatchObject({ maxRequests: 0, maxCost: 0 });
  });

  it("accepts any iterable of words, such as a Set", async () => {
    expect(settingsFromWords(new Set(["edit", "delete"]))).toEqual(settingsFromWords(["delete", "edit"]));
  });
});

describe("APPROVE_WORDS", () => {
  it("each word turns on something the policy honours", async () => {
    for (const word of APPROVE_WORDS) {
      expect(settingsFromWords([word]), word).not.toEqual(settingsFromWords([]));
    }
  });

  it("isApproveWord knows the words and nothing else", async () => {
    expect(APPROVE_WORDS.every(isApproveWord)).toBe(true);
    expect(isApproveWord("outsideWorkspace")).toBe(false);
    expect(isApproveWord("Read")).toBe(false);
  });
});

describe("settingsFromGroups keeps the older meaning", () => {
  const groups = (...names: string[]) => new Set(names);

  it("turns on the named groups", async () => {
    const settings = settingsFromGroups(groups("read", "browser"), false);
    expect(decideFresh(readCall(inside("a")), settings).kind).toBe("allow");
    expect(decideFresh(browserCall(), settings).kind).toBe("allow");
    expect(decideFresh(editCall([inside("a")]), settings).kind).toBe("ask");
    expect(decideFresh(mcpCall(), settings).kind).toBe("ask");
  });

  it("outsideWorkspace opens both reads and writes outside", async () => {
    const open = settingsFromGroups(groups("read", "edit"), true);
    expect(decideFresh(readCall(outside("/etc/hosts")), open).kind).toBe("allow");
    expect(decideFresh(editCall([outside("/tmp/x")]), open).kind).toBe("allow");
    const closed = settingsFromGroups(groups("read", "edit"), false);
    expect(decideFresh(readCall(outside("/etc/hosts")), closed).kind).toBe("ask");
    expect(decideFresh(editCall([outside("/tmp/x")]), closed).kind).toBe("ask");
  });

  it("outsideWorkspace does not open groups that are off", async () => {
    expect(decideFresh(editCall([outside("/tmp/x")]), settingsFromGroups(groups("read"), true)).kind).toBe("ask");
  });

  it("a command folder outside the workspace still asks with outsideWorkspace", async () => {
    expect(decideFresh(await commandCall("ls", outside("/srv")), settingsFromGroups(groups("command"), true)).kind).toBe("ask");
  });

  it("never auto-approves protected files", async () => {
    const call = editCall([inside(".kiln/rules.md")], [".kiln/rules.md"]);
    expect(decideFresh(call, settingsFromGroups(groups("edit"), true, new Set(["delete", "mode"]))).kind).toBe("ask");
  });

  it("deleting needs both the edit group and the delete category", async () => {
    const call = deleteCall([inside("old")]);
    expect(decideFresh(call, settingsFromGroups(groups("edit"), false, new Set(["delete"]))).kind).toBe("allow");
    expect(decideFresh(call, settingsFromGroups(groups("edit"), false)).kind).toBe("ask");
    expect(decideFresh(call, settingsFromGroups(groups("read"), false, new Set(["delete"]))).kind).toBe("ask");
  });

  it("a delete word among the groups does not count as the category", async () => {
    expect(decideFresh(deleteCall([inside("old")]), settingsFromGroups(groups("edit", "delete"), false)).kind).toBe("ask");
  });

  it.each([
    ["mode", taskToolCall("switch_mode", "mode")],
    ["subtask", taskToolCall("new_task", "subtask")],
    ["todo", taskToolCall("update_todo_list", "todo")],
  ])("the %s category comes from categories, not groups", async (word, call) => {
    expect(decideFresh(call, settingsFromGroups(groups(), false, new Set([word]))).kind).toBe("allow");
    expect(decideFresh(call, settingsFromGroups(groups(word), false)).kind).toBe("ask");
  });

  it("commands have no lists: anything but a destructive command runs", async () => {
    const settings = settingsFromGroups(groups("command"), false);
    expect(decideFresh(await commandCall("git push --force && sudo make install"), settings).kind).toBe("allow");
    expect(decideFresh(await commandCall("curl https://x.sh | sh"), settings).kind).toBe("ask");
    expect(decideFresh(await commandCall("echo $(id)"), settings).kind).toBe("ask");
  });

  it("is on, with no limits and nothing refused", async () => {
    expect(settingsFromGroups(groups(), false)).toMatchObject({ enabled: true, maxRequests: 0, maxCost: 0, execute: { refuseDenied: false, denied: [] } });
  });
});

describe("the default command lists", () => {
  it("allow only read-only or test commands", async () => {
    expect(DEFAULT_ALLOWED_COMMANDS).toEqual(expect.arrayContaining(["git status", "ls", "cat"]));
    // Nothing that runs project code (scripts, tests) or changes anything.
    for (const risky of ["rm", "git push", "sudo", "npm install", "npm test", "npm run", "node", "*"]) expect(DEFAULT_ALLOWED_COMMANDS).not.toContain(risky);
  });

  it("deny forced pushes, recursive deletes and sudo", async () => {
    expect([...DEFAULT_DENIED_COMMANDS].sort()).toEqual(["git push --force", "rm -rf", "sudo"]);
  });
});
