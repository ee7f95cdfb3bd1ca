import { describe, expect, it } from "vitest";
import { applySearchReplace, type BlockFailure, type SearchReplaceResult } from "../../../src/core/edit";

/** A file as models meet them: four-space indentation, nested blocks, a blank line between members. */
const SRC = `import { readFile } from "node:fs/promises";

export class Store {
    private items: string[] = [];

    add(item: string): void {
        if (item.length === 0) {
            throw new Error("empty item");
        }
        this.items.push(item);
    }

    remove(item: string): boolean {
        const index = this.items.indexOf(item);
        if (index === -1) {
            return false;
        }
        this.items.splice(index, 1);
        return true;
    }

    count(): number {
        return this.items.length;
    }
}

export async function load(path: string): Promise<Store> {
    const store = new Store();
    for (const line of (await readFile(path, "utf8")).split("\\n")) {
        store.add(line);
    }
    return store;
}
`;

/** One block; `replace` "" means no REPLACE lines (a deletion). */
function block(search: string, replace: string, hint?: number): string {
  const head = hint === undefined ? "-------" : `:start_line:${hint}\n-------`;
  return `<<<<<<< SEARCH\n${head}\n${search}\n=======\n${replace === "" ? "" : `${replace}\n`}>>>>>>> REPLACE`;
}

/** `text` with each [old, new] replaced once, checking each old text occurs exactly once. */
function edited(text: string, ...pairs: [string, string][]): string {
  for (const [from, to] of pairs) {
    expect(text.split(from)).toHaveLength(2);
    text = text.replace(from, () => to);
  }
  return text;
}

function content(result: SearchReplaceResult): string {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.content;
}

function failures(result: SearchReplaceResult): BlockFailure[] {
  if (result.ok) throw new Error("expected a failure");
  return result.failures;
}

describe("exact matches", () => {
  it("replaces one block, with or without a hint and the ------- line", () => {
    const expected = edited(SRC, ["        return this.items.length;", "        return this.items.length + 0;"]);
    expect(content(applySearchReplace(SRC, block("        return this.items.length;", "        return this.items.length + 0;")))).toBe(expected);
    expect(content(applySearchReplace(SRC, block("        return this.items.length;", "        return this.items.length + 0;", 23)))).toBe(expected);
    const bare = "<<<<<<< SEARCH\n        return this.items.length;\n=======\n        return this.items.length + 0;\n>>>>>>> REPLACE";
    expect(content(applySearchReplace(SRC, bare))).toBe(expected);
  });

  it("takes markers of other lengths and spacing, and text around the blocks", () => {
    const diff = "Here is the change:\n```\n<<<<<<<< SEARCH>\n:start_line: 23\n:end_line: 23\n--------\n        return this.items.length;\n======\n        return 0;\n>>>>>>>>REPLACE\n```\n";
    expect(content(applySearchReplace(SRC, diff))).toBe(edited(SRC, ["return this.items.length;", "return 0;"]));
    const hintAfterDashes = "<<<<<<< SEARCH\n-------\n:start_line:23\n        return this.items.length;\n=======\n        return 0;\n>>>>>>> REPLACE";
    expect(applySearchReplace(SRC, hintAfterDashes)).toMatchObject({ ok: true, matches: [{ line: 23, hint: 23 }] });
  });

  it("deletes lines with an empty REPLACE, and reports the match", () => {
    const result = applySearchReplace(SRC, block('        if (item.length === 0) {\n            throw new Error("empty item");\n        }', ""));
    expect(content(result)).toBe(edited(SRC, ['        if (item.length === 0) {\n            throw new Error("empty item");\n        }\n', ""]));
    expect(result).toMatchObject({ applied: 1, matches: [{ block: 1, line: 7, endLine: 9, level: "exact", similarity: 1 }] });
  });

  it("uses a stale hint's block where the text really is", () => {
    const result = applySearchReplace(SRC, block("    count(): number {", "    size(): number {", 3));
    expect(content(result)).toBe(edited(SRC, ["count(): number", "size(): number"]));
    expect(result).toMatchObject({ matches: [{ line: 22, hint: 3 }] });
  });

  it("strips line numbers copied from read_file output", () => {
    const search = "22 |     count(): number {\n23 |         return this.items.length;";
    const replace = "22 |     count(): number {\n23 |         return this.items.length * 1;";
    expect(content(applySearchReplace(SRC, block(search, replace)))).toBe(edited(SRC, ["this.items.length;\n    }\n}", "this.items.length * 1;\n    }\n}"]));
  });

  it("reads content lines that look like markers when escaped with a backslash", () => {
    const md = "Title\n=======\n\nSome text.\n";
    const diff = block("Title\n\\=======", "New title\n\\=========");
    expect(content(applySearchReplace(md, diff))).toBe("New title\n=========\n\nSome text.\n");
    // An unescaped heading underline beside the canonical separator: the canonical one wins.
    expect(content(applySearchReplace(md, block("Some text.", "Other text.\n===")))).toBe("Title\n=======\n\nOther text.\n===\n");
  });
});

describe("whitespace-tolerant matches", () => {
  it("re-indents a block written without the file's base indentation", () => {
    const search = "count(): number {\n    return this.items.length;\n}";
    const replace = "count(): number {\n    // Recomputed on every call.\n    return this.items.length;\n}";
    const result = applySearchReplace(SRC, block(search, replace));
    expect(content(result)).toBe(edited(SRC, ["        return this.items.length;", "        // Recomputed on every call.\n        return this.items.length;"]));
    expect(result).toMatchObject({ matches: [{ line: 22, level: "whitespace" }] });
  });

  it("maps a two-space SEARCH onto the file's four-space levels", () => {
    const search = "remove(item: string): boolean {\n  const index = this.items.indexOf(item);\n  if (index === -1) {\n    return false;\n  }";
    const replace = 'remove(item: string): boolean {\n  const index = this.items.indexOf(item);\n  if (index < 0) {\n    console.warn("missing", item);\n    return false;\n  }';
    expect(content(applySearchReplace(SRC, block(search, replace)))).toBe(
      edited(SRC, ["        if (index === -1) {\n            return false;", '        if (index < 0) {\n            console.warn("missing", item);\n            return false;']),
    );
  });

  it("writes tabs into a tab-indented file when SEARCH used spaces", () => {
    const tabs = "function sum(values) {\n\tlet total = 0;\n\tfor (const v of values) {\n\t\ttotal += v;\n\t}\n\treturn total;\n}\n";
    const search = "    for (const v of values) {\n        total += v;\n    }";
    const replace = "    for (const v of values) {\n        if (v < 0) continue;\n        total += v;\n    }";
    expect(content(applySearchReplace(tabs, block(search, replace)))).toBe(tabs.replace("\t\ttotal += v;", "\t\tif (v < 0) continue;\n\t\ttotal += v;"));
  });

  it("follows uneven drift line by line and keeps JSDoc alignment", () => {
    // The method body and its closing brace, each 4 spaces shallower than in the file.
    const search = "    return this.items.length;\n}";
    const replace = "    return this.items.length;\n}\n\n/**\n * Whether it is empty.\n */\nisEmpty(): boolean {\n    return this.count() === 0;\n}";
    expect(content(applySearchReplace(SRC, block(search, replace)))).toBe(
      edited(SRC, [
        "        return this.items.length;\n    }\n",
        "        return this.items.length;\n    }\n\n    /**\n     * Whether it is empty.\n     */\n    isEmpty(): boolean {\n        return this.count() === 0;\n    }\n",
      ]),
    );
  });

  it("refuses a SEARCH nested unlike the file, which in Python is another program", () => {
    const py = "def f(x):\n    if x:\n        a()\n        b()\n    return x\n";
    const [failure] = failures(applySearchReplace(py, block("if x:\n    a()\nb()", "if x:\n    a()\nc()")));
    expect(failure).toMatchObject({ reason: "not_found", candidate: { line: 2, endLine: 4 } });
    expect(failure!.message).toContain('SEARCH matches lines 2-4 only when indentation is ignored, and there it is nested differently from the file: line 4 is indented "        " in the file');
    // The same lines, shifted as a whole, are fine.
    expect(content(applySearchReplace(py, block("if x:\n    a()\n    b()", "if x:\n    a()\n    c()")))).toBe(py.replace("b()", "c()"));
  });

  it("matches despite trailing spaces and keeps them on the lines REPLACE leaves alone", () => {
    const file = SRC.replace("    const store = new Store();", "    const store = new Store();   ").replace("    return store;", "    return store;\t");
    const search = '    const store = new Store();\n    for (const line of (await readFile(path, "utf8")).split("\\n")) {';
    const replace = '    const store = new Store();\n    for (const line of (await readFile(path, "latin1")).split("\\n")) {';
    expect(content(applySearchReplace(file, block(search, replace)))).toBe(file.replace('"utf8"', '"latin1"'));
  });
});

describe("fuzzy matches and what failures say", () => {
  const typo = "    remove(item: string): boolean {\n        const index = this.itms.indexOf(item);";
  const fixed = "    remove(item: string): boolean {\n        const index = this.items.lastIndexOf(item);";

  it("refuses a typo by default and shows the line, its number and the similarity", () => {
    const [failure] = failures(applySearchReplace(SRC, block(typo, fixed, 13)));
    expect(failure).toMatchObject({
      block: 1,
      reason: "not_found",
      candidate: {
        line: 13,
        endLine: 14,
        differences: [{ line: 14, kind: "typo", file: "        const index = this.items.indexOf(item);", search: "        const index = this.itms.indexOf(item);" }],
      },
    });
    expect(failure!.candidate!.similarity).toBeCloseTo(1 - 1 / 70, 5);
    expect(failure!.message).toContain("Closest: lines 13-14, 98.5% alike:\n  - line 14: a few characters differ (a typo?)");
  });

  it("applies a typo under a 0.9 threshold, with the file's line kept where REPLACE repeats SEARCH", () => {
    const result = applySearchReplace(SRC, block(typo, fixed), { fuzzyThreshold: 0.9 });
    expect(content(result)).toBe(edited(SRC, ["this.items.indexOf(item)", "this.items.lastIndexOf(item)"]));
    expect(result).toMatchObject({ matches: [{ level: "fuzzy", line: 13 }] });
  });

  it("refuses text changed past the threshold and says which lines are stale", () => {
    const stale = "    remove(item: string): boolean {\n        const position = this.items.findIndex((x) => x === item);\n        if (index === -1) {";
    const [failure] = failures(applySearchReplace(SRC, block(stale, "    remove(): void {"), { fuzzyThreshold: 0.9 }));
    expect(failure).toMatchObject({ reason: "not_found", candidate: { line: 13, endLine: 15, differences: [{ line: 14, kind: "changed" }] } });
    expect(failure!.candidate!.similarity).toBeLessThan(0.9);
    expect(failure!.message).toMatch(/Closest: lines 13-15, \d+\.?\d*% alike, under the 90% needed/);
    expect(failure!.message).toContain("the file has a different line here now (is SEARCH out of date?)");
  });

  it("finds a block whose every line has a typo from the hint alone", () => {
    const search = '        if (item.lenght === 0) {\n            throw new Eror("empty item");';
    const result = applySearchReplace(SRC, block(search, '        if (!item) {\n            throw new Error("empty item");', 8), { fuzzyThreshold: 0.9 });
    expect(content(result)).toBe(edited(SRC, ["if (item.length === 0) {", "if (!item) {"]));
  });

  it("refuses several typos over the threshold, saying what is needed", () => {
    const typos = "    remove(iten: string): boolen {\n        const indx = this.itms.indexOf(iten);";
    const [failure] = failures(applySearchReplace(SRC, block(typos, fixed), { fuzzyThreshold: 0.95 }));
    expect(failure).toMatchObject({
      reason: "not_found",
      candidate: {
        line: 13,
        differences: [
          { line: 13, kind: "typo" },
          { line: 14, kind: "typo" },
        ],
      },
    });
    expect(failure!.message).toContain("alike, under the 95% needed");
    expect(failure!.candidate!.similarity).toBeGreaterThan(0.85);
  });

  it("finds a typo far from a stale hint in a large file by the words around it", () => {
    const big = Array.from({ length: 5000 }, (_, i) => `    const value${i} = compute(input, ${i});`).join("\n") + "\n";
    const search = "    const valeu4000 = compute(input, 4000);\n    const value4001 = compute(inptu, 4001);";
    const [failure] = failures(applySearchReplace(big, block(search, "x", 10)));
    expect(failure).toMatchObject({ candidate: { line: 4001, endLine: 4002 } });
    expect(failure!.message).toContain("Closest: lines 4001-4002 (:start_line: says 10)");
    expect(content(applySearchReplace(big, block(search, "    const value4000 = 0;\n    const value4001 = 1;", 10), { fuzzyThreshold: 0.9 }))).toBe(
      big.replace("    const value4000 = compute(input, 4000);\n    const value4001 = compute(input, 4001);", "    const value4000 = 0;\n    const value4001 = 1;"),
    );
  });

  it("says when nothing in the file is close", () => {
    const [failure] = failures(applySearchReplace(SRC, block("SELECT * FROM users WHERE id = 1;", "SELECT 1;")));
    expect(failure!.message).toMatch(/SEARCH was not found in the file, and nothing in it is close/);
  });
});

describe("ambiguity", () => {
  const twice = "function a() {\n    return compute(1);\n}\n\nfunction b() {\n    return compute(1);\n}\n";
  const search = "    return compute(1);";

  it("refuses a SEARCH found at several places and lists them", () => {
    const [failure] = failures(applySearchReplace(twice, block(search, "    return compute(2);")));
    expect(failure).toMatchObject({ block: 1, reason: "ambiguous", lines: [2, 6] });
    expect(failure!.message).toContain("SEARCH matches 2 places exactly, starting at lines 2 and 6, so it was not applied. Add :start_line:");
  });

  it("applies at the place the hint singles out", () => {
    const second = "function a() {\n    return compute(1);\n}\n\nfunction b() {\n    return compute(2);\n}\n";
    expect(content(applySearchReplace(twice, block(search, "    return compute(2);", 6)))).toBe(second);
    expect(content(applySearchReplace(twice, block(search, "    return compute(2);", 2)))).toBe(twice.replace("compute(1)", "compute(2)"));
    // Off by a line or two, as hints often are, still closest by far.
    expect(content(applySearchReplace(twice, block(search, "    return compute(2);", 7)))).toBe(second);
  });

  it("refuses when the hint is halfway between or far from every place", () => {
    for (const hint of [4, 90]) {
      const [failure] = failures(applySearchReplace(twice, block(search, "    return compute(2);", hint)));
      expect(failure).toMatchObject({ reason: "ambiguous", lines: [2, 6] });
      expect(failure!.message).toContain(`Its :start_line: ${hint} does not single one out`);
    }
  });

  it("refuses at the whitespace level and at the fuzzy level too", () => {
    expect(failures(applySearchReplace(twice, block("return compute(1);", "return 0;")))[0]).toMatchObject({ reason: "ambiguous", lines: [2, 6] });
    const fuzzy = failures(applySearchReplace(twice, block("    return compute(11);", "    return 0;"), { fuzzyThreshold: 0.9 }));
    expect(fuzzy[0]).toMatchObject({ reason: "ambiguous", lines: [2, 6] });
    expect(fuzzy[0]!.message).toContain("by similarity");
  });
});

describe("line endings and BOM", () => {
  it("keeps CRLF, for new lines too, whatever the diff used", () => {
    const crlf = SRC.replace(/\n/g, "\r\n");
    const diff = block("    count(): number {\n        return this.items.length;", "    count(): number {\n        // Cheap.\n        return this.items.length;").replace(/\n/g, "\r\n");
    expect(content(applySearchReplace(crlf, diff))).toBe(edited(SRC, ["    count(): number {\n", "    count(): number {\n        // Cheap.\n"]).replace(/\n/g, "\r\n"));
  });

  it("keeps a BOM, mixed endings and a missing final newline", () => {
    const file = "\uFEFFfirst\r\nsecond\nthird";
    expect(content(applySearchReplace(file, block("second", "2nd")))).toBe("\uFEFFfirst\r\n2nd\nthird");
    expect(content(applySearchReplace(file, block("third", "3rd\nfourth")))).toBe("\uFEFFfirst\r\nsecond\n3rd\r\nfourth");
    expect(content(applySearchReplace(file, block("second\nthird", "")))).toBe("\uFEFFfirst");
  });
});

describe("several blocks", () => {
  const blocks = [
    block('import { readFile } from "node:fs/promises";', 'import { readFile } from "node:fs/promises";\nimport { log } from "./log";', 1),
    block("            return false;", '            log("not found");\n            return false;', 16),
    block("    return store;\n}", '    log("loaded");\n    return store;\n}', 32),
  ];
  const expected = edited(
    SRC,
    ['from "node:fs/promises";\n', 'from "node:fs/promises";\nimport { log } from "./log";\n'],
    ["            return false;", '            log("not found");\n            return false;'],
    ["    return store;", '    log("loaded");\n    return store;'],
  );

  it("gives the same result in every order", () => {
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    for (const order of orders) {
      const result = applySearchReplace(SRC, order.map((i) => blocks[i]).join("\n\n"));
      expect(content(result)).toBe(expected);
      expect(result).toMatchObject({ applied: 3 });
    }
  });

  it("applies none when one block fails, and names only that one", () => {
    const bad = block("    this.items.clear();", "    this.items = [];");
    const result = applySearchReplace(SRC, [blocks[0], bad, blocks[2]].join("\n"));
    expect(failures(result)).toMatchObject([{ block: 2, reason: "not_found" }]);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/^1 of 3 blocks could not be applied, so nothing was changed/);
  });

  it("refuses blocks that change overlapping lines", () => {
    const a = block("        this.items.splice(index, 1);\n        return true;", "        this.items.splice(index, 1);");
    const b = block("        return true;\n    }", "        return true as const;\n    }");
    expect(failures(applySearchReplace(SRC, `${a}\n${b}`))).toMatchObject([{ block: 2, reason: "overlap", otherBlock: 1 }]);
  });
});

describe("malformed diffs", () => {
  const cases: [string, string, string][] = [
    ["no separator", "<<<<<<< SEARCH\nfoo\n>>>>>>> REPLACE", "Block 1: it has no ======= line"],
    ["not closed", "<<<<<<< SEARCH\nfoo\n=======\nbar", "Block 1: it is not closed: the diff ends before its >>>>>>> REPLACE line"],
    ["new SEARCH inside a block", `<<<<<<< SEARCH\nfoo\n=======\nbar\n${block("x", "y")}`, "Block 1: it is not closed: a new <<<<<<< SEARCH starts"],
    ["separator before any SEARCH", "foo\n=======\nbar\n>>>>>>> REPLACE", 'line 2 of the diff ("=======") comes before any <<<<<<< SEARCH line'],
    ["empty SEARCH", block("", "new line").replace("-------\n\n", "-------\n"), "Block 1: its SEARCH part is empty"],
    ["blank SEARCH", block("\n  ", "x"), "Block 1: its SEARCH part holds only blank lines"],
    ["identical parts", `${block("    count(): number {", "    size(): number {")}\n${block("foo", "foo")}`, "Block 2: its SEARCH and REPLACE parts are the same"],
    ["two separators", "<<<<<<< SEARCH\nTitle\n========\n=========\nx\n>>>>>>> REPLACE", "Block 1: it has 2 lines that look like the ======= separator"],
    ["no blocks", "just prose, no blocks", "the diff holds no <<<<<<< SEARCH"],
  ];
  it.each(cases)("%s: names the block and what is wrong", (_name, diff, message) => {
    const result = applySearchReplace(SRC, diff);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^the diff is malformed, so nothing was changed:\n- /);
    expect(result.error).toContain(message);
    expect(result.error).toContain("Each block is written:\n<<<<<<< SEARCH");
    expect(result.failures.every((f) => f.reason === "malformed")).toBe(true);
  });
});
