/**
 * applySearchReplace speed, printed beside a baseline measured in the same run: one exact
 * `indexOf` of each block's SEARCH text over the file, the least any search/replace must do.
 * Not a test: it prints numbers.
 */
import { performance } from "node:perf_hooks";
import { applySearchReplace } from "../../src/core/edit";

const FUNCTION_LINES = 8;

/** A TypeScript-like file of `lines` lines: small functions, each with its own names. */
function makeFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `export function handler${i}(input: string): string {`,
      `    const value${i} = compute(input, ${i});`,
      `    if (value${i} > ${i % 97}) {`,
      `        return format(value${i}, "${i}");`,
      "    }",
      `    return String(value${i});`,
      "}",
      "",
    );
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

type Kind = "exact" | "drifted" | "no hint";

/** The body lines of `count` functions spread over the file, as SEARCH/REPLACE blocks. */
function makeDiff(lines: number, count: number, kind: Kind): { diff: string; needles: string[] } {
  const functions = Math.floor(lines / FUNCTION_LINES);
  const blocks: string[] = [];
  const needles: string[] = [];
  for (let b = 0; b < count; b++) {
    const i = Math.floor(((b + 0.5) * functions) / count);
    const body = [`    const value${i} = compute(input, ${i});`, `    if (value${i} > ${i % 97}) {`, `        return format(value${i}, "${i}");`, "    }"];
    needles.push(body.join("\n"));
    // Drifted: written two spaces per level with no base indentation, as models often do.
    const search = kind === "exact" ? body : body.map((line) => line.replace(/^( {4})+/, (s) => " ".repeat(s.length / 2 - 2)));
    const replace = [...search.slice(0, 2), search[2]!.replace("format(", "formatChecked("), search[3]!];
    const hint = kind === "no hint" ? "" : `:start_line:${i * FUNCTION_LINES + 2}\n`;
    blocks.push(`<<<<<<< SEARCH\n${hint}-------\n${search.join("\n")}\n=======\n${replace.join("\n")}\n>>>>>>> REPLACE`);
  }
  // Written bottom first, as a model fixing things it found from the end might.
  return { diff: blocks.reverse().join("\n\n"), needles };
}

function median(run: () => void, runs: number): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

let sink = 0;

export function runEditBench(): void {
  console.log("\napply_diff engine (applySearchReplace) vs one exact indexOf per block; median time per call");
  console.log("lines  | blocks | kind                 | engine     | baseline   | ratio  | applied");
  for (const lines of [1_000, 10_000, 50_000]) {
    const file = makeFile(lines);
    const runs = lines >= 50_000 ? 9 : 21;
    for (const count of [1, 5, 20]) {
      for (const kind of ["exact", "drifted", "no hint"] as const) {
        const { diff, needles } = makeDiff(lines, count, kind);
        let applied = 0;
        const engine = median(() => {
          const result = applySearchReplace(file, diff);
          applied = result.ok ? result.applied : 0;
        }, runs);
        const baseline = median(() => {
          for (const needle of needles) sink += file.indexOf(needle);
        }, runs);
        const label = kind === "no hint" ? "no hint (drifted)" : kind === "drifted" ? "drifted, hinted" : "exact, hinted";
        console.log(
          `${String(lines).padStart(6)} | ${String(count).padStart(6)} | ${label.padEnd(20)} | ${`${engine.toFixed(3)} ms`.padEnd(10)} | ${`${baseline.toFixed(3)} ms`.padEnd(10)} | ${`${(engine / baseline).toFixed(1)}x`.padEnd(6)} | ${applied}/${count}`,
        );
      }
    }
  }
  if (sink === 42) console.log("");
}
