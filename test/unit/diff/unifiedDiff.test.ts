import { applyPatch, createTwoFilesPatch, parsePatch } from "diff";
import { describe, expect, it } from "vitest";
import { boundedStructuredPatch, unifiedDiff } from "../../../src/core/diff/unifiedDiff";

/** `count` lines of code-like text, numbered from `from`. */
function lines(count: number, from = 0, word = "compute"): string {
  let out = "";
  for (let i = from; i < from + count; i++) out += `    const value${i} = ${word}(input, ${i});\n`;
  return out;
}

const EDITS: [string, string, string][] = [
  ["one line changed", lines(50), lines(50).replace("value20 =", "renamed20 =")],
  ["two changes far apart, two hunks", lines(60), lines(60).replace("value5 =", "a =").replace("value50 =", "b =")],
  ["two changes close together, one hunk", lines(60), lines(60).replace("value5 =", "a =").replace("value10 =", "b =")],
  ["lines added at the start and the end", lines(20), `// header\n${lines(20)}// footer\n`],
  ["lines removed", lines(30), lines(10) + lines(10, 20)],
  ["no final newline before", lines(5).slice(0, -1), lines(5)],
  ["no final newline after", lines(5), `${lines(5)}tail`],
  ["CRLF line ends", lines(10).replace(/\n/g, "\r\n"), lines(10).replace(/\n/g, "\r\n").replace("value3 =", "x =")],
  ["a new file", "", lines(3)],
  ["a deleted file", lines(3), ""],
  ["no change", lines(10), lines(10)],
];

describe("unifiedDiff", () => {
  it.each(EDITS)("gives jsdiff's createTwoFilesPatch text for an ordinary edit: %s", (_, before, after) => {
    expect(unifiedDiff("src/a.ts", "src/a.ts", before, after, "before", "proposed")).toBe(createTwoFilesPatch("src/a.ts", "src/a.ts", before, after, "before", "proposed"));
  });

  it("past its budget gives one hunk between the common start and end, laid out as jsdiff does", () => {
    // 1,000 changed lines are 2,000 edits, past the exact diff's budget; jsdiff alone still manages this size.
    const before = `${lines(10)}${lines(1_000, 10)}${lines(10, 1_010)}last`;
    const after = `${lines(10)}${lines(1_000, 10, "calculate")}${lines(10, 1_010)}last`;
    const bounded = unifiedDiff("f", "f", before, after, "before", "proposed");
    expect(bounded).toBe(createTwoFilesPatch("f", "f", before, after, "before", "proposed"));
    const [patch] = parsePatch(bounded);
    expect(patch!.hunks).toHaveLength(1);
    expect(patch!.hunks[0]).toMatchObject({ oldStart: 7, oldLines: 1_008, newStart: 7, newLines: 1_008 });
  });

  it("marks a changed last line without a line end in the whole-range hunk", () => {
    const before = `${lines(1_000)}end`;
    const after = `${lines(1_000, 0, "calculate")}END`;
    const bounded = unifiedDiff("f", "f", before, after);
    expect(bounded).toContain("\n-end\n\\ No newline at end of file\n+    const value0 = calculate");
    expect(bounded.endsWith("\n+END\n\\ No newline at end of file\n")).toBe(true);
    expect(applyPatch(before, bounded)).toBe(after);
  });

  it("rewrites every line of a 1 MB file in bounded work, and the patch applies", () => {
    let before = "";
    for (let i = 0; before.length < 1024 * 1024; i++) before += `    const value${i} = compute(input, ${i}); // step ${i}\n`;
    const after = before.replace(/compute/g, "calculate");
    const patch = unifiedDiff("big.ts", "big.ts", before, after, "before", "proposed");
    expect(applyPatch(before, patch)).toBe(after);
    expect(parsePatch(patch)[0]!.hunks).toHaveLength(1);
  });

  it("gives the hunks of the review's Discard lenses without context", () => {
    const before = lines(40);
    const after = lines(40).replace("value3 =", "x =").replace("value30 =", "y =");
    const patch = boundedStructuredPatch("", "", before, after, "", "", 0);
    expect(patch.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [4, 1, 4, 1],
      [31, 1, 31, 1],
    ]);
  });
});
