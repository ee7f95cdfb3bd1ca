import { ESLint } from "eslint";
import * as esbuild from "esbuild";
import tseslint from "typescript-eslint";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliOptions } from "../../esbuild.mjs";

const root = join(__dirname, "..", "..");

describe("layering: the CLI bundle has no vscode in it", () => {
  it("the CLI bundle builds, and the same build fails on a vscode import", async () => {
    const ok = await esbuild.build({ ...cliOptions, write: false, logLevel: "silent", sourcemap: false });
    expect(ok.errors).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), "kiln-arch-"));
    writeFileSync(join(dir, "core.ts"), 'import * as vscode from "vscode";\nexport const x = vscode.version;\n');
    writeFileSync(join(dir, "main.ts"), 'import { x } from "./core";\nconsole.log(x);\n');
    await expect(esbuild.build({ ...cliOptions, absWorkingDir: dir, entryPoints: [join(dir, "main.ts")], outfile: join(dir, "out.js"), write: false, logLevel: "silent" })).rejects.toThrow(
      /Could not resolve "vscode"/,
    );
  });
});

/** The repository's own ESLint config, without the type-aware rules, so a file need not exist to be linted. */
const zoneLinter = new ESLint({ cwd: root, overrideConfig: [{ ...tseslint.configs.disableTypeChecked, languageOptions: { parserOptions: { projectService: false } } }] });

/** What `npm run lint` says about `code` if it were the file at `path`. */
async function breaches(path: string, code: string): Promise<string[]> {
  const [result] = await zoneLinter.lintText(code, { filePath: join(root, path) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("layering: `npm run lint` refuses an import across the layers", () => {
  it.each([
    ["src/shared/protocol/scratch.ts", 'import { x } from "../../core/tools/registry";', "src/shared and the webview take only what src/shared offers"],
    ["src/shared/scratch.ts", 'export { y } from "../hosts/cli/args";', "Hosts depend on the core"],
    ["src/shared/scratch.ts", 'import * as vscode from "vscode";', "Only src/hosts/vscode talks to VS Code"],
    ["webview-ui/src/cards/scratch.ts", 'import { x } from "../../../src/core/tools/registry";', "src/shared and the webview take only what src/shared offers"],
    ["webview-ui/src/scratch.tsx", 'import { readFileSync } from "node:fs";', "no Node built-ins"],
    ["src/core/tools/scratch.ts", 'export const v = require("vscode");', "Only src/hosts/vscode talks to VS Code"],
    ["src/core/tools/scratch.ts", 'import { activate } from "../../hosts/vscode/extension";', "Hosts depend on the core"],
    ["src/core/scratch.ts", 'export const p = await import("../platform/node/nodeTerminal");', "the core only knows the ports"],
    ["src/shared/scratch.ts", 'export type T = import("../core/tools/defineTool").ToolSpec;', "src/shared and the webview take only what src/shared offers"],
  ])("%s: %s", async (path, code, message) => {
    const found = await breaches(path, `${code}\nexport const used = 1;\n`);
    expect(found.join("\n")).toContain(message);
  });

  it("lets each layer import what it may", async () => {
    expect(await breaches("src/core/tools/scratch.ts", 'import { withinBounds } from "../../shared/limits";\nexport const b = withinBounds;\n')).toEqual([]);
    expect(await breaches("webview-ui/src/scratch.ts", 'import { withinBounds } from "../../src/shared/limits";\nexport const b = withinBounds;\n')).toEqual([]);
    expect(await breaches("src/hosts/vscode/scratch.ts", 'import * as vscode from "vscode";\nimport { Task } from "../../core/agent/Task";\nexport const b = [vscode, Task];\n')).toEqual([]);
  });

  it("keeps code out of src/core/ports: a port is interfaces and types only", async () => {
    for (const code of [
      "export function parse(text: string): string {\n  return text;\n}\n",
      "export class Gone extends Error {}\n",
      "export const none = {};\n",
      "const hidden = 1;\nexport type T = typeof hidden;\n",
    ]) {
      expect((await breaches("src/core/ports/scratch.ts", code)).join("\n")).toContain("src/core/ports holds interfaces only");
    }
    expect(await breaches("src/core/ports/scratch.ts", 'import type { Mode } from "../modes/modes";\nexport interface Port {\n  mode(): Mode;\n}\nexport type Kind = "a" | "b";\n')).toEqual([]);
  });
});
