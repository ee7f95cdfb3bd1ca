import { describe, expect, it } from "vitest";
import { denyReadings, longestPrefix, redirectTarget } from "../../../src/core/approval/commands";
import { analyzeCommand } from "../../../src/core/approval/shell/analyze";

/** The simple commands a line runs, as the shell passes their words. */
const words = async (command: string) => (await analyzeCommand(command)).commands.map((c) => c.words.map((w) => w.value ?? `?${w.raw}`).join(" "));
const only = async (command: string) => {
  const { commands } = await analyzeCommand(command);
  expect(commands).toHaveLength(1);
  return commands[0]!;
};
/** Everything the analysis did not understand, unreadable parts included. */
const unsafe = async (command: string) => {
  const analysis = await analyzeCommand(command);
  return [...analysis.unsafe, ...(analysis.unreadable ? [analysis.unreadable] : [])];
};

describe("analyzeCommand: the simple commands a line runs", () => {
  it.each([
    ["&&", "npm test && rm -rf build", ["npm test", "rm -rf build"]],
    ["||", "make || rm -rf build", ["make", "rm -rf build"]],
    [";", "ls; rm -rf build", ["ls", "rm -rf build"]],
    ["|", "cat log | grep error", ["cat log", "grep error"]],
    ["|& (pipe with stderr)", "make |& tee log", ["make", "tee log"]],
    ["& (background)", "sleep 5 & rm -rf build", ["sleep 5", "rm -rf build"]],
    ["newline", "ls\nrm -rf build", ["ls", "rm -rf build"]],
    ["subshell parentheses", "(cd app; rm -rf build)", ["cd app", "rm -rf build"]],
    ["braces", "{ ls; rm -rf b; }", ["ls", "rm -rf b"]],
    ["negation", "! rm -rf b", ["rm -rf b"]],
    ["no spaces around operators", "ls&&pwd||echo x;cat y|wc", ["ls", "pwd", "echo x", "cat y", "wc"]],
  ])("splits on %s", async (_, command, parts) => {
    expect(await words(command)).toEqual(parts);
  });

  it("joins a backslash-newline continuation into one command", async () => {
    expect(await words("ls \\\n  -la")).toEqual(["ls -la"]);
  });

  it.each([
    ["single quotes", "echo 'a && rm -rf b; c | d'", ["echo a && rm -rf b; c | d"]],
    ["double quotes", 'git commit -m "fix; then (rm) & more" && ls', ["git commit -m fix; then (rm) & more", "ls"]],
    ["a backslash", "echo a\\;rm -rf b", ["echo a;rm -rf b"]],
  ])("does not split on operators inside %s, and passes the words unquoted", async (_, command, parts) => {
    expect(await words(command)).toEqual(parts);
  });

  it("keeps a quoted grouping word, which the shell runs as a command", async () => {
    expect(await words("'then' x")).toEqual(["then x"]);
  });

  it.each([
    ["$(…)", "echo $(whoami)"],
    ["backticks", "echo `whoami`"],
    ["<(…)", "diff <(ls a) <(ls b)"],
    ["$(…) inside double quotes", 'echo "user: $(whoami)"'],
    ["backticks inside double quotes", 'echo "user: `whoami`"'],
    ["$(…) in an expansion's default", "echo ${X:-$(whoami)}"],
    ["$(…) in an unquoted here-document", "cat <<EOF\n$(whoami)\nEOF"],
  ])("flags %s as substitution and still lists the command inside", async (_, command) => {
    const analysis = await analyzeCommand(command);
    expect(analysis.substitution).toBe(true);
    expect(analysis.commands.some((c) => c.nested)).toBe(true);
  });

  it.each([
    ["single quotes", "echo '$(whoami) `id`'"],
    ["an escaped dollar", "echo \\$(whoami)"],
    ["a plain subshell", "(cd a && ls)"],
    ["a quoted here-document", "cat <<'EOF'\n$(whoami)\nEOF"],
  ])("does not flag %s as substitution", async (_, command) => {
    expect((await analyzeCommand(command)).substitution).toBe(false);
  });

  it.each([
    ["a comment", "git status # fine", "comment"],
    ["a comment hiding a newline", "git status #'\npwned\n#'", "comment"],
    ["$'…' quoting", "ls $'\\''\npwned\nls '", "$'…'"],
    ["&>", "npm test &>/dev/null pwned", "`&>`"],
    ["a history `!`", "ls !-1", "history"],
    ["brace expansion", "git log --{output,x}=f", "brace expansion"],
    ["a variable", "echo $HOME", "`$HOME`"],
    ["arithmetic", "echo $((1+2))", "arithmetic"],
    ["a lone carriage return", "ls\rpwned", "control characters"],
    ["a standalone assignment", "PATH=.; ls", "variable assignment"],
    ["a function", "f() { ls; }; f", "function"],
    ["an unclosed quote", "echo 'unfinished", "could not read"],
  ])("names %s as not understood", async (_, command, named) => {
    expect((await unsafe(command)).join(" ")).toContain(named);
  });

  it.each(["ls -la", "git status", "npm test 2>&1 | tail -5", "cat <<'EOF'\nhello $x\nEOF", 'echo "it\'s" \'say "hi"\'', 'git commit -m "a \\" b"'])("understands %j", async (command) => {
    expect(await unsafe(command)).toEqual([]);
  });

  it("names a zsh `=word` expansion as not understood", async () => {
    expect((await unsafe("cat =ssh")).join(" ")).toContain("zsh");
  });

  it("on Windows reads only lines of plain words: cmd.exe and PowerShell quote and expand their own ways", async () => {
    expect((await analyzeCommand("git status", "win32")).unreadable).toBeUndefined();
    expect((await analyzeCommand("npm run build -- --env=prod", "win32")).unreadable).toBeUndefined();
    for (const line of ["git status ^& pwned", "echo %PATH%", "ls; pwned", 'echo "a" & pwned', "ls `npwned", "dir $(pwned)"]) {
      expect((await analyzeCommand(line, "win32")).unreadable).toContain("on Windows");
    }
  });

  it("reads an argument after a redirection as bash does: `npm test >log x` passes x to npm", async () => {
    expect(await words("npm test >log x")).toEqual(["npm test x"]);
  });

  it("reads a here-document body as the command's input, and the lines after it as commands", async () => {
    expect(await words("ls <<EOF\nls '\nEOF\npwned\nls #'")).toEqual(["ls", "pwned", "ls"]);
  });
});

describe("denyReadings: what the deny list sees", () => {
  const readings = async (command: string) => denyReadings(await only(command)).map((r) => r.join(" "));

  it.each([
    ["sudo rm -rf b", "rm -rf b"],
    ["env X=1 rm -rf b", "rm -rf b"],
    ["FOO=1 BAR=two rm -rf b", "rm -rf b"],
    ["timeout --signal=KILL 5m rm -rf b", "rm -rf b"],
    ["nice -n 5 rm -rf b", "rm -rf b"],
    ["xargs -n 1 rm -rf", "rm -rf"],
    ["sudo -E env X=1 nice -n 5 timeout 10 rm -rf b", "rm -rf b"],
    ['FOO="a b c" rm -rf b', "rm -rf b"],
    ["/bin/rm -rf b", "rm -rf b"],
    ["'sudo' rm -rf b", "rm -rf b"],
  ])("%s is read as %s", async (command, inner) => {
    expect(await readings(command)).toContain(inner);
  });
});

describe("redirectTarget: the file an output redirection writes", () => {
  const target = async (command: string) => redirectTarget(await only(command));

  it.each([
    ["cat a > b", "b"],
    ["cat a>b", "b"],
    ["echo x >> log.txt", "log.txt"],
    ["make 2> errors.txt", "errors.txt"],
    ["echo x >| out", "out"],
    ["make >& out", "out"],
    ["echo x > 1", "1"],
    ["cat a > /dev/null > real", "real"],
    ["cat a > 'quoted name'", "'quoted name'"],
  ])("%s writes %s", async (command, file) => {
    expect(await target(command)).toBe(file);
  });

  it.each([
    ["2>&1", "npm test 2>&1"],
    [">&2", "echo oops >&2"],
    [">&- (closed)", "echo x >&-"],
    [">/dev/null", "ls >/dev/null"],
    ["an input redirection", "wc -l < input.txt"],
    ["> inside quotes", 'echo "a > b"'],
    ["an escaped >", "echo a \\> b"],
  ])("finds no file in %s", async (_, command) => {
    expect(await target(command)).toBeUndefined();
  });
});

describe("longestPrefix: matching command prefixes by words", () => {
  const match = (text: string, prefixes: string[]) => longestPrefix([text.split(" ").filter(Boolean)], prefixes);

  it.each([
    ["ls -la", ["ls"], "ls"],
    ["lsof -i", ["ls"], undefined],
    ["npm run-script x", ["npm run"], undefined],
    ["git log --oneline", ["git log --"], "git log --"],
    ["./scripts/build.sh", ["./scripts/"], "./scripts/"],
    ["scripts/build.sh", ["./scripts/"], "./scripts/"],
    ["./scripts/../pwned.sh", ["./scripts/"], undefined],
    ["./scripts/a/../../pwned.sh", ["./scripts/"], undefined],
    ["./scripts-old/x.sh", ["./scripts"], undefined],
    ["anything at all", ["*"], "*"],
    ["pwd", [], undefined],
  ])("%j against %j → %j", (text, prefixes, expected) => {
    expect(match(text, prefixes)).toBe(expected);
  });

  it("picks the longest matching prefix, whatever the order", () => {
    expect(match("git push --force origin", ["git", "git push --force", "git push"])).toBe("git push --force");
  });

  it("normalises the whitespace of a listed prefix and ignores blank ones", () => {
    expect(match("git status -s", ["  git   status  "])).toBe("git status");
    expect(match("ls", ["", "   "])).toBeUndefined();
  });

  it("is case-sensitive for the allow list, like the shell; the deny list can ask for either case", () => {
    expect(match("LS", ["ls"])).toBeUndefined();
    expect(longestPrefix([["RM", "-rf", "x"]], ["rm -rf"], true)).toBe("rm -rf");
  });
});
