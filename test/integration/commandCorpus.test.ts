/**
 * The command policy against the shells themselves: thousands of lines built from allowed prefixes
 * joined to a forbidden command (`pwned`) by every shell construct, each run under bash and dash in
 * a throwaway folder. A line the policy auto-approves that makes either shell run `pwned` fails the
 * suite. The corpus must also be a real attack: most lines do run `pwned` when nothing stops them.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide } from "../../src/core/approval/policy";
import { readCommand } from "../../src/core/approval/shell";
import { settingsFromWords } from "../../src/core/approval/settings";

/** Allowed commands, as a user would write the list; `ok` and `also` are harmless stand-ins. */
const ALLOWED = ["ok", "also run", "ls", "echo", "git status", "./scripts/"];
const STARTS = ["ok", "ok -v", "also run x", "ls", "echo hi", "git status", "./scripts/ok.sh"];
const PWNED = ["pwned", "'pwned'", '"pwned"', "pw\\ned", "p'w'ned", "./scripts/../pwned.sh"];

/** A is an allowed start, P the forbidden command. */
const TEMPLATES = [
  "A; P",
  "A;P",
  "A && P",
  "A&&P",
  "A || P",
  "false || P",
  "A | P",
  "A|P",
  "A |& P",
  "A & P",
  "A&P",
  "A\nP",
  "A\r\nP",
  "A &&\nP",
  "A |\nP",
  "A ||\nP",
  "(P)",
  "A; (P)",
  "{ P; }",
  "A && { P; }",
  "A $(P)",
  "A `P`",
  'A "$(P)"',
  'A "`P`"',
  "A <(P)",
  "A >(P)",
  "A < <(P)",
  "A ${X:-$(P)}",
  "A $((0))$(P)",
  "A #\nP",
  "A #'\nP\n#'",
  "A #\\\nP",
  "A # \\\nP",
  "A &>/dev/null P",
  "A &> /dev/null; P",
  "A <<EOF\nA '\nEOF\nP\nA #'",
  "A <<'EOF'\nx\nEOF\nP",
  "A <<-EOF\n\tx\n\tEOF\nP",
  "A <<EOF\n$(P)\nEOF",
  "A $'\\''\nP\nA '",
  "A $'\\n'; P",
  'A $"x"; P',
  "A \\\nP",
  "A\\\n;P",
  "A \\;P",
  "A ';'P",
  "A > /dev/null; P",
  "A 2>&1; P",
  "A >&2 && P",
  "A <<< x; P",
  "A <<< $(P)",
  "X=$(P) A",
  "A >$(P)",
  "! A; P",
  "A ! P",
  "if A; then P; fi",
  "while false; do A; done; P",
  "for i in 1; do P; done",
  "f() { P; }; f",
  "A | xargs P",
  "env P",
  "A && exec P",
  "A {P,}",
  "A\tP",
  "A\vP; P",
  "A\fP; P",
  "A -- ; P",
  "A --x=$(P)",
  "A '$(P)'",
  'A "\\$(P)"',
  "A \\$(P)",
  "A ; P #",
  "A #; P",
  "A\n#\nP",
  "A ; ; P",
  "A && P &",
  "A ; eval P",
  "A ; . ./P.sh",
];

/** Lines that must not run `pwned` yet are understood: the corpus also checks Kiln still allows plain work. */
const HARMLESS = ["ok", "ok -v && also run x", "ls | echo hi", "echo 'a; pwned'", 'echo "a && pwned"', "ok \\;pwned", "git status", "./scripts/ok.sh"];

let root: string;
let bin: string;
let marks: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-corpus-"));
  bin = join(root, "bin");
  marks = join(root, "marks");
  const ws = join(root, "ws");
  for (const dir of [bin, marks, join(ws, "scripts")]) mkdirSync(dir, { recursive: true });
  const script = (path: string, body: string) => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  };
  // pwned leaves a mark named after the line that ran it, however it was reached.
  const pwned = `: > "${marks}/$KILN_CASE"`;
  script(join(bin, "pwned"), pwned);
  script(join(root, "pwned.sh"), pwned);
  script(join(ws, "P.sh"), pwned);
  script(join(ws, "scripts", "ok.sh"), "exit 0");
  script(join(bin, "ok"), "exit 0");
  script(join(bin, "also"), "exit 0");
  // git is a stand-in too: no repository is needed to tell whether pwned ran.
  script(join(bin, "git"), "exit 0");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function corpus(): string[] {
  const lines = new Set<string>();
  for (const template of TEMPLATES) for (const a of STARTS) for (const p of PWNED) lines.add(template.replaceAll("A", a).replaceAll("P", p));
  return [...lines];
}

function runIn(shell: string, line: string, id: string): void {
  spawnSync(shell, ["-c", line], {
    cwd: join(root, "ws"),
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root, KILN_CASE: id },
    timeout: 5000,
    stdio: "ignore",
  });
}

/** One line in this many that the policy refuses is run anyway, to show the corpus attacks. */
const SAMPLE = 13;

const settings = settingsFromWords(["command"], { allowed: ALLOWED });
const FRESH = { autoApprovedRequests: 0, costSoFar: 0 };
const ws = () => join(root, "ws");

async function allowed(line: string): Promise<boolean> {
  const command = await readCommand(line, ws(), async (absolute, written) => (absolute.startsWith(ws()) ? undefined : `\`${written}\` is outside the workspace`));
  return decide({ tool: "execute_command", group: "command", paths: [], protectedPaths: [], command }, settings, FRESH).kind === "allow";
}

describe("the command policy against bash and dash", () => {
  it("auto-approves no line that runs a command off the allowed list", { timeout: 240_000 }, async () => {
    const lines = corpus();
    expect(lines.length).toBeGreaterThan(2000);
    const approved = new Map<string, string>();
    for (const [i, line] of lines.entries()) {
      const yes = await allowed(line);
      if (yes) approved.set(String(i), line);
      // Every approved line runs in both shells; of the rest, a sample shows the corpus attacks
      // (running all of them would only slow the suite: the policy said no to those).
      if (yes || i % SAMPLE === 0) for (const shell of ["bash", "dash"]) runIn(shell, line, `${shell}-${i}`);
    }
    // Background jobs (`&`) may still be starting: give them a moment before reading the marks.
    await new Promise((r) => setTimeout(r, 500));
    const ran = readdirSync(marks).map((name) => ({ shell: name.split("-")[0]!, index: name.split("-")[1]! }));
    const breaches = ran.filter((r) => approved.has(r.index)).map((r) => `${r.shell}: ${JSON.stringify(approved.get(r.index))}`);
    expect(breaches).toEqual([]);
    // The corpus is an attack: without the policy most of its lines run pwned in one shell or both.
    const attacking = new Set(ran.filter((r) => Number(r.index) % SAMPLE === 0).map((r) => r.index));
    expect(attacking.size / Math.ceil(lines.length / SAMPLE)).toBeGreaterThan(0.5);
  });

  it("still auto-approves plain lines of allowed commands", async () => {
    for (const line of HARMLESS) expect({ line, allowed: await allowed(line) }).toEqual({ line, allowed: true });
  });
});
