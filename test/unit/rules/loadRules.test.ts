import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { discoverRules, loadRules, type RulesLocation } from "../../../src/core/rules/loadRules";

let base: string;
let where: Required<RulesLocation>;

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
const project = (rel: string, text: string) => put(join(where.workspace, rel), text);
const global = (rel: string, text: string) => put(join(dirname(where.globalDir), rel), text);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "kiln-rules-")));
  where = { workspace: join(base, "ws"), globalDir: join(base, "home", ".kilocode", "rules") };
  mkdirSync(where.workspace);
});

const ids = (mode?: string) => discoverRules(where, mode).files.map((f) => f.id);
const texts = (mode: string, options = {}) => loadRules(where, mode, options).rules.map((r) => `${r.display}=${r.text}`);

describe("rule discovery", () => {
  it("finds nothing (and no error) where there are no rules", () => {
    expect(discoverRules(where, "code")).toEqual({ files: [], errors: [] });
    expect(discoverRules({ workspace: join(base, "missing") }, "code")).toEqual({ files: [], errors: [] });
  });

  it("orders global before project, each sorted by path, including subfolders, AGENTS.md and legacy files", () => {
    project(".kilocode/rules/b-style.md", "B");
    project(".kilocode/rules/a-testing.txt", "A");
    project(".kilocode/rules/nested/deep.md", "D");
    project("AGENTS.md", "agents");
    project(".roorules", "roo");
    project(".kilocoderules", "kilo");
    project(".clinerules/one.md", "cline folder");
    global("rules/zz.md", "global z");
    global("rules/aa.md", "global a");
    expect(ids("code")).toEqual([
      "global:rules/aa.md",
      "global:rules/zz.md",
      "project:.clinerules/one.md",
      "project:.kilocode/rules/a-testing.txt",
      "project:.kilocode/rules/b-style.md",
      "project:.kilocode/rules/nested/deep.md",
      "project:.kilocoderules",
      "project:.roorules",
      "project:AGENTS.md",
    ]);
    const files = discoverRules(where, "code").files;
    // Project rules are shown relative to the workspace, global ones by their full path.
    expect(files.find((f) => f.id === "project:AGENTS.md")).toMatchObject({ scope: "project", display: "AGENTS.md", path: join(where.workspace, "AGENTS.md"), size: 6 });
    expect(files[0]).toMatchObject({ scope: "global", display: join(where.globalDir, "aa.md"), size: 8 });
  });

  it("skips dotfiles and other extensions inside rule folders, but takes single legacy files as they are", () => {
    project(".kilocode/rules/.draft.md", "hidden");
    project(".kilocode/rules/notes.json", "{}");
    project(".kilocode/rules/ok.markdown", "ok");
    project(".clinerules", "a plain file, no extension");
    expect(ids("code")).toEqual(["project:.clinerules", "project:.kilocode/rules/ok.markdown"]);
  });

  it("a mode's folders and legacy files apply in that mode only, after the general rules of their scope", () => {
    project(".kilocode/rules/general.md", "general");
    project(".kilocode/rules-code/code-only.md", "code rule");
    project(".kilocode/rules-architect/plans.md", "architect rule");
    project(".roorules-code", "legacy code rule");
    global("rules/g.md", "global");
    global("rules-code/g-code.md", "global code rule");
    expect(ids("code")).toEqual(["global:rules/g.md", "global:rules-code/g-code.md", "project:.kilocode/rules/general.md", "project:.kilocode/rules-code/code-only.md", "project:.roorules-code"]);
    expect(ids("architect")).toEqual(["global:rules/g.md", "project:.kilocode/rules/general.md", "project:.kilocode/rules-architect/plans.md"]);
    const code = discoverRules(where, "code").files;
    expect(code.find((f) => f.id === "project:.roorules-code")?.mode).toBe("code");
    expect(code.find((f) => f.id === "project:.kilocode/rules/general.md")?.mode).toBeUndefined();
  });

  it("without a mode (the settings list) finds every mode's rules, each marked with its mode", () => {
    project(".kilocode/rules-code/c.md", "c");
    project(".kilocode/rules-ask/a.md", "a");
    global("rules-debug/d.md", "d");
    const files = discoverRules(where).files;
    expect(files.map((f) => [f.id, f.mode])).toEqual([
      ["global:rules-debug/d.md", "debug"],
      ["project:.kilocode/rules-ask/a.md", "ask"],
      ["project:.kilocode/rules-code/c.md", "code"],
    ]);
  });

  it("reads Roo's .roo/rules and .roo/rules-<mode> in place, beside Kiln's own folders", () => {
    project(".kilocode/rules/kiln.md", "kiln");
    project(".roo/rules/01-style.md", "roo style");
    project(".roo/rules-code/tests.md", "roo code rule");
    project(".roo/rules-docs/writing.md", "roo docs rule");
    project(".roo/mcp.json", "{}");
    expect(ids("code")).toEqual(["project:.kilocode/rules/kiln.md", "project:.roo/rules/01-style.md", "project:.roo/rules-code/tests.md"]);
    expect(texts("docs")).toEqual([".kilocode/rules/kiln.md=kiln", ".roo/rules/01-style.md=roo style", ".roo/rules-docs/writing.md=roo docs rule"]);
    // The settings list shows each Roo mode folder with its mode, so it can be turned off like Kiln's.
    expect(discoverRules(where).files.map((f) => [f.id, f.mode])).toEqual([
      ["project:.kilocode/rules/kiln.md", undefined],
      ["project:.roo/rules/01-style.md", undefined],
      ["project:.roo/rules-code/tests.md", "code"],
      ["project:.roo/rules-docs/writing.md", "docs"],
    ]);
    expect(texts("code", { disabled: ["project:.roo/rules/01-style.md"] })).toEqual([".kilocode/rules/kiln.md=kiln", ".roo/rules-code/tests.md=roo code rule"]);
  });

  it("Cline's .clinerules/workflows holds slash commands, not rules", () => {
    project(".clinerules/style.md", "style");
    project(".clinerules/workflows/deploy.md", "Deploy steps.");
    project(".clinerules/more/workflows/kept.md", "a deeper folder of that name is rules");
    expect(ids("code")).toEqual(["project:.clinerules/more/workflows/kept.md", "project:.clinerules/style.md"]);
  });

  it("a mode slug cannot reach outside the rules folders", () => {
    project(".kilocode/secret.md", "not a rule");
    project(".kilocode/rules-x/ok.md", "x");
    expect(ids("../")).toEqual([]);
    expect(ids("x")).toEqual(["project:.kilocode/rules-x/ok.md"]);
  });
});

describe("loading rules", () => {
  it("reads each file's text, trimmed, and leaves out empty files and the ones turned off", () => {
    project(".kilocode/rules/a.md", "\uFEFF  Use tabs.\n\n");
    project(".kilocode/rules/empty.md", "  \n");
    project("AGENTS.md", "Run npm test before finishing.\n");
    global("rules/g.md", "Answer in English.");
    expect(texts("code")).toEqual([`${join(where.globalDir, "g.md")}=Answer in English.`, ".kilocode/rules/a.md=Use tabs.", "AGENTS.md=Run npm test before finishing."]);
    expect(texts("code", { disabled: ["project:AGENTS.md", "global:rules/g.md", "project:no-such.md"] })).toEqual([".kilocode/rules/a.md=Use tabs."]);
  });

  it("cuts a file past the per-file cap and says so, keeping whole characters", () => {
    project(".kilocode/rules/big.md", "é".repeat(40) + "tail");
    project(".kilocode/rules/small.md", "small");
    const load = loadRules(where, "code", { maxFileBytes: 51 });
    const big = load.rules[0]!;
    // 51 bytes end in the middle of the 26th "é" (2 bytes each): only 25 whole ones are kept.
    expect(big.text).toBe("é".repeat(25));
    expect(big.size).toBe(84);
    expect(big.cut).toBe("the file has 1 KB; only the first 1 KB are included");
    expect(load.rules[1]).toMatchObject({ text: "small" });
    expect(load.rules[1]!.cut).toBeUndefined();
  });

  it("stops at the total cap: the file that crosses it is cut, later ones are named as left out", () => {
    project(".kilocode/rules/1.md", "a".repeat(60));
    project(".kilocode/rules/2.md", "b".repeat(60));
    project(".kilocode/rules/3.md", "c".repeat(60));
    project(".kilocode/rules/4.md", "d");
    const load = loadRules(where, "code", { maxTotalBytes: 100 });
    expect(load.rules.map((r) => r.text)).toEqual(["a".repeat(60), "b".repeat(40)]);
    expect(load.rules[1]!.cut).toMatch(/the rules reached 1 KB in all; only the start of this file is included/);
    expect(load.leftOut).toEqual([".kilocode/rules/3.md", ".kilocode/rules/4.md"]);
  });

  it("reports unreadable and binary files and still loads the others", () => {
    project(".kilocode/rules/good.md", "good");
    project(".kilocode/rules/binary.md", "a\0b");
    // A link to a file that is gone: found in the folder, but it cannot be read (this holds for root too).
    symlinkSync(join(base, "gone.md"), join(where.workspace, ".kilocode/rules/dangling.md"));
    const load = loadRules(where, "code");
    expect(load.rules.map((r) => r.text)).toEqual(["good"]);
    expect(load.errors).toEqual([
      `${join(where.workspace, ".kilocode/rules/dangling.md")}: cannot be read (ENOENT)`,
      `${join(where.workspace, ".kilocode/rules/binary.md")}: looks like a binary file, not a rule; left out`,
    ]);
  });
});
