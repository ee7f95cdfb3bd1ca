import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { chunkFile, DEFAULT_CHUNK_LIMITS, type ChunkLimits } from "../../../src/core/codeIndex/chunker";
import type { CodeChunk } from "../../../src/core/codeIndex/types";
import { SUPPORTED_EXTENSIONS } from "../../../src/core/tools/treeSitter/languages";

/** 1-based number of the first line containing `marker`. */
function lineOf(source: string, marker: string): number {
  const index = source.split("\n").findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`no line has ${marker}`);
  return index + 1;
}

const named = (chunks: CodeChunk[], symbol: string) => chunks.filter((chunk) => chunk.symbols.includes(symbol));
const one = (chunks: CodeChunk[], symbol: string) => {
  const found = named(chunks, symbol);
  expect(found, `one chunk named ${symbol} in ${JSON.stringify(chunks.map((c) => c.symbols))}`).toHaveLength(1);
  return found[0]!;
};

/**
 * What every chunking must hold: file order, no overlap, every non-blank line in exactly one chunk,
 * texts as in the file, within the limits, no blank first or last line, the right hash.
 */
function expectWellFormed(source: string, chunks: CodeChunk[], limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): void {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  const covered = new Map<number, string[]>();
  let previous: CodeChunk | undefined;
  for (const chunk of chunks) {
    expect(chunk.hash).toBe(createHash("sha256").update(chunk.text).digest("hex"));
    expect(chunk.text.length).toBeLessThanOrEqual(limits.maxChars);
    expect(chunk.endLine - chunk.startLine + 1).toBeLessThanOrEqual(limits.maxLines);
    expect(chunk.text).not.toContain("\r");
    expect(chunk.text.trim()).not.toBe("");
    if (previous) {
      const sameLongLine = previous.startLine === previous.endLine && previous.endLine === chunk.startLine && chunk.startLine === chunk.endLine;
      if (!sameLongLine) expect(chunk.startLine, `chunk at ${chunk.startLine} after one ending at ${previous.endLine}`).toBeGreaterThan(previous.endLine);
    }
    const whole = lines.slice(chunk.startLine - 1, chunk.endLine).join("\n");
    if (chunk.text === whole) {
      expect(chunk.text.split("\n")[0]!.trim()).not.toBe("");
      expect(chunk.text.split("\n").at(-1)!.trim()).not.toBe("");
      for (let line = chunk.startLine; line <= chunk.endLine; line++) covered.set(line, [...(covered.get(line) ?? []), lines[line - 1]!]);
    } else {
      // A part of an over-long line: the parts of that line together make it up (whitespace-only parts are left out).
      expect(chunk.startLine).toBe(chunk.endLine);
      expect(lines[chunk.startLine - 1]).toContain(chunk.text);
      covered.set(chunk.startLine, [...(covered.get(chunk.startLine) ?? []), chunk.text]);
    }
    previous = chunk;
  }
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const parts = covered.get(i + 1);
    expect(parts, `line ${i + 1} is in a chunk: ${line.slice(0, 80)}`).toBeDefined();
    expect(parts!.join("").replace(/\s/g, "")).toBe(line.replace(/\s/g, ""));
  });
}

const SHAPES = `import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "./parse";

/**
 * Reads the settings file.
 * Missing files give the defaults.
 */
export async function loadSettings(root: string): Promise<Settings> {
  const text = await readFile(join(root, "settings.json"), "utf8");
  return parse(text);
}

export const toCelsius = (fahrenheit: number): number => {
  return ((fahrenheit - 32) * 5) / 9;
};

export class Thermostat {
  private target = 20;

  setTarget(celsius: number): void {
    this.target = celsius;
  }

  heatingNeeded(current: number): boolean {
    return current < this.target;
  }
}

export interface Settings {
  unit: "C" | "F";
}
`;

describe("chunkFile on TypeScript", () => {
  it("gives one chunk per definition, named by it, with its lines", async () => {
    const chunks = await chunkFile("src/shapes.ts", SHAPES);
    expectWellFormed(SHAPES, chunks);
    expect(chunks.map((chunk) => chunk.kind)).toEqual(["lines", "function", "function", "class", "type"]);
    expect(chunks[0]).toMatchObject({ path: "src/shapes.ts", startLine: 1, endLine: 3, symbols: [] });
    expect(one(chunks, "loadSettings")).toMatchObject({ kind: "function", startLine: lineOf(SHAPES, "/**"), endLine: lineOf(SHAPES, "return parse") + 1 });
    expect(one(chunks, "toCelsius")).toMatchObject({ startLine: lineOf(SHAPES, "toCelsius"), endLine: lineOf(SHAPES, "toCelsius") + 2 });
    expect(one(chunks, "Thermostat")).toMatchObject({ kind: "class", symbols: ["Thermostat", "setTarget", "heatingNeeded"], startLine: lineOf(SHAPES, "class Thermostat") });
    expect(one(chunks, "Settings")).toMatchObject({ kind: "type", endLine: lineOf(SHAPES, "unit:") + 1 });
  });

  it("keeps a doc comment with its function, so the comment's words find the function", async () => {
    const chunks = await chunkFile("src/shapes.ts", SHAPES);
    expect(one(chunks, "loadSettings").text).toMatch(/^\/\*\*\n \* Reads the settings file\./);
  });

  it("cuts a function too long for one chunk into blocks, each within the limits and named by it", async () => {
    const body = Array.from({ length: 300 }, (_, i) => (i % 12 === 11 ? "" : `  total += weigh(item${i}, ${i});`)).join("\n");
    const source = `import { weigh } from "./weigh";\n\nexport function tally(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const chunks = await chunkFile("src/tally.ts", source);
    expectWellFormed(source, chunks);
    const blocks = chunks.filter((chunk) => chunk.kind === "block");
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block.symbols).toEqual(["tally"]);
    expect(blocks[0]!.startLine).toBe(1); // the one-line import joined the function's first block
    expect(blocks.at(-1)!.text.endsWith("  return total;\n}")).toBe(true);
    // Cuts fall on the blank lines when there are some.
    for (const block of blocks.slice(0, -1)) expect(source.split("\n")[block.endLine]).toBe("");
  });

  it("cuts a class too long for one chunk along its methods, named Class.method", async () => {
    const method = (name: string) => `  ${name}(): number {\n${Array.from({ length: 30 }, (_, i) => `    const v${i} = this.read("${name}", ${i});`).join("\n")}\n    return 0;\n  }\n`;
    const source = `export class Store {\n  private cache = new Map<string, number>();\n  private hits = 0;\n  private misses = 0;\n\n${method("load")}\n${method("save")}\n${method("flush")}}\n`;
    const chunks = await chunkFile("src/store.ts", source);
    expectWellFormed(source, chunks);
    expect(chunks.map((chunk) => chunk.kind)).toEqual(["block", "method", "method", "method"]);
    expect(chunks[0]).toMatchObject({ symbols: ["Store"], startLine: 1, endLine: 4 });
    expect(one(chunks, "Store.save")).toMatchObject({ kind: "method", symbols: ["save", "Store.save"], startLine: lineOf(source, "save()") });
    // The class's closing brace goes with the last method rather than standing alone.
    expect(one(chunks, "flush").text.endsWith("  }\n}")).toBe(true);
  });

  it("cuts a long line inside parsed code to the limit", async () => {
    const data = Array.from({ length: 700 }, (_, i) => i).join(", ");
    const source = `export function table(): number[] {\n  const rows: number[] = [];\n${"  rows.push(rows.length);\n".repeat(12)}  return [${data}];\n}\n`;
    const limits = { ...DEFAULT_CHUNK_LIMITS, maxChars: 1000 };
    const chunks = await chunkFile("src/table.ts", source, limits);
    expectWellFormed(source, chunks, limits);
    expect(chunks.filter((chunk) => chunk.startLine === chunk.endLine).length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(chunk.symbols).toEqual(["table"]);
  });
});

describe("chunkFile on other languages", () => {
  it("names Python classes, methods and decorated functions", async () => {
    const source = `import os\n\n\nclass Cache:\n    """Keeps things."""\n\n    def get(self, key):\n        return self.items[key]\n\n\n# Retries on failure.\n@retry(times=3)\ndef fetch(url):\n    return os.fetch(url)\n`;
    const chunks = await chunkFile("app/cache.py", source);
    expectWellFormed(source, chunks);
    expect(one(chunks, "Cache")).toMatchObject({ kind: "class", symbols: ["Cache", "get"] });
    expect(one(chunks, "fetch")).toMatchObject({ kind: "function", startLine: lineOf(source, "# Retries"), endLine: lineOf(source, "return os.fetch") });
  });

  it("names Go functions, methods (with their receiver) and types", async () => {
    const source = `package store\n\n// Store keeps values.\ntype Store struct {\n\titems map[string]int\n}\n\n// Get returns a value.\nfunc (s *Store) Get(key string) int {\n\treturn s.items[key]\n}\n\nfunc New() *Store {\n\treturn &Store{}\n}\n`;
    const chunks = await chunkFile("store/store.go", source);
    expectWellFormed(source, chunks);
    // The one-line package clause is too short to stand alone: it joins what follows, with the doc comment.
    expect(one(chunks, "Store")).toMatchObject({ kind: "type", startLine: 1, endLine: 6 });
    expect(one(chunks, "Get")).toMatchObject({ kind: "method", symbols: ["Get", "Store.Get"], startLine: lineOf(source, "// Get") });
    expect(one(chunks, "New").kind).toBe("function");
  });

  it("names Rust items and keeps attributes and doc comments with them", async () => {
    const source = `use std::fmt;\n\n/// A point.\n#[derive(Debug)]\npub struct Point {\n    x: i32,\n}\n\nimpl fmt::Display for Point {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, "{}", self.x)\n    }\n}\n\npub trait Shape {\n    fn area(&self) -> f64;\n}\n\nfn main() {}\n`;
    const chunks = await chunkFile("src/main.rs", source);
    expectWellFormed(source, chunks);
    expect(named(chunks, "Point")[0]).toMatchObject({ kind: "type", startLine: 1, endLine: 7 }); // the short `use` joined it
    expect(one(chunks, "fmt")).toMatchObject({ kind: "class", symbols: ["Point", "fmt::Display", "fmt"] });
    expect(one(chunks, "Shape")).toMatchObject({ kind: "type", symbols: ["Shape", "area"] });
    expect(one(chunks, "main").kind).toBe("function");
  });

  it("names Java classes, constructors and methods", async () => {
    const source = `package demo;\n\n/** A counter. */\npublic class Counter {\n  private int n;\n\n  public Counter() {}\n\n  @Override\n  public String toString() { return "" + n; }\n}\n\ninterface Named { String name(); }\n`;
    const chunks = await chunkFile("src/Counter.java", source);
    expectWellFormed(source, chunks);
    expect(one(chunks, "Counter")).toMatchObject({ kind: "class", symbols: ["Counter", "toString"], startLine: 1 });
    expect(one(chunks, "Named").kind).toBe("type");
  });

  it("names definitions in C, C++, C#, Ruby and PHP", async () => {
    const cases: [string, string, string[]][] = [
      ["lib/util.c", "#include <stdio.h>\n\nstatic int add(int a, int b) {\n  return a + b;\n}\n", ["add"]],
      [
        "lib/shape.cpp",
        "namespace geo {\nclass Circle {\n public:\n  double area() const { return 3.14 * r * r; }\n  double r;\n};\n}\nint *Circle::grow() { return nullptr; }\n",
        ["geo", "Circle", "area", "Circle::grow"],
      ],
      ["Lib/Shape.cs", "namespace Geo {\n  public class Circle {\n    public double Area() { return 3.14; }\n  }\n}\n", ["Geo", "Circle", "Area"]],
      ["lib/shape.rb", "module Geo\n  class Circle\n    def area\n      3.14\n    end\n  end\nend\n", ["Geo", "Circle", "area"]],
      ["lib/shape.php", "<?php\nclass Circle {\n  public function area() { return 3.14; }\n}\nfunction helper() {}\n", ["Circle", "area", "helper"]],
    ];
    for (const [path, source, symbols] of cases) {
      const chunks = await chunkFile(path, source);
      expectWellFormed(source, chunks);
      expect(
        chunks.flatMap((chunk) => chunk.symbols),
        path,
      ).toEqual(expect.arrayContaining(symbols));
    }
  });

  it("handles every language it has a grammar for, even on broken code", async () => {
    for (const extension of SUPPORTED_EXTENSIONS) {
      for (const source of ["x\n", "function f( {\n  class ]] def\n}\n}\n", "\n\n"]) {
        const chunks = await chunkFile(`file${extension}`, source);
        expectWellFormed(source, chunks);
      }
    }
  });
});

describe("chunkFile on Markdown", () => {
  const README = `Intro before any heading.

# Widgets

A title right over its first subsection.

## Install

\`\`\`sh
# not a heading: a shell comment
npm install widgets
\`\`\`

## Usage ##

Call it.
`;

  it("gives one section per heading, named by its text", async () => {
    const chunks = await chunkFile("docs/README.md", README);
    expectWellFormed(README, chunks);
    expect(chunks.map((chunk) => [chunk.kind, chunk.symbols, chunk.startLine])).toEqual([
      ["section", [], 1],
      ["section", ["Widgets"], 3],
      ["section", ["Install"], 7],
      ["section", ["Usage"], 14],
    ]);
  });

  it("lets a bare title join the section under it", async () => {
    const source = "# Widgets\n\n## Install\n\nRun it.\n";
    const chunks = await chunkFile("README.markdown", source);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ symbols: ["Widgets", "Install"], startLine: 1, endLine: 5 });
  });

  it("cuts a long section, each part keeping the heading's name", async () => {
    const source = `## Reference\n\n${Array.from({ length: 200 }, (_, i) => `- item ${i}`).join("\n")}\n`;
    const chunks = await chunkFile("docs/ref.mdx", source);
    expectWellFormed(source, chunks);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(chunk).toMatchObject({ kind: "section", symbols: ["Reference"] });
  });
});

describe("chunkFile on anything else", () => {
  it("gives windows of lines to a file without a grammar", async () => {
    const source = Array.from({ length: 250 }, (_, i) => `key${i} = value${i}`).join("\n");
    const chunks = await chunkFile("conf/settings.toml", source);
    expectWellFormed(source, chunks);
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 80],
      [81, 160],
      [161, 240],
      [241, 250],
    ]);
    for (const chunk of chunks) expect(chunk).toMatchObject({ kind: "lines", symbols: [] });
  });

  it("cuts minified code on one line into chunks no larger than the limit", async () => {
    let source = "";
    for (let i = 0; source.length < 200_000; i++) source += `function f${i}(a,b){return a*${i}+b};var v${i}=f${i}(1,2);`;
    const started = Date.now();
    const chunks = await chunkFile("dist/app.min.js", source);
    expect(Date.now() - started).toBeLessThan(2000);
    expectWellFormed(source, chunks);
    expect(chunks.length).toBeGreaterThanOrEqual(50);
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(source);
  });

  it("reads CRLF and a BOM as the file's lines, with \\n in the text", async () => {
    const crlf = `\uFEFF${SHAPES.replace(/\n/g, "\r\n")}`;
    const chunks = await chunkFile("src/shapes.ts", crlf);
    expectWellFormed(crlf, chunks);
    const plain = await chunkFile("src/shapes.ts", SHAPES);
    expect(chunks).toEqual(plain);
  });

  it("falls back to lines when the grammar does not load, and tries the grammar again next time", async () => {
    let fail = true;
    vi.resetModules();
    vi.doMock("../../../src/core/treeSitter/runtime", async (importOriginal) => {
      const real = await importOriginal<typeof import("../../../src/core/treeSitter/runtime")>();
      return { ...real, loadLanguage: (grammar: string) => (fail ? Promise.reject(new Error("no wasm here")) : real.loadLanguage(grammar)) };
    });
    try {
      const { chunkFile: isolated } = await import("../../../src/core/codeIndex/chunker");
      const fallback = await isolated("src/shapes.ts", SHAPES);
      expectWellFormed(SHAPES, fallback);
      expect(fallback.map((chunk) => chunk.kind)).toEqual(["lines"]);
      fail = false;
      expect(await isolated("src/shapes.ts", SHAPES)).toEqual(await chunkFile("src/shapes.ts", SHAPES));
    } finally {
      vi.doUnmock("../../../src/core/treeSitter/runtime");
      vi.resetModules();
    }
  });

  it("gives nothing for an empty or blank file", async () => {
    expect(await chunkFile("a.ts", "")).toEqual([]);
    expect(await chunkFile("a.md", "\n \n\t\n")).toEqual([]);
    expect(await chunkFile("a.txt", "\r\n\r\n")).toEqual([]);
  });

  it("is deterministic", async () => {
    expect(await chunkFile("src/shapes.ts", SHAPES)).toEqual(await chunkFile("src/shapes.ts", SHAPES));
  });
});

describe("chunkFile on real files", () => {
  const FILES = [
    "src/core/codeIndex/chunker.ts",
    "src/core/agent/toolbox.ts",
    "node_modules/web-tree-sitter/web-tree-sitter.d.ts",
    "node_modules/diff/libcjs/patch/apply.js",
    "node_modules/diff/README.md",
    "node_modules/flatted/python/flatted.py",
    "node_modules/flatted/golang/pkg/flatted/flatted.go",
    "node_modules/bare-fs/binding.c",
  ].filter((path) => existsSync(path));

  it("puts every non-blank line in exactly one chunk, in order, within the limits", async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(5);
    for (const path of FILES) {
      const source = readFileSync(path, "utf8");
      for (const limits of [DEFAULT_CHUNK_LIMITS, { maxLines: 20, maxChars: 600, minLines: 4 }]) {
        const chunks = await chunkFile(path, source, limits);
        expectWellFormed(source, chunks, limits);
        expect(
          chunks.some((chunk) => chunk.symbols.length > 0),
          path,
        ).toBe(true);
      }
    }
  });
});
