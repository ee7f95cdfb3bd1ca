/**
 * Size sweeps: a function run at growing sizes, its time and peak memory at each, and the growth
 * exponent fitted over them (1 is linear, 2 quadratic). Each size runs in a fresh child process —
 * the bench bundle started again, told by an environment variable which point to run — so that its
 * peak RSS is its own and a quadratic point that never ends can be stopped. Prints numbers; asserts
 * nothing.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

export interface Sweep<Input> {
  /** Names the sweep in the output and to the child process. */
  title: string;
  sizes: readonly number[];
  /** How a size reads in the table (`256 KB`, `4k calls`). */
  label(size: number): string;
  /**
   * Builds the input, outside the time measured; a new one for each of the point's runs
   * (`attempt` 0, 1, …) where a cache would make a second run over the same input quicker.
   */
  prepare(size: number, attempt: number): Input;
  /** The work measured. What it returns beside the time (`{ "longest stall": "3 ms" }`) is printed as more columns. */
  run(input: Input): void | Record<string, string> | Promise<void | Record<string, string>>;
  /**
   * Small work of the same kind, repeated for WARM_UP_MS before the timed runs (`round` 0, 1, …):
   * lazy tables and JIT compilation are not the work measured.
   */
  warmUp?(round: number): void | Promise<void>;
}

interface PointResult {
  ms: number;
  /** User and system CPU time of the run: what other work on the machine does not inflate. */
  cpuMs: number;
  peakRssMb: number;
  extra: Record<string, string>;
}

const POINT_ENV = "KILN_BENCH_SWEEP_POINT";
/**
 * Runs per point, of which the quickest counts: the bench shares its cores with whatever else runs,
 * and a run of a few milliseconds is mostly noise. At least MIN_RUNS, more up to MAX_RUNS while the
 * point has taken less than RUN_FOR_MS in all.
 */
const MIN_RUNS = 3;
const MAX_RUNS = 15;
const RUN_FOR_MS = 1_000;
/**
 * V8 compiles hot code on a background thread; on a busy machine the optimized parser arrived only
 * after about a second of runs, so a point measured before that was up to 8 times slower.
 */
const WARM_UP_MS = 1_500;
/** A point still running after this is reported as such: the quadratic ones take minutes. */
const POINT_TIMEOUT_MS = 120_000;
const RESULT_PREFIX = "sweep-point-result:";

/**
 * In a child started by runSweeps, runs the one point it was started for, prints its result and
 * exits; in the parent, returns. Call it before any other bench, with every sweep.
 */
export async function runSweepPointIfChild(sweeps: readonly Sweep<unknown>[]): Promise<void> {
  const point = process.env[POINT_ENV];
  if (!point) return;
  const { title, size } = JSON.parse(point) as { title: string; size: number };
  const sweep = sweeps.find((s) => s.title === title);
  if (!sweep) throw new Error(`no sweep "${title}"`);
  const warmUpStart = performance.now();
  for (let round = 0; sweep.warmUp && (round === 0 || performance.now() - warmUpStart < WARM_UP_MS); round++) await sweep.warmUp(round);
  let best: Omit<PointResult, "peakRssMb"> = { ms: Infinity, cpuMs: Infinity, extra: {} };
  const began = performance.now();
  for (let attempt = 0; attempt < MIN_RUNS || (attempt < MAX_RUNS && performance.now() - began < RUN_FOR_MS); attempt++) {
    const input = sweep.prepare(size, attempt);
    (globalThis as { gc?: () => void }).gc?.();
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const extra = (await sweep.run(input)) ?? {};
    const cpu = process.cpuUsage(cpuStart);
    const ms = performance.now() - start;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    best = { ms: Math.min(best.ms, ms), cpuMs: Math.min(best.cpuMs, cpuMs), extra: ms < best.ms ? extra : best.extra };
  }
  const result: PointResult = { ...best, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
  process.exit(0);
}

/** Runs every point of each sweep in its own child process and prints a table per sweep. */
export function runSweeps(sweeps: readonly Sweep<unknown>[]): void {
  console.log(`\nScaling sweeps: per size the quickest of ${MIN_RUNS} to ${MAX_RUNS} runs (wall and CPU time) and the peak RSS, each size in a fresh process`);
  console.log(`(Node alone: ${baselineRssMb().toFixed(0)} MB). The exponent is fitted on CPU time, which other work on a shared machine does not inflate.`);
  for (const sweep of sweeps) {
    console.log(`\n${sweep.title}`);
    const points: [number, number][] = [];
    for (const size of sweep.sizes) {
      const result = runPoint(sweep.title, size);
      if (typeof result === "string") {
        console.log(`  ${sweep.label(size).padStart(12)} | ${result}`);
        continue;
      }
      points.push([size, result.cpuMs]);
      const extra = Object.entries(result.extra)
        .map(([name, value]) => ` | ${name} ${value}`)
        .join("");
      console.log(
        `  ${sweep.label(size).padStart(12)} | ${formatMs(result.ms).padStart(9)} | CPU ${formatMs(result.cpuMs).padStart(9)} | peak RSS ${result.peakRssMb.toFixed(0).padStart(5)} MB${extra}`,
      );
    }
    const exponent = points.length === sweep.sizes.length ? fitExponent(points) : undefined;
    console.log(`  fitted growth exponent: ${exponent === undefined ? "n/a (a point did not finish)" : exponent.toFixed(2)} (target <= 1.1)`);
  }
}

function runPoint(title: string, size: number): PointResult | string {
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], {
    env: { ...process.env, [POINT_ENV]: JSON.stringify({ title, size }) },
    encoding: "utf8",
    timeout: POINT_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.error && (child.error as NodeJS.ErrnoException).code === "ETIMEDOUT") return `not done after ${POINT_TIMEOUT_MS / 1000} s (stopped)`;
  const line = child.stdout.split("\n").find((l) => l.startsWith(RESULT_PREFIX));
  if (!line) return `failed (exit ${child.status ?? child.signal}): ${child.stderr.trim().split("\n").at(-1) ?? ""}`;
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as PointResult;
}

/** Peak RSS of a Node process that does nothing: the floor under every point's figure. */
function baselineRssMb(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], { encoding: "utf8" });
  return Number(child.stdout) / 1024;
}

/** Least-squares slope of log(time) against log(size): 1 is linear, 2 quadratic. */
export function fitExponent(points: readonly (readonly [size: number, ms: number])[]): number {
  const xs = points.map(([size]) => Math.log(size));
  const ys = points.map(([, ms]) => Math.log(ms));
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  xs.forEach((x, k) => {
    covariance += (x - meanX) * (ys[k]! - meanY);
    variance += (x - meanX) ** 2;
  });
  return covariance / variance;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
