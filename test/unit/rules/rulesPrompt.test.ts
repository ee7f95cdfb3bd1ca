import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createToolbox } from "../../../src/core/agent/toolbox";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { buildSystemPrompt } from "../../../src/core/prompts/system";
import { loadRules } from "../../../src/core/rules/loadRules";
import { createRulesSource } from "../../../src/core/rules/rulesPrompt";
import { createDefaultRegistry } from "../../../src/core/tools/registry";

let workspace: string;
let globalDir: string;

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

beforeEach(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "kiln-rules-prompt-")));
  workspace = join(base, "ws");
  globalDir = join(base, "global", "rules");
  mkdirSync(workspace);
});

/** A task's tools as the hosts build them, with the rules source both hosts use. */
function toolbox(disabled: string[] = [], problems: string[] = []) {
  return createToolbox({
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(), outsideWorkspace: false },
    cwd: workspace,
    fs: new NodeFileSystem(),
    os: "Linux",
    rules: createRulesSource({ where: { workspace, globalDir }, disabled: () => disabled, report: (p) => problems.push(p) }),
  });
}

/** The system prompt the task sends in `mode`. */
function promptOf(box: ReturnType<typeof toolbox>, protocol: "xml" | "native", mode = "code"): string {
  return box.systemPrompt(protocol, { mode: findMode(mode)!, modes: box.modes });
}

const SECTION = "# User's custom instructions";
const env = { cwd: "/ws", os: "Linux", now: new Date(0) };

describe("rules in the system prompt", () => {
  it("a workspace without rules gets no rules section", () => {
    expect(promptOf(toolbox(), "xml")).not.toContain(SECTION);
    expect(buildSystemPrompt(findMode("code")!, "native", "", env)).toBe(buildSystemPrompt(findMode("code")!, "native", "", { ...env, rules: { rules: [], leftOut: [] } }));
  });

  it("comes last, each file under its path: global, then project general, then the mode's", () => {
    put(join(workspace, ".kilocode/rules/style.md"), "Use two spaces.\n");
    put(join(workspace, ".kilocode/rules-code/tests.md"), "Write a test for each fix.");
    put(join(workspace, ".kilocode/rules-architect/plans.md"), "Plans go in docs/.");
    put(join(workspace, "AGENTS.md"), "Run npm test.");
    put(join(globalDir, "lang.md"), "Answer in English.");
    const prompt = promptOf(toolbox(), "xml");
    const section = prompt.slice(prompt.indexOf(SECTION));
    expect(prompt.endsWith(section)).toBe(true);
    expect(section).toBe(`${SECTION}

The user's rule files follow. Follow them in addition to the rules above; where two disagree, the later one (project over global, a mode's over the general) wins.

## ${join(globalDir, "lang.md")} (global)

Answer in English.

## .kilocode/rules/style.md (project)

Use two spaces.

## AGENTS.md (project)

Run npm test.

## .kilocode/rules-code/tests.md (project, code mode)

Write a test for each fix.`);
  });

  it("follows the mode: another mode gets its own folder's rules instead", () => {
    put(join(workspace, ".kilocode/rules-code/tests.md"), "CODE RULE");
    put(join(workspace, ".kilocode/rules-architect/plans.md"), "ARCHITECT RULE");
    const box = toolbox();
    expect(promptOf(box, "native")).toContain("CODE RULE");
    const architect = promptOf(box, "native", "architect");
    expect(architect).toContain("## .kilocode/rules-architect/plans.md (project, architect mode)\n\nARCHITECT RULE");
    expect(architect).not.toContain("CODE RULE");
  });

  it("leaves out rules turned off, and reads files again for each prompt", () => {
    put(join(workspace, ".kilocode/rules/keep.md"), "KEEP ME");
    put(join(workspace, ".kilocode/rules/off.md"), "TURNED OFF");
    const box = toolbox(["project:.kilocode/rules/off.md"]);
    const first = promptOf(box, "xml");
    expect(first).toContain("KEEP ME");
    expect(first).not.toContain("TURNED OFF");
    put(join(workspace, ".kilocode/rules/keep.md"), "EDITED");
    rmSync(join(workspace, ".kilocode/rules/off.md"));
    put(join(workspace, ".roorules"), "BROUGHT FROM ROO");
    const second = promptOf(box, "xml");
    expect(second).toContain("## .kilocode/rules/keep.md (project)\n\nEDITED");
    expect(second).toContain("## .roorules (project)\n\nBROUGHT FROM ROO");
    expect(second).not.toContain("KEEP ME");
  });

  it("says in the prompt what was cut or left out, and reports each problem once", () => {
    put(join(workspace, ".kilocode/rules/huge.md"), "x".repeat(60_000));
    put(join(workspace, ".kilocode/rules/bin.md"), "\0\0");
    const problems: string[] = [];
    const box = toolbox([], problems);
    const prompt = promptOf(box, "xml");
    promptOf(box, "xml");
    expect(prompt).toContain(`## .kilocode/rules/huge.md (project)\n\n${"x".repeat(50_000)}\n\n[Cut: the file has 60 KB; only the first 50 KB are included.]`);
    expect(problems).toEqual([
      `rules: ${join(workspace, ".kilocode/rules/bin.md")}: looks like a binary file, not a rule; left out`,
      `rules: ${join(workspace, ".kilocode/rules/huge.md")} was cut (the file has 60 KB; only the first 50 KB are included)`,
    ]);
  });

  it("names the files left out past the total cap", () => {
    put(join(workspace, ".kilocode/rules/a.md"), "A".repeat(30));
    put(join(workspace, ".kilocode/rules/b.md"), "B");
    const rules = loadRules({ workspace }, "code", { maxTotalBytes: 30 });
    const prompt = buildSystemPrompt(findMode("code")!, "native", "", { ...env, rules });
    expect(prompt).toContain(`## .kilocode/rules/a.md (project)\n\n${"A".repeat(30)}\n\n[Left out, because the rules reached their size limit: .kilocode/rules/b.md.]`);
  });
});
