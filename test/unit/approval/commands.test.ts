import { describe, expect, it } from "vitest";
import { longestPrefix, redirectTarget, splitCommand, unwrapped } from "../../../src/core/approval/commands";

/** The simple commands a line runs, as the policy judges them. */
const texts = (command: string): string[] => splitCommand(command).parts.map((p) => p.text);
/** The one part of a single simple command. */
const only = (command: string) => {
  const { parts } = splitCommand(command);
  expect(parts).toHaveLength(1);
  return parts[0]!;
};

describe("splitCommand: the simple commands a line runs", () => {
  it.each([
    ["&&", "npm test && rm -rf build", ["npm test", "rm -rf build"]],
    ["||", "make || rm -rf build", ["make", "rm -rf build"]],
    [";", "ls; rm -rf build", ["ls", "rm -rf build"]],
    ["|", "cat log | grep error", ["cat log", "grep error"]],
    ["|& (pipe with stderr)", "make |& tee log", ["make", "tee log"]],
    ["& (background)", "sleep 5 & rm -rf build", ["sleep 5", "rm -rf build"]],
    ["newline", "ls\nrm -rf build", ["ls", "rm -rf build"]],
    ["carriage return", "ls\r\nrm -rf build", ["ls", "rm -rf build"]],
    ["subshell parentheses", "(cd app; rm -rf build)", ["cd app", "rm -rf build"]],
    ["no spaces around operators", "ls&&pwd||echo x;cat y|wc", ["ls", "pwd", "echo x", "cat y", "wc"]],
  ])("splits on %s", (_, command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it("collapses whitespace and drops empty commands", () => {
    expect(texts("  ls   -la \t ;;  ")).toEqual(["ls -la"]);
    expect(texts("")).toEqual([]);
    expect(texts("  ;  && ")).toEqual([]);
  });

  it("joins a backslash-newline continuation into one command", () => {
    expect(texts("ls \\\n  -la")).toEqual(["ls -la"]);
  });

  it.each([
    ["single quotes", "echo 'a && rm -rf b; c | d'", ["echo 'a && rm -rf b; c | d'"]],
    ["double quotes", 'git commit -m "fix; then (rm) & more" && ls', ['git commit -m "fix; then (rm) & more"', "ls"]],
    ["a backslash", "echo a\\;rm -rf b", ["echo a\\;rm -rf b"]],
  ])("does not split on operators inside %s", (_, command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it.each([
    ["2>&1", "npm test 2>&1 | tail", ["npm test 2>&1", "tail"]],
    ["&>", "make &> log && ls", ["make &> log", "ls"]],
    [">&", "make >& log && ls", ["make >& log", "ls"]],
    ["<&", "cat <&3 ; ls", ["cat <&3", "ls"]],
    [">| (clobber)", "echo x >| out && ls", ["echo x >| out", "ls"]],
  ])("keeps the redirection %s inside its command", (_, command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it("treats an escaped > before & as text, so the & still ends the command", () => {
    expect(texts("echo a \\>& rm -rf b")).toEqual(["echo a \\>", "rm -rf b"]);
    expect(texts("echo a \\>| rm -rf b")).toEqual(["echo a \\>", "rm -rf b"]);
  });

  it.each([
    ["if/then/fi", "if true; then rm -rf b; fi", ["true", "rm -rf b"]],
    ["while/do/done", "while true; do ls; done", ["true", "ls"]],
    ["braces", "{ ls; rm -rf b; }", ["ls", "rm -rf b"]],
    ["negation", "! rm -rf b", ["rm -rf b"]],
    ["else/elif", "if a; then b; elif c; then d; else rm -rf e; fi", ["a", "b", "c", "d", "rm -rf e"]],
  ])("drops the grouping words of %s so the command that runs is judged", (_, command, parts) => {
    expect(texts(command)).toEqual(parts);
  });

  it("keeps a quoted grouping word, which the shell runs as a command", () => {
    expect(texts("'then' x")).toEqual(["'then' x"]);
  });

  it.each([
    ["$(…)", "echo $(whoami)"],
    ["backticks", "echo `whoami`"],
    ["<(…)", "diff <(ls a) <(ls b)"],
    [">(…)", "tee >(grep x) < log"],
    ["$(…) inside double quotes", 'echo "user: $(whoami)"'],
    ["backticks inside double quotes", 'echo "user: `whoami`"'],
  ])("flags %s as substitution", (_, command) => {
    expect(splitCommand(command).substitution).toBe(true);
  });

  it.each([
    ["single quotes", "echo '$(whoami) `id`'"],
    ["an escaped dollar", "echo \\$(whoami)"],
    ["a plain subshell", "(cd a && ls)"],
    ["a dollar variable", "echo $HOME ${PATH}"],
  ])("does not flag %s as substitution", (_, command) => {
    expect(splitCommand(command).substitution).toBe(false);
  });

  it("still shows the deny list the command inside a substitution", () => {
    expect(texts("echo $(rm -rf build)")).toContain("rm -rf build");
    expect(texts("echo `rm -rf build`")).toContain("rm -rf build");
  });

  it.each([
    ["single", "echo 'unfinished", "it has an unclosed single quote"],
    ["double", 'git commit -m "unfinished', "it has an unclosed double quote"],
  ])("reports an unclosed %s quote", (_, command, error) => {
    expect(splitCommand(command).error).toBe(error);
  });

  it.each([["echo \"it's\""], ["echo 'say \"hi\"'"], ['echo "a \\" b"']])("reads %s as closed", (command) => {
    expect(splitCommand(command).error).toBeUndefined();
  });

  it("blanks quoted text in bare, word for word with text", () => {
    const part = only('echo "a > b" x');
    expect(part.text).toBe('echo "a > b" x');
    expect(part.bare).not.toContain(">");
    expect(part.bare.split(" ")).toHaveLength(part.text.split(" ").length);
  });
});

describe("unwrapped: the command behind wrappers, for the deny list", () => {
  it.each([
    ["sudo rm -rf b", "rm -rf b"],
    ["doas rm -rf b", "rm -rf b"],
    ["env X=1 rm -rf b", "rm -rf b"],
    ["FOO=1 BAR=two rm -rf b", "rm -rf b"],
    ["timeout 10s rm -rf b", "rm -rf b"],
    ["timeout --signal=KILL 5m rm -rf b", "rm -rf b"],
    ["nice -n 5 rm -rf b", "rm -rf b"],
    ["nohup rm -rf b", "rm -rf b"],
    ["time rm -rf b", "rm -rf b"],
    ["xargs -n 1 rm -rf", "rm -rf"],
    ["command rm -rf b", "rm -rf b"],
    ["sudo -E env X=1 nice -n 5 timeout 10 rm -rf b", "rm -rf b"],
    ['FOO="a b c" rm -rf b', "rm -rf b"],
    ["X='a b' sudo rm -rf b", "rm -rf b"],
  ])("%s runs %s", (command, inner) => {
    expect(unwrapped(only(command))).toBe(inner);
  });

  it.each([
    ["a plain command", "ls -la"],
    ["a number argument of a plain command", "head 10 file"],
    ["a flag of a plain command", "git -C sub status"],
  ])("leaves %s as it is", (_, command) => {
    expect(unwrapped(only(command))).toBe(command);
  });

  it("does not take a command's own flags and numbers for a wrapper's", () => {
    expect(unwrapped(only("rm -rf 10"))).toBe("rm -rf 10");
  });

  it("does not read a quoted wrapper name as a wrapper", () => {
    expect(unwrapped(only("'sudo' rm -rf b"))).toBe("'sudo' rm -rf b");
  });

  it("is empty when only wrappers and assignments are left", () => {
    expect(unwrapped(only("sudo env X=1"))).toBe("");
  });
});

describe("redirectTarget: the file an output redirection writes", () => {
  const target = (command: string) => redirectTarget(only(command));

  it.each([
    ["cat a > b", "b"],
    ["cat a>b", "b"],
    ["echo x >> log.txt", "log.txt"],
    ["make 2> errors.txt", "errors.txt"],
    ["make &> all.log", "all.log"],
    ["make &>> all.log", "all.log"],
    ["echo x >| out", "out"],
    ["make >& out", "out"],
    ["make >&out", "out"],
    ["echo x > 1", "1"],
    ["cat a > /dev/null > real", "real"],
    ["cat a > 'quoted name'", "'quoted"],
  ])("%s writes %s", (command, file) => {
    expect(target(command)).toBe(file);
  });

  it.each([
    ["2>&1", "npm test 2>&1"],
    [">&2", "echo oops >&2"],
    ["1>&2", "echo oops 1>&2"],
    [">&- (closed)", "echo x >&-"],
    [">/dev/null", "ls >/dev/null"],
    ["2>/dev/null", "ls 2>/dev/null"],
    ["&>/dev/null", "ls &> /dev/null"],
    [">/dev/stderr", "echo x > /dev/stderr"],
    ["an input redirection", "wc -l < input.txt"],
    ["> inside quotes", 'echo "a > b"'],
    ["an escaped >", "echo a \\> b"],
    ["no redirection", "ls -la"],
  ])("finds no file in %s", (_, command) => {
    expect(target(command)).toBeUndefined();
  });
});

describe("longestPrefix: matching command prefixes", () => {
  it.each([
    ["ls -la", ["ls"], "ls"],
    ["ls", ["ls"], "ls"],
    ["lsof -i", ["ls"], undefined],
    ["npm run-script x", ["npm run"], undefined],
    ["npm run build", ["npm run"], "npm run"],
    ["git log --oneline", ["git log --"], "git log --"],
    ["git push --force", ["git push --"], "git push --"],
    ["rm -rf build", ["rm -"], "rm -"],
    ["./scripts/build.sh", ["./scripts/"], "./scripts/"],
    ["./scripts-old/x.sh", ["./scripts"], undefined],
    ["cat-file x", ["cat"], undefined],
    ["anything at all", ["*"], "*"],
    ["", ["*"], "*"],
    ["pwd", [], undefined],
  ])("%j against %j → %j", (text, prefixes, expected) => {
    expect(longestPrefix(text, prefixes)).toBe(expected);
  });

  it("picks the longest matching prefix, whatever the order", () => {
    expect(longestPrefix("git push --force origin", ["git", "git push --force", "git push"])).toBe("git push --force");
    expect(longestPrefix("git push origin", ["git push --force", "git", "git push"])).toBe("git push");
  });

  it("counts * as shorter than any named prefix", () => {
    expect(longestPrefix("ls -la", ["ls", "*"])).toBe("ls");
    expect(longestPrefix("pwd", ["ls", "*"])).toBe("*");
  });

  it("normalises the whitespace of a listed prefix and ignores blank ones", () => {
    expect(longestPrefix("git status -s", ["  git   status  "])).toBe("git status");
    expect(longestPrefix("ls", ["", "   "])).toBeUndefined();
  });

  it("is case-sensitive, like the shell", () => {
    expect(longestPrefix("LS", ["ls"])).toBeUndefined();
  });
});
