import { describe, expect, it } from "vitest";
import { decide, type PolicyCall } from "../../../src/core/approval/policy";
import type { ApproveWord } from "../../../src/core/approval/settings";
import { inPseudoLocale, translated } from "../pseudoL10n";
import { approving, browserCall, commandCall, commands, decideFresh, deleteCall, editCall, inside, mcpCall, outside, readCall, reasonOf, taskToolCall } from "./builders";

// Read by the shell grammar once, before the tables that use them.
const NPM_TEST = await commandCall("npm test");
const LS = await commandCall("ls");

const ALL: ApproveWord[] = ["read", "edit", "command", "browser", "mcp", "delete", "read-outside", "write-outside", "write-protected", "mode", "subtask", "todo"];
const allBut = (...off: ApproveWord[]) => approving(ALL.filter((w) => !off.includes(w)));

describe("each category is its own switch", () => {
  const calls: [ApproveWord, PolicyCall][] = [
    ["read", readCall(inside("src/a.ts"))],
    ["edit", editCall([inside("src/a.ts")])],
    ["command", NPM_TEST],
    ["browser", browserCall()],
    ["mcp", mcpCall()],
    ["delete", deleteCall([inside("old.txt")])],
    ["mode", taskToolCall("switch_mode", "mode")],
    ["subtask", taskToolCall("new_task", "subtask")],
    ["todo", taskToolCall("update_todo_list", "todo")],
  ];

  it.each(calls)("%s on alone allows its call", async (word, call) => {
    expect(decideFresh(call, approving([word]))).toEqual({ kind: "allow" });
  });

  it.each(calls)("%s off asks for its call even with every other category on", async (word, call) => {
    expect(decideFresh(call, allBut(word)).kind).toBe("ask");
  });

  it("a tool of the always group with no category asks", async () => {
    const call: PolicyCall = { tool: "mystery", group: "always", paths: [], protectedPaths: [] };
    expect(decideFresh(call, approving(ALL)).kind).toBe("ask");
  });
});

describe("reads", () => {
  it("inside the workspace are allowed with read on", async () => {
    expect(decideFresh(readCall(inside("README.md")), approving(["read"])).kind).toBe("allow");
  });

  it("outside the workspace ask, naming the path, unless read-outside is on", async () => {
    const decision = decideFresh(readCall(outside("/etc/hosts")), approving(["read"]));
    expect(decision).toEqual({ kind: "ask", reason: "/etc/hosts is outside the workspace, and reads there are not auto-approved." });
    expect(decideFresh(readCall(outside("/etc/hosts")), approving(["read", "read-outside"])).kind).toBe("allow");
  });

  it("outside need read itself too: read-outside alone allows nothing", async () => {
    expect(decideFresh(readCall(outside("/etc/hosts")), approving(["read-outside"])).kind).toBe("ask");
    expect(decideFresh(readCall(inside("a.ts")), approving(["read-outside"])).kind).toBe("ask");
  });

  it("write-outside does not open reads outside", async () => {
    expect(decideFresh(readCall(outside("/etc/hosts")), approving(["read", "write-outside"])).kind).toBe("ask");
  });

  it("one outside path among inside ones asks, naming only the outside paths", async () => {
    const decision = decideFresh(readCall(inside("a.ts"), outside("/tmp/x"), outside("/tmp/y")), approving(["read"]));
    expect(decision).toEqual({ kind: "ask", reason: "/tmp/x, /tmp/y are outside the workspace, and reads there are not auto-approved." });
  });

  it("of protected files are fine: reading configuration changes nothing", async () => {
    const call: PolicyCall = { ...readCall(inside(".vscode/settings.json")), protectedPaths: [".vscode/settings.json"] };
    expect(decideFresh(call, approving(["read"])).kind).toBe("allow");
  });
});

describe("writes", () => {
  it("inside the workspace are allowed with edit on, and ask with only read on", async () => {
    expect(decideFresh(editCall([inside("src/a.ts")]), approving(["edit"])).kind).toBe("allow");
    expect(decideFresh(editCall([inside("src/a.ts")]), approving(["read", "read-outside"])).kind).toBe("ask");
  });

  it("outside the workspace ask, naming the path, unless write-outside is on", async () => {
    expect(decideFresh(editCall([outside("/home/me/.bashrc")]), approving(["edit"]))).toEqual({
      kind: "ask",
      reason: "/home/me/.bashrc is outside the workspace, and edits there are not auto-approved.",
    });
    expect(decideFresh(editCall([outside("/home/me/.bashrc")]), approving(["edit", "write-outside"])).kind).toBe("allow");
  });

  it("read-outside does not open writes outside", async () => {
    expect(decideFresh(editCall([outside("/tmp/x")]), approving(["edit", "read-outside"])).kind).toBe("ask");
  });

  it("write-outside alone allows no edit", async () => {
    expect(decideFresh(editCall([outside("/tmp/x")]), approving(["write-outside"])).kind).toBe("ask");
  });

  it("to a protected file ask, naming it, even with every other category on", async () => {
    const call = editCall([inside(".kiln/rules.md")], [".kiln/rules.md"]);
    expect(decideFresh(call, allBut("write-protected"))).toEqual({ kind: "ask", reason: ".kiln/rules.md is protected (Kiln's or the editor's configuration)." });
  });

  it("to several protected files name them all", async () => {
    const call = editCall([inside(".kiln/a"), inside(".vscode/b")], [".kiln/a", ".vscode/b"]);
    expect(decideFresh(call, approving(["edit"]))).toEqual({ kind: "ask", reason: ".kiln/a, .vscode/b are protected (Kiln's or the editor's configuration)." });
  });

  it("to a protected file are allowed with write-protected on, but not by write-protected alone", async () => {
    const call = editCall([inside(".kiln/rules.md")], [".kiln/rules.md"]);
    expect(decideFresh(call, approving(["edit", "write-protected"])).kind).toBe("allow");
    expect(decideFresh(call, approving(["write-protected"])).kind).toBe("ask");
  });

  it("outside and protected need both switches", async () => {
    const call = editCall([outside("/home/me/.config/Code/User/settings.json")], ["/home/me/.config/Code/User/settings.json"]);
    expect(decideFresh(call, approving(["edit", "write-outside"])).kind).toBe("ask");
    expect(decideFresh(call, approving(["edit", "write-protected"])).kind).toBe("ask");
    expect(decideFresh(call, approving(["edit", "write-outside", "write-protected"])).kind).toBe("allow");
  });
});

describe("deletes are their own category", () => {
  it("edit alone does not delete", async () => {
    expect(decideFresh(deleteCall([inside("src")]), approving(["edit"])).kind).toBe("ask");
  });

  it("delete inside the workspace is allowed with the delete switch", async () => {
    expect(decideFresh(deleteCall([inside("src")]), approving(["delete"])).kind).toBe("allow");
  });

  it("outside the workspace ask unless write-outside is on", async () => {
    expect(decideFresh(deleteCall([outside("/tmp/old")]), approving(["delete"]))).toEqual({
      kind: "ask",
      reason: "/tmp/old is outside the workspace, and deletions there are not auto-approved.",
    });
    expect(decideFresh(deleteCall([outside("/tmp/old")]), approving(["delete", "read-outside"])).kind).toBe("ask");
    expect(decideFresh(deleteCall([outside("/tmp/old")]), approving(["delete", "write-outside"])).kind).toBe("allow");
  });

  it("of protected files ask unless write-protected is on", async () => {
    const call = deleteCall([inside(".kiln")], [".kiln"]);
    expect(decideFresh(call, approving(["delete", "edit"]))).toEqual({ kind: "ask", reason: ".kiln is protected (Kiln's or the editor's configuration)." });
    expect(decideFresh(call, approving(["delete", "write-protected"])).kind).toBe("allow");
  });
});

describe("commands, apart from their text", () => {
  it("in a folder outside the workspace always ask, whatever is switched on", async () => {
    expect(decideFresh(await commandCall("ls", outside("/srv/app")), approving(ALL))).toEqual({
      kind: "ask",
      reason: "/srv/app is outside the workspace, and commands there are not auto-approved.",
    });
  });

  it("ask with command off even when the command is on the allowed list", async () => {
    expect(decideFresh(await commandCall("ls"), approving(["read", "edit"], { allowed: ["ls"] })).kind).toBe("ask");
  });
});

describe("MCP tools", () => {
  it("allowed one by one (alwaysAllow) run with the mcp category off", async () => {
    expect(decideFresh(mcpCall(true), approving([])).kind).toBe("allow");
    expect(decideFresh(mcpCall(false), approving([])).kind).toBe("ask");
  });

  it("allowed one by one still ask with auto-approve turned off", async () => {
    expect(decideFresh(mcpCall(true), approving(ALL, { enabled: false })).kind).toBe("ask");
  });
});

describe("the global switch", () => {
  const off = approving(ALL, { enabled: false });

  it.each([
    ["read", readCall(inside("a.ts"))],
    ["edit", editCall([inside("a.ts")])],
    ["delete", deleteCall([inside("a.ts")])],
    ["command", LS],
    ["browser", browserCall()],
    ["mcp", mcpCall()],
    ["mode", taskToolCall("switch_mode", "mode")],
  ])("off makes %s ask, saying auto-approve is off", async (_, call) => {
    expect(decideFresh(call, off)).toEqual({ kind: "ask", reason: "Auto-approve is turned off." });
  });
});

describe("a tool that insists on asking", () => {
  const insisting: PolicyCall = { ...editCall([inside("a.ts")]), alwaysAsk: true, reason: "The diff touches a file changed on disk." };

  it("asks with its own reason, even with everything approved", async () => {
    expect(decideFresh(insisting, approving(ALL))).toEqual({ kind: "ask", reason: "The diff touches a file changed on disk." });
  });

  it("asks without a reason when it gives none", async () => {
    expect(decideFresh({ ...readCall(inside("a.ts")), alwaysAsk: true }, approving(ALL))).toEqual({ kind: "ask" });
  });

  it("keeps its reason when auto-approve is also off", async () => {
    expect(decideFresh(insisting, approving(ALL, { enabled: false }))).toEqual({ kind: "ask", reason: "The diff touches a file changed on disk." });
  });
});

describe("limits", () => {
  const call = readCall(inside("a.ts"));

  it("maxRequests: allowed until that many calls were auto-approved, then asks with the count", async () => {
    const settings = approving(["read"], { maxRequests: 3 });
    expect(decide(call, settings, { autoApprovedRequests: 2, costSoFar: 0 }).kind).toBe("allow");
    const decision = decide(call, settings, { autoApprovedRequests: 3, costSoFar: 0 });
    expect(decision.kind).toBe("ask");
    expect(decision.kind === "ask" && decision.reason).toMatch(/auto-approved 3 calls .*\(3\)/);
  });

  it("maxCost: allowed below the limit, asks at it and past it, showing dollars", async () => {
    const settings = approving(["read"], { maxCost: 1.5 });
    expect(decide(call, settings, { autoApprovedRequests: 0, costSoFar: 1.49 }).kind).toBe("allow");
    expect(decide(call, settings, { autoApprovedRequests: 0, costSoFar: 1.5 })).toEqual({
      kind: "ask",
      reason: "This task has cost $1.50, at or past the auto-approve limit of $1.50; Kiln asks again from now on.",
    });
    expect(decide(call, settings, { autoApprovedRequests: 0, costSoFar: 7 }).kind).toBe("ask");
  });

  it("0 means no limit", async () => {
    const settings = approving(["read"], { maxRequests: 0, maxCost: 0 });
    expect(decide(call, settings, { autoApprovedRequests: 10_000, costSoFar: 999 }).kind).toBe("allow");
  });

  it("apply to MCP tools allowed one by one too", async () => {
    expect(decide(mcpCall(true), approving([], { maxRequests: 1 }), { autoApprovedRequests: 1, costSoFar: 0 }).kind).toBe("ask");
  });

  it("do not hide the category's own reason when the call would ask anyway", async () => {
    const decision = decide(readCall(outside("/etc/hosts")), approving(["read"], { maxRequests: 1 }), { autoApprovedRequests: 5, costSoFar: 0 });
    expect(decision).toEqual({ kind: "ask", reason: "/etc/hosts is outside the workspace, and reads there are not auto-approved." });
  });
});

describe("why Kiln asks, in the user's language", () => {
  inPseudoLocale();

  it("each reason the approval box shows is a translated sentence; paths and commands stay as they are", async () => {
    const reasons = [
      reasonOf(decideFresh(readCall(outside("/etc/hosts")), approving(["read"]))),
      reasonOf(decideFresh(editCall([outside("/a"), outside("/b")]), approving(["edit"]))),
      reasonOf(decideFresh(editCall([inside(".vscode/settings.json")], [".vscode/settings.json"]), approving(["edit"]))),
      reasonOf(decideFresh(await commandCall("make"), commands(["npm test"]))),
      reasonOf(decideFresh(await commandCall("echo $(whoami)"), commands(["echo"]))),
      reasonOf(decideFresh(readCall(inside("a.ts")), approving(["read"], { enabled: false }))),
      reasonOf(decide(readCall(inside("a.ts")), approving(["read"], { maxRequests: 3 }), { autoApprovedRequests: 3, costSoFar: 0 })),
    ];
    for (const reason of reasons) expect(translated(reason ?? ""), reason).toBe(true);
    expect(reasons[0]).toContain("/etc/hosts");
    expect(reasons[1]).toContain("/a, /b");
    expect(reasons[3]).toContain("make");
  });
});
