import * as esbuild from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cliOptions } from "../../esbuild.mjs";

const root = join(__dirname, "..", "..");

const VSCODE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']vscode["']/;

export function importsVscode(source: string): boolean {
  return VSCODE_IMPORT.test(source);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

describe("layering: the core never imports vscode", () => {
  it("recognises every way of importing vscode", () => {
    expect(importsVscode('import * as vscode from "vscode";')).toBe(true);
    expect(importsVscode("import { window } from 'vscode'")).toBe(true);
    expect(importsVscode('import "vscode";')).toBe(true);
    expect(importsVscode('const v = require("vscode")')).toBe(true);
    expect(importsVscode('const v = await import("vscode")')).toBe(true);
    expect(importsVscode('export { Uri } from "vscode"')).toBe(true);
    expect(importsVscode('import { x } from "./vscode-like"')).toBe(false);
    expect(importsVscode("// talks about vscode in a comment")).toBe(false);
  });

  it("finds no vscode import under src/core or src/shared", () => {
    const files = [...sourceFiles(join(root, "src", "core")), ...sourceFiles(join(root, "src", "shared"))];
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.filter((file) => importsVscode(readFileSync(file, "utf8"))).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it("the CLI bundle builds, and the same build fails on a vscode import", async () => {
    const ok = await esbuild.build({ ...cliOptions, write: false, logLevel: "silent", sourcemap: false });
    expect(ok.errors).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), "kiln-arch-"));
    writeFileSync(join(dir, "core.ts"), 'import * as vscode from "vscode";\nexport const x = vscode.version;\n');
    writeFileSync(join(dir, "main.ts"), 'import { x } from "./core";\nconsole.log(x);\n');
    await expect(
      esbuild.build({ ...cliOptions, absWorkingDir: dir, entryPoints: [join(dir, "main.ts")], outfile: join(dir, "out.js"), write: false, logLevel: "silent" }),
    ).rejects.toThrow(/Could not resolve "vscode"/);
  });
});

/** The module paths a file imports: static, dynamic, require and re-exports. */
export function importedPaths(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g);
  return [...found].map((m) => m[1]!);
}

/** Where a relative import lands, relative to the repository root ("src/core/x"). */
function landing(file: string, specifier: string): string {
  return specifier.startsWith(".") ? relative(root, join(file, "..", specifier)).split("\\").join("/") : specifier;
}

describe("layering: shared and the webview import only shared", () => {
  const breaches = (dirs: string[], allowed: (target: string) => boolean) =>
    dirs
      .flatMap(sourceFiles)
      .flatMap((file) => importedPaths(readFileSync(file, "utf8")).map((spec) => ({ file: relative(root, file), target: landing(file, spec) })))
      .filter(({ target }) => !allowed(target));
  const notCoreOrHost = (target: string) => !/^src\/(core|hosts)(\/|$)/.test(target) && target !== "vscode";

  it("reads every form of import", () => {
    const source = 'import a from "../core/a";\nimport "./side";\nexport { b } from "../../hosts/b";\nconst c = require("./c");\nconst d = await import("./d");\nimport type { E } from "./e";';
    expect(importedPaths(source)).toEqual(["../core/a", "./side", "../../hosts/b", "./c", "./d", "./e"]);
  });

  it("finds no import of src/core, src/hosts or vscode under src/shared", () => {
    expect(breaches([join(root, "src", "shared")], notCoreOrHost)).toEqual([]);
  });

  it("finds no import of src/core, src/hosts or vscode in the webview", () => {
    expect(breaches([join(root, "webview-ui", "src")], notCoreOrHost)).toEqual([]);
  });

  it("would report a breach: a scratch file in src/shared that imports the core", () => {
    const scratch = join(root, "src", "shared", "protocol", "scratch.ts");
    expect(importedPaths('import { x } from "../../core/tools/registry";').map((spec) => landing(scratch, spec))).toEqual(["src/core/tools/registry"]);
    expect(notCoreOrHost("src/core/tools/registry")).toBe(false);
    expect(notCoreOrHost("src/shared/limits")).toBe(true);
  });
});
