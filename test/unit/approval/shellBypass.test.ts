/**
 * The ways issue 14 found to get a command past an allowed prefix, and their kin: each must ask.
 * The paths are judged as in the builders (under /ws is inside); links are tested through the
 * pipeline on real files elsewhere.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS } from "../../../src/core/approval/settings";
import { commandCall, commands, decideFresh, reasonOf } from "./builders";

const judge = async (command: string, allowed: readonly string[] = DEFAULT_ALLOWED_COMMANDS) => decideFresh(await commandCall(command), commands(allowed, DEFAULT_DENIED_COMMANDS));

describe("a second command hidden from the prefix match", () => {
  it.each([
    ["a comment hiding a newline", "git status #'\npwned\n#'", ["git status"]],
    ["a comment ending in a backslash", "ls #\\\npwned", ["ls"]],
    ["&>, which dash reads as & and >", "npm test &>/dev/null pwned", ["npm test"]],
    ["a here-document whose body hides the next line", "ls <<EOF\nls '\nEOF\npwned\nls #'", ["ls"]],
    ["bash's $'…' quoting", "ls $'\\''\npwned\nls '", ["ls"]],
    ["a path that climbs out of an allowed script folder", "./scripts/../pwned-outside.sh", ["./scripts/"]],
    ["a carriage return", "ls\rpwned", ["ls"]],
    ["history expansion", "ls !!", ["ls"]],
    ["brace expansion into an option", "git log --{output,x}=/tmp/f", ["git log"]],
    ["a variable holding the command", "$CMD status", ["git status"]],
    ["a redirection's extra word", "ls > /dev/null; pwned", ["ls"]],
  ])("%s asks", async (_, command, allowed) => {
    expect((await judge(command, allowed)).kind).toBe("ask");
  });
});

describe("options of allowed tools that write, run code or read outside", () => {
  it.each([
    ["git log --output=../x", "--output=../x"],
    ["git log --outp=x", "--outp=x"],
    ["git diff --output x", "--output"],
    ["git -c core.pager=pwned log", "-c"],
    ["git -C /etc log", "-C"],
    ["git diff --no-index /etc/passwd a", "--no-index"],
    ["git log --ext-diff", "--ext-diff"],
    ['npm test --node-options="--import data:text/javascript,x"', "--node-options=--import data:text/javascript,x"],
    ["npm run build --script-shell=./evil.sh", "--script-shell=./evil.sh"],
  ])("%s asks, naming %s", async (command, option) => {
    const decision = await judge(command, ["git", "npm test", "npm run"]);
    expect(decision.kind).toBe("ask");
    expect(reasonOf(decision)).toContain(`uses \`${option}\``);
  });

  it.each([
    ["find . -exec pwned {} ;", ["find"]],
    ["find . -delete", ["find"]],
    ["rg --pre ./pwned x", ["rg"]],
    ["sed -ni s/a/b/ file", ["sed"]],
    ["node -e 'require(1)'", ["node"]],
    ["sort -o out in", ["sort"]],
    ["tar --to-command=pwned -xf a.tar", ["tar"]],
  ])("%s asks", async (command, allowed) => {
    expect((await judge(command, allowed)).kind).toBe("ask");
  });

  it("npm hands the words after -- to the script, where they are the script's business", async () => {
    expect((await judge("npm test -- --output=coverage", ["npm test"])).kind).toBe("allow");
  });
});

describe("paths outside the workspace", () => {
  it.each([
    "cat /etc/passwd",
    "cat ../other-project/.env",
    "ls ~",
    "cat ~/.ssh/id_rsa",
    "ls /",
    "cat /proc/1/environ",
    "cat < /etc/passwd",
    "cd .. && cat secret.txt",
    "cd /etc && cat passwd",
    "ls ../*",
    "cat -- /etc/hostname",
    "git diff --relative=/etc",
    "ls -- -/../../etc",
    "cat -I/etc/passwd",
  ])("%s asks", async (command) => {
    const decision = await judge(command, [...DEFAULT_ALLOWED_COMMANDS, "cd"]);
    expect(decision.kind).toBe("ask");
    expect(reasonOf(decision)).toMatch(/outside the workspace|home folder|cannot check|cannot know/);
  });

  it.each(["cat $HOME/.env", "cat /proc/$PPID/environ", 'cat "$(echo /etc/passwd)"'])("%s asks: its path is known only when it runs", async (command) => {
    expect((await judge(command)).kind).toBe("ask");
  });

  it.each([
    "ls -la",
    "ls src",
    "cat package.json",
    "cat src/a.ts | grep x",
    "git log --oneline -5",
    "git diff HEAD~1",
    "git status",
    "npm test 2>&1 | cat",
    "npm run lint",
    "ls *.ts",
    "ls src/*/index.ts",
    "cat ./src/../README.md",
    "echo hi > /dev/null",
    "cd src && ls",
  ])("%s is still allowed", async (command) => {
    expect(await judge(command, [...DEFAULT_ALLOWED_COMMANDS, "npm test", "npm run", "grep", "cd"])).toEqual({ kind: "allow" });
  });
});
