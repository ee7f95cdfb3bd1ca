/**
 * The approval policy with commands in the sandbox: an allowed command's redirections, risky
 * options and paths beyond the workspace stop asking, since the sandbox contains what they write and
 * hides the user's secrets; the lists, substitutions, unreadable lines and destructive commands do
 * not change. With the sandbox on but unavailable, every command asks and says why.
 */
import { describe, expect, it } from "vitest";
import type { PathJudge } from "../../../src/core/approval/shell";
import type { AutoApproveSettings } from "../../../src/core/approval/settings";
import { approving, commandCall, commands, decideFresh, inside, outside, readCall, reasonOf } from "./builders";

const inSandbox = (settings: AutoApproveSettings): AutoApproveSettings => ({ ...settings, execute: { ...settings.execute, sandboxed: true } });
const NOTE = "The command sandbox is on but not available here: bwrap is missing. Approving runs this command without it.";
const unavailable = (settings: AutoApproveSettings): AutoApproveSettings => ({ ...settings, execute: { ...settings.execute, sandboxUnavailable: NOTE } });

/** /ws is the workspace; /ws/.env and /ws/secrets/ are hidden from Kiln (.kilocodeignore). */
const judge: PathJudge = async (absolute, written) => {
  if (absolute === "/ws/.env" || absolute === "/ws/secrets" || absolute.startsWith("/ws/secrets/")) return { problem: `\`${written}\` is hidden from Kiln by .kilocodeignore`, hidden: true };
  return absolute === "/ws" || absolute.startsWith("/ws/") ? undefined : `\`${written}\` is outside the workspace`;
};

const decideIn = async (command: string, allowed: readonly string[], denied: readonly string[] = []) => {
  const call = await commandCall(command, inside("."), judge);
  return { plain: decideFresh(call, commands(allowed, denied)), sandboxed: decideFresh(call, inSandbox(commands(allowed, denied))) };
};

describe("in the sandbox, what it contains stops asking", () => {
  it.each([
    ["a redirection to a file", "cat a > b", ["cat"], "writes to b by redirection"],
    ["an appending redirection", "echo x >> notes.md", ["echo"], "writes to notes.md"],
    ["a redirection outside the workspace", "echo x > ../elsewhere.txt", ["echo"], "writes to ../elsewhere.txt"],
    ["a risky option (code to run)", "node -e 'console.log(1)'", ["node"], "uses `-e`"],
    ["a risky option (a file to write)", "git log --output=log.txt", ["git log"], "uses `--output=log.txt`"],
    ["sed in place", "sed -i s/a/b/ file.txt", ["sed"], "uses `-i`"],
    ["find -exec", "find . -name '*.tmp' -exec rm {} +", ["find"], "uses `-exec`"],
    ["a path outside the workspace", "cat ../other-project/notes.txt", ["cat"], "is outside the workspace"],
    ["an absolute path", "ls /etc", ["ls"], "is outside the workspace"],
    ["a home folder path", "cat ~/.ssh/id_rsa", ["cat"], "is in a home folder"],
  ])("%s: asks outside the sandbox, runs inside", async (_, command, allowed, why) => {
    const { plain, sandboxed } = await decideIn(command, allowed);
    expect(plain.kind).toBe("ask");
    expect(reasonOf(plain)).toContain(why);
    expect(sandboxed).toEqual({ kind: "allow" });
  });
});

describe("in the sandbox, the rest still holds", () => {
  it("the allowed list: an unlisted command asks", async () => {
    const { sandboxed } = await decideIn("curl example.com", ["ls"]);
    expect(sandboxed).toEqual({ kind: "ask", reason: "`curl example.com` is not on the allowed command list." });
  });

  it("the denied list: a denied command asks, and is refused with refuseDenied", async () => {
    expect(reasonOf((await decideIn("rm -rf build > log", ["*"], ["rm -rf"])).sandboxed)).toBe('`rm -rf build > log` matches the denied command prefix "rm -rf".');
    const refusing = inSandbox(approving(["command"], { allowed: ["*"], denied: ["rm -rf"], refuseDenied: true }));
    expect(decideFresh(await commandCall("rm -rf build", inside("."), judge), refusing).kind).toBe("deny");
  });

  it("a command inside a command asks", async () => {
    expect(reasonOf((await decideIn("echo $(cat ~/.ssh/id_rsa) > out", ["echo", "cat"])).sandboxed)).toMatch(/runs another command inside it/);
  });

  it("a line that cannot be read safely asks", async () => {
    expect(reasonOf((await decideIn("echo 'unclosed > x", ["echo"])).sandboxed)).toMatch(/^The command could not be read safely/);
    expect(reasonOf((await decideIn("for f in a; do cat $f > x; done", ["cat"])).sandboxed)).toMatch(/^The command could not be read safely/);
  });

  it("a destructive command asks", async () => {
    expect(reasonOf((await decideIn("rm -rf ~", ["rm"])).sandboxed)).toMatch(/^This command is potentially destructive/);
  });

  it("a path hidden from Kiln asks, also after a path outside the workspace", async () => {
    for (const command of ["cat .env", "cat < .env", "cat ../notes.txt .env", "ls secrets/"]) {
      const { sandboxed } = await decideIn(command, ["cat", "ls"]);
      expect(reasonOf(sandboxed), command).toMatch(/hidden from Kiln by \.kilocodeignore/);
    }
  });

  it("a path known only when it runs asks: it could be a hidden one", async () => {
    expect((await decideIn("cat < $FILE", ["cat"])).sandboxed.kind).toBe("ask");
    expect((await decideIn("cat $FILE", ["cat"])).sandboxed.kind).toBe("ask");
  });

  it("a command folder outside the workspace, the command switch, the global switch and the limits still ask", async () => {
    const call = await commandCall("ls", outside("/srv"), judge);
    expect(reasonOf(decideFresh(call, inSandbox(commands(["ls"]))))).toMatch(/outside the workspace, and commands there/);
    const ls = await commandCall("ls > list.txt", inside("."), judge);
    expect(decideFresh(ls, inSandbox(approving(["read"], { allowed: ["ls"] }))).kind).toBe("ask");
    expect(decideFresh(ls, inSandbox(commands(["ls"], [], { enabled: false })))).toEqual({ kind: "ask", reason: "Auto-approve is turned off." });
    expect(decideFresh(ls, inSandbox(commands(["ls"], [], { maxRequests: 1 }))).kind).toBe("allow");
  });
});

describe("the sandbox on but not available here", () => {
  it("an allowed command asks, with the note as the reason", async () => {
    const call = await commandCall("ls", inside("."), judge);
    expect(decideFresh(call, commands(["ls"]))).toEqual({ kind: "allow" });
    expect(decideFresh(call, unavailable(commands(["ls"])))).toEqual({ kind: "ask", reason: NOTE });
    expect(decideFresh(call, unavailable(commands(["*"])))).toEqual({ kind: "ask", reason: NOTE });
  });

  it("a command that asks anyway keeps its reason and adds the note", async () => {
    const call = await commandCall("cat a > b", inside("."), judge);
    expect(decideFresh(call, unavailable(commands(["cat"])))).toEqual({ kind: "ask", reason: `\`cat a > b\` writes to b by redirection, which the allowed prefix does not cover. ${NOTE}` });
  });

  it("does not loosen anything, and a refusal stays a refusal", async () => {
    const call = await commandCall("cat ../x", inside("."), judge);
    expect(reasonOf(decideFresh(call, unavailable(commands(["cat"]))))).toContain("is outside the workspace");
    const refusing = unavailable(approving(["command"], { allowed: ["*"], denied: ["rm -rf"], refuseDenied: true }));
    expect(decideFresh(await commandCall("rm -rf build", inside("."), judge), refusing).kind).toBe("deny");
  });

  it("other tools are not affected", () => {
    expect(decideFresh(readCall(inside("a.ts")), unavailable(approving(["read"])))).toEqual({ kind: "allow" });
  });
});
