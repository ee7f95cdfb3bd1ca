/**
 * The command policy's cost per command: reading the line with the shell grammar, looking up its
 * paths and deciding, against starting the shell that runs it (`/bin/sh -c true`), measured in the
 * same run. Target: the policy adds under 10% of what starting the shell costs. Prints numbers;
 * asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { decide } from "../../src/core/approval/policy";
import { readCommand } from "../../src/core/approval/shell";
import { DEFAULT_ALLOWED_COMMANDS, DEFAULT_DENIED_COMMANDS, settingsFromWords } from "../../src/core/approval/settings";

const LINES = [
  "git status",
  "npm test 2>&1 | tail -20",
  "ls -la src && cat package.json | grep version",
  "git log --oneline -10 -- src/core/approval",
  "cat <<'EOF' > notes.md\nsome text\nEOF",
  "find . -name '*.ts' -not -path './node_modules/*' | xargs wc -l",
];
const RUNS = 200;

export async function runCommandPolicyBench(): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), "kiln-policy-bench-"));
  const settings = settingsFromWords(["command"], { allowed: DEFAULT_ALLOWED_COMMANDS, denied: DEFAULT_DENIED_COMMANDS });
  const judge = async (absolute: string) => (absolute.startsWith(cwd) ? undefined : "outside");
  const once = async (line: string) =>
    decide({ tool: "execute_command", group: "command", paths: [], protectedPaths: [], command: await readCommand(line, cwd, judge) }, settings, { autoApprovedRequests: 0, costSoFar: 0 });
  for (const line of LINES) await once(line); // loads the grammar
  let started = performance.now();
  for (let i = 0; i < RUNS; i++) for (const line of LINES) await once(line);
  const policyMs = (performance.now() - started) / (RUNS * LINES.length);
  const shellRuns = 50;
  started = performance.now();
  for (let i = 0; i < shellRuns; i++) spawnSync("/bin/sh", ["-c", "true"]);
  const shellMs = (performance.now() - started) / shellRuns;
  console.log(
    `command policy: ${(policyMs * 1000).toFixed(0)} µs per command (read, paths, decide) vs ${(shellMs * 1000).toFixed(0)} µs to start /bin/sh: ${((policyMs / shellMs) * 100).toFixed(1)}% (target < 10%)`,
  );
}
