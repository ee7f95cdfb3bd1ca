import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runToolCall } from "../../../src/core/agent/pipeline";
import { createToolbox } from "../../../src/core/agent/toolbox";
import { findMode } from "../../../src/core/modes/modes";
import { createSkillsSource, discoverSkills, loadSkill, parseSkillHeader } from "../../../src/core/skills/skills";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";

let workspace: string;
let globalDir: string;

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
const skillFile = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

beforeEach(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "kiln-skills-")));
  workspace = join(base, "ws");
  globalDir = join(base, "home", ".kilocode", "skills");
  mkdirSync(workspace);
});

/** A task's tools as the hosts build them, with the skills source both hosts use. */
function toolbox(disabled: string[] = [], problems: string[] = []) {
  return createToolbox({
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(), outsideWorkspace: false },
    cwd: workspace,
    fs: new NodeFileSystem(),
    os: "Linux",
    skills: createSkillsSource({ where: { workspace, globalDir }, disabled: () => disabled, report: (p) => problems.push(p) }),
  });
}

const promptOf = (box: ReturnType<typeof toolbox>, protocol: "xml" | "native" = "xml", mode = "code") => box.systemPrompt(protocol, { mode: findMode(mode)!, modes: box.modes });

async function useSkill(box: ReturnType<typeof toolbox>, name: string) {
  const deps = box.pipeline(new AbortController().signal, { mode: findMode("ask")!, modes: box.modes });
  return runToolCall({ type: "tool_use", name: "use_skill", params: { name }, partial: false }, deps);
}

describe("skill discovery", () => {
  it("finds SKILL.md folders in .kilocode/skills, .claude/skills, .roo/skills and the global folder", () => {
    put(join(globalDir, "commit-messages/SKILL.md"), skillFile("commit-messages", "Write commit messages in the team's style", "Subject under 50 chars."));
    put(join(workspace, ".kilocode/skills/release-notes/SKILL.md"), skillFile("release-notes", "Write release notes from the changelog", "Read CHANGELOG.md first."));
    put(join(workspace, ".claude/skills/pdf-forms/SKILL.md"), skillFile("pdf-forms", "Fill PDF forms with the bundled script", "Run scripts/fill.py."));
    put(join(workspace, ".roo/skills/db-migrations/SKILL.md"), skillFile("db-migrations", "Write a database migration", "Use the migrations folder."));
    put(join(workspace, ".kilocode/skills/shared-scripts/helper.sh"), "echo not a skill");
    const found = discoverSkills({ workspace, globalDir });
    expect(found.errors).toEqual([]);
    expect(found.skills.map((s) => [s.id, s.name, s.scope, s.display])).toEqual([
      ["global:skills/commit-messages", "commit-messages", "global", join(globalDir, "commit-messages")],
      ["project:.kilocode/skills/release-notes", "release-notes", "project", ".kilocode/skills/release-notes"],
      ["project:.claude/skills/pdf-forms", "pdf-forms", "project", ".claude/skills/pdf-forms"],
      ["project:.roo/skills/db-migrations", "db-migrations", "project", ".roo/skills/db-migrations"],
    ]);
  });

  it("a project skill replaces a global one of the same name; a second one in the project is reported and the first kept", () => {
    put(join(globalDir, "review/SKILL.md"), skillFile("review", "GLOBAL review", "global body"));
    put(join(workspace, ".kilocode/skills/review/SKILL.md"), skillFile("review", "PROJECT review", "project body"));
    put(join(workspace, ".claude/skills/review-copy/SKILL.md"), skillFile("review", "CLAUDE review", "claude body"));
    const found = discoverSkills({ workspace, globalDir });
    expect(found.skills.map((s) => s.description)).toEqual(["PROJECT review"]);
    expect(found.errors).toEqual([`.claude/skills/review-copy/SKILL.md: the skill name "review" is also used by .kilocode/skills/review; that one is kept`]);
  });

  it("reports a SKILL.md without front matter, name or description, or with a bad name, and loads the others", () => {
    put(join(workspace, ".kilocode/skills/good/SKILL.md"), skillFile("good", "Works", "ok"));
    put(join(workspace, ".kilocode/skills/plain/SKILL.md"), "# Just markdown\n");
    put(join(workspace, ".kilocode/skills/nameless/SKILL.md"), "---\ndescription: x\n---\nbody");
    put(join(workspace, ".kilocode/skills/undescribed/SKILL.md"), "---\nname: undescribed\n---\nbody");
    put(join(workspace, ".kilocode/skills/shouty/SKILL.md"), skillFile("Shouty Name", "x", "body"));
    put(join(workspace, ".kilocode/skills/broken/SKILL.md"), "---\nname: [unclosed\n---\nbody");
    const found = discoverSkills({ workspace });
    expect(found.skills.map((s) => s.name)).toEqual(["good"]);
    const why = (folder: string) => found.errors.find((e) => e.startsWith(`.kilocode/skills/${folder}/SKILL.md`))?.split(": not loaded as a skill: ")[1];
    expect(why("plain")).toBe("it does not start with --- front matter holding name and description");
    expect(why("nameless")).toBe("its front matter has no name");
    expect(why("undescribed")).toBe("its front matter has no description");
    expect(why("shouty")).toMatch(/^the name "Shouty Name" must be lower-case letters, digits and single dashes/);
    expect(why("broken")).toMatch(/^its front matter is not YAML/);
  });

  it("reads front matter with a BOM and CRLF line ends, and folds a long description to one line", () => {
    expect(parseSkillHeader("\uFEFF---\r\nname: crlf-skill\r\ndescription: >\r\n  Two\r\n  lines\r\n---\r\nbody")).toMatchObject({ ok: true, name: "crlf-skill", description: "Two lines" });
  });
});

describe("loading a skill", () => {
  it("returns the body without front matter and lists the folder's other files", () => {
    const folder = join(workspace, ".kilocode/skills/pdf-forms");
    put(join(folder, "SKILL.md"), skillFile("pdf-forms", "Fill PDF forms", "Run scripts/fill.py with the form."));
    put(join(folder, "scripts/fill.py"), "print('fill')");
    put(join(folder, "reference.md"), "fields");
    put(join(folder, ".cache/x"), "hidden");
    // A link out of the folder is not listed: it could lead anywhere.
    symlinkSync(workspace, join(folder, "elsewhere"));
    const [skill] = discoverSkills({ workspace }).skills;
    const loaded = loadSkill(skill!);
    expect(loaded.body).toBe("Run scripts/fill.py with the form.");
    expect(loaded.files).toEqual(["reference.md", "scripts/fill.py"]);
    expect(loaded.cut).toBeUndefined();
  });

  it("cuts a body past 50 KB and says so", () => {
    put(join(workspace, ".kilocode/skills/big/SKILL.md"), skillFile("big", "Big", "x".repeat(80_000)));
    const loaded = loadSkill(discoverSkills({ workspace }).skills[0]!);
    expect(loaded.cut).toMatch(/SKILL\.md has 81 KB; only the first 50 KB are included/);
    expect(loaded.body.length).toBeLessThan(50_000);
  });
});

describe("skills in a task", () => {
  it("the system prompt lists each enabled skill's name and description, never its body", () => {
    put(join(workspace, ".kilocode/skills/release-notes/SKILL.md"), skillFile("release-notes", "Write release notes from the changelog", "SECRET BODY STEPS"));
    put(join(globalDir, "commit-messages/SKILL.md"), skillFile("commit-messages", "Write commit messages", "GLOBAL BODY"));
    for (const protocol of ["xml", "native"] as const) {
      const prompt = promptOf(toolbox(), protocol);
      expect(prompt).toContain("# Skills");
      expect(prompt).toContain("- commit-messages: Write commit messages\n- release-notes: Write release notes from the changelog");
      expect(prompt).not.toMatch(/SECRET BODY|GLOBAL BODY/);
    }
    expect(promptOf(toolbox(["project:.kilocode/skills/release-notes"]))).not.toContain("release-notes");
  });

  it("without skills there is no section and no use_skill tool", () => {
    const box = toolbox();
    expect(promptOf(box)).not.toContain("# Skills");
    expect(promptOf(box)).not.toContain("use_skill");
    expect(box.nativeTools(findMode("code")!).map((t) => t.name)).not.toContain("use_skill");
    put(join(workspace, ".roo/skills/a/SKILL.md"), skillFile("a", "A", "body"));
    // Found again per request: a skill added mid-task is offered from the next one.
    expect(box.nativeTools(findMode("ask")!).map((t) => t.name)).toContain("use_skill");
    expect(promptOf(box, "xml", "ask")).toContain("## use_skill");
  });

  it("use_skill returns the body and the folder's files, in any mode; a disabled or unknown skill is refused with the list", async () => {
    put(join(workspace, ".kilocode/skills/pdf-forms/SKILL.md"), skillFile("pdf-forms", "Fill PDF forms", "Run scripts/fill.py."));
    put(join(workspace, ".kilocode/skills/pdf-forms/scripts/fill.py"), "print()");
    put(join(workspace, ".claude/skills/off/SKILL.md"), skillFile("off", "Turned off", "OFF BODY"));
    const problems: string[] = [];
    const box = toolbox(["project:.claude/skills/off"], problems);
    const used = await useSkill(box, "pdf-forms");
    expect(used.status).toBe("done");
    expect(used.forModel).toContain('<skill name="pdf-forms">\nRun scripts/fill.py.\n</skill>');
    expect(used.forModel).toContain("- .kilocode/skills/pdf-forms/scripts/fill.py");
    const off = await useSkill(box, "off");
    expect(off.forModel).toBe('Error: there is no skill "off" (or the user turned it off). Skills: pdf-forms.');
    expect(off.forModel).not.toContain("OFF BODY");
    expect((await useSkill(box, "nope")).status).toBe("error");
    expect(problems).toEqual([]);
  });

  it("reports each broken SKILL.md once, however many requests read it", () => {
    put(join(workspace, ".kilocode/skills/bad/SKILL.md"), "no header");
    const problems: string[] = [];
    const box = toolbox([], problems);
    promptOf(box);
    promptOf(box);
    expect(problems).toEqual([`skills: .kilocode/skills/bad/SKILL.md: not loaded as a skill: it does not start with --- front matter holding name and description`]);
  });
});
