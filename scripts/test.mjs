// Runs every suite and ends with one line: `N passed, N failed` (all suites summed).
// Steps: tools (code-server + chromium, cached), typecheck, lint, build + package, unit/integration
// (vitest), VS Code extension host (code-server), e2e (Chromium drives code-server with the vsix).
// `npm test -- unit e2e` runs only the named suites (the steps before them always run).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = join(root, "test-results");
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0 };
const summary = [];
const started = Date.now();

function step(name, command, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${[command, ...args].join(" ")}`);
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  return { ok: run.status === 0, seconds };
}

/** A step that must work for the suites to mean anything; its failure counts as one failed test. */
function prerequisite(name, command, args, env) {
  const { ok, seconds } = step(name, command, args, env);
  summary.push(`${name}: ${ok ? "ok" : "FAILED"} (${seconds} s)`);
  if (!ok) {
    totals.failed += 1;
    finish();
  }
}

function vitestCounts(file) {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, "utf8"));
  return { passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) };
}

function suite(name, command, args, countsFile, readCounts, env) {
  if (only.length > 0 && !only.includes(name)) return;
  const { ok, seconds } = step(name, command, args, env);
  const counts = readCounts(countsFile);
  if (!counts) {
    // A suite that crashed before reporting is a failure, never zero tests.
    totals.failed += 1;
    summary.push(`${name}: no results (${seconds} s)`);
    return;
  }
  let failed = counts.failed;
  if (!ok && failed === 0) failed = 1;
  totals.passed += counts.passed;
  totals.failed += failed;
  summary.push(`${name}: ${counts.passed} passed, ${failed} failed (${seconds} s)`);
}

function finish() {
  console.log("\n=== summary");
  for (const line of summary) console.log(`  ${line}`);
  console.log(`  total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
}

prerequisite("tools", "bash", [join(root, "scripts", "setup-tools.sh")]);
prerequisite("typecheck", "npm", ["run", "--silent", "typecheck"]);
// The layer zones of docs/architecture.md and the floating-promise rule: a breach fails CI.
prerequisite("lint", "npm", ["run", "--silent", "lint"]);
prerequisite("package", "npm", ["run", "--silent", "package"]);
// After packaging (a production build): development bundles with source maps, plus the test bundles.
prerequisite("test build", process.execPath, [join(root, "esbuild.mjs"), "--tests"]);

const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
const vitestArgs = (report, config = []) => [vitest, "run", ...config, "--reporter=default", "--reporter=json", `--outputFile=${join(results, report)}`];

suite("unit", process.execPath, vitestArgs("unit.json"), join(results, "unit.json"), vitestCounts);
suite("vscode", process.execPath, [join(root, "test", "vscode", "run.mjs"), join(results, "vscode.json")], join(results, "vscode.json"), (file) => {
  if (!existsSync(file) || readFileSync(file, "utf8").trim() === "") return undefined;
  const { passed, failed } = JSON.parse(readFileSync(file, "utf8"));
  return { passed, failed };
});
suite("e2e", process.execPath, vitestArgs("e2e.json", ["-c", join(root, "test", "e2e", "vitest.config.mts")]), join(results, "e2e.json"), vitestCounts);

finish();
