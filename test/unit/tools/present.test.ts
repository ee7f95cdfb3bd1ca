import { describe, expect, it } from "vitest";
import { presentTool } from "../../../src/core/agent/presenter";
import type { AnyTool } from "../../../src/core/tools/defineTool";
import { coerceArgs } from "../../../src/core/tools/params";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { inPseudoLocale, translated } from "../pseudoL10n";
import { ToolStatusSchema, type ToolStatus } from "../../../src/shared/protocol/chat";
import { TARGET_SLOT, toolHeading, ToolViewSchema, type ToolView } from "../../../src/shared/toolView";

const STATUSES: readonly ToolStatus[] = ToolStatusSchema.options;
const TOOLS = createDefaultRegistry().list();

/** Values as a model writes them, for the parameters whose shape matters; the rest by kind. */
const SAMPLES: Record<string, string> = {
  path: "src/greet.ts",
  diff: "<<<<<<< SEARCH\n:start_line:3\n-------\nold line\n=======\nnew line\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nsecond\n=======\nsecond, changed\n>>>>>>> REPLACE",
  args: "<file><path>a.ts</path><line_range>1-20</line_range></file><file><path>b.ts</path></file>",
  todos: "- [x] Read the code\n- [-] Write the test\n- [ ] Run it",
  arguments: '{"city": "Oslo", "days": 3}',
  follow_up: '<suggest>Yes</suggest><suggest mode="code">No</suggest>',
  content: "export const a = 1;\nexport const b = 2;\n",
  url: "http://localhost:3000/index.html",
  command: "npm test -- --run",
  action: "click",
  coordinate: "450,300",
};

function sample(name: string, tool: AnyTool): string {
  const spec = tool.params[name]!;
  if (SAMPLES[name] !== undefined) return SAMPLES[name];
  if (spec.kind === "integer") return "12";
  if (spec.kind === "boolean") return "true";
  return spec.enum?.[0] ?? `some ${name}\nand a second line`;
}

const half = (text: string) => text.slice(0, Math.ceil(text.length / 2));

/** {}, each parameter alone (whole and cut in half), all of them whole, and all of them cut in half. */
function argumentSets(tool: AnyTool): Record<string, string>[] {
  const names = Object.keys(tool.params);
  const whole = Object.fromEntries(names.map((name) => [name, sample(name, tool)]));
  return [{}, ...names.flatMap((name) => [{ [name]: whole[name]! }, { [name]: half(whole[name]!) }, { [name]: "" }]), whole, Object.fromEntries(names.map((name) => [name, half(whole[name]!)]))];
}

function expectWellFormed(view: ToolView, what: string): void {
  const parsed = ToolViewSchema.safeParse(view);
  expect(parsed.success, `${what}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
  expect(view.title.trim(), what).not.toBe("");
  // A sentence with the icon VS Code users know for it; a link only to a path that has arrived.
  expect(view.title, what).toMatch(/^Kiln /);
  expect(view.icon, what).toBeDefined();
  if (view.link) expect(view.link.path.trim(), what).not.toBe("");
  // Nothing empty is sent: no empty target, no body that shows nothing.
  expect(view.target, what).not.toBe("");
  if (view.body?.kind === "fields") expect(view.body.fields.length, what).toBeGreaterThan(0);
  if (view.body?.kind === "diff") expect(view.body.hunks.length, what).toBeGreaterThan(0);
}

describe("every tool presents its calls", () => {
  it("the registry holds the tools the chat shows, the MCP tools among them", () => {
    const names = TOOLS.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["read_file", "write_to_file", "apply_diff", "execute_command", "use_mcp_tool", "access_mcp_resource", "condense"]));
    expect(TOOLS.filter((tool) => !tool.present).map((tool) => tool.name)).toEqual([]);
  });

  it.each(TOOLS.map((tool) => [tool.name, tool] as const))("%s: a well-formed view for no, partial and whole arguments, in every status", (name, tool) => {
    let views = 0;
    for (const args of argumentSets(tool)) {
      for (const status of STATUSES) {
        const what = `${name} ${status} ${JSON.stringify(args)}`;
        let view: ToolView | undefined;
        expect(() => (view = tool.present!(args, status)), what).not.toThrow();
        expectWellFormed(view!, what);
        // The presenter gives the same view (and is how the chat items get theirs).
        expect(presentTool(name, args, status)).toEqual(view);
        views++;
      }
    }
    expect(views).toBeGreaterThanOrEqual(STATUSES.length * 2);
  });

  it("a tool nobody knows shows its name, its path, and its other arguments as labelled values", () => {
    expect(presentTool("custom_tool", { path: "a.ts", mode: "fast" }, "done")).toEqual({
      icon: "tools",
      title: "Kiln used custom_tool",
      target: "a.ts",
      link: { path: "a.ts" },
      body: { kind: "fields", fields: [{ label: "mode", value: "fast" }] },
    });
    expect(presentTool("", {}, "streaming")).toEqual({ icon: "tools", title: "Kiln wants to use a tool" });
  });
});

describe("what the views say", () => {
  // The target's place in a title is written {target} here.
  const view = (name: string, args: Record<string, string>, status: ToolStatus = "streaming") => {
    const shown = presentTool(name, args, status);
    return { ...shown, title: shown.title.replace(TARGET_SLOT, "{target}") };
  };

  it("read_file: the path and lines in the target; several files listed, from XML, JSON or JSON cut off", () => {
    expect(view("read_file", { path: "src/a.ts", start_line: "10", end_line: "40" })).toEqual({
      icon: "eye",
      title: "Kiln wants to read {target}",
      target: "src/a.ts:10-40",
      link: { path: "src/a.ts", line: 10 },
    });
    expect(view("read_file", { args: SAMPLES.args! }, "done")).toEqual({
      icon: "eye",
      title: "Kiln read {target}",
      target: "2 files",
      body: { kind: "files", files: [{ path: "a.ts", note: "lines 1-20" }, { path: "b.ts" }] },
    });
    expect(view("read_file", { args: '[{"path": "a.ts", "line_range": ["1-5", "9-12"]}, {"path": "b.ts"}]' }).body).toEqual({
      kind: "files",
      files: [{ path: "a.ts", note: "lines 1-5, 9-12" }, { path: "b.ts" }],
    });
    expect(view("read_file", { args: '{"file": [{"path": "a.ts"}, {"path": "b.t' }).body).toEqual({ kind: "files", files: [{ path: "a.ts" }, { path: "b.t" }] });
  });

  it("write_to_file and new_rule: the file with its content; apply_diff: its blocks as hunks, the last one streaming", () => {
    expect(view("write_to_file", { path: "a.ts", content: "x\n" }).body).toEqual({ kind: "file", path: "a.ts", content: "x\n" });
    expect(view("new_rule", { name: "Testing conventions", content: "Use vitest." })).toEqual({
      icon: "law",
      title: "Kiln wants to add the rule {target}",
      target: ".kilocode/rules/Testing-conventions.md",
      link: { path: ".kilocode/rules/Testing-conventions.md" },
      body: { kind: "file", path: ".kilocode/rules/Testing-conventions.md", content: "Use vitest." },
    });
    const streaming = "<<<<<<< SEARCH\n:start_line:3\n-------\nold line\n=======\nnew line\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\nsec\n=======\nnew";
    expect(view("apply_diff", { path: "a.ts", diff: streaming }).body).toEqual({
      kind: "diff",
      hunks: [
        { label: "at line 3", removed: ["old line"], added: ["new line"] },
        { removed: ["sec"], added: ["new"] },
      ],
    });
  });

  it("execute_command: the command line with where and how long; the follow-up question only until it has run", () => {
    expect(view("execute_command", { command: "npm test", cwd: "pkg", timeout: "30" }, "done")).toEqual({
      icon: "terminal",
      title: "Kiln ran {target}",
      target: "npm test",
      code: true,
      body: {
        kind: "command",
        command: "npm test",
        fields: [
          { label: "in", value: "pkg" },
          { label: "timeout", value: "30 s" },
        ],
      },
    });
    expect(view("ask_followup_question", { question: "Which file?" }, "waiting").body).toEqual({ kind: "markdown", text: "Which file?" });
    expect(view("ask_followup_question", { question: "Which file?" }, "done").body).toBeUndefined();
  });

  it("checklists: each item with its status, a line that is not an item kept as it is", () => {
    expect(view("new_task", { mode: "code", message: "Do it.", todos: "- [x] one\nnot an item\n- [ ] tw" })).toEqual({
      icon: "zap",
      title: "Kiln wants to start a subtask in {target} mode",
      target: "code",
      body: { kind: "checklist", text: "Do it.", items: [{ text: "one", status: "completed" }, { text: "not an item" }, { text: "tw", status: "pending" }] },
    });
  });

  it("condensing says what it is doing in words, by its status", () => {
    expect(view("condense", { context: "automatic" }, "running").title).toBe("Kiln is condensing the conversation");
    expect(view("condense", { context: "automatic" }, "done").title).toBe("Kiln condensed the conversation");
  });

  it("a title is a sentence by the call's status: wants to, is doing, did, was not allowed to, could not", () => {
    const titles = (["streaming", "waiting", "running", "done", "denied", "error"] as const).map((status) => toolHeading(presentTool("apply_diff", { path: "src/greet.ts" }, status)));
    expect(titles).toEqual([
      "Kiln wants to edit src/greet.ts",
      "Kiln wants to edit src/greet.ts",
      "Kiln is editing src/greet.ts",
      "Kiln edited src/greet.ts",
      "Kiln was not allowed to edit src/greet.ts",
      "Kiln could not edit src/greet.ts",
    ]);
    // Until the path arrives the sentence leaves out its place.
    expect(presentTool("apply_diff", {}, "streaming").title).toBe("Kiln wants to edit");
    expect(view("ask_followup_question", { question: "Which?" }, "waiting").title).toBe("Kiln has a question");
    expect(view("write_to_file", { path: "src/greet.ts" }, "waiting")).toMatchObject({ title: "Kiln wants to write {target}", target: "src/greet.ts", link: { path: "src/greet.ts" } });
  });

  it("a command's first line is the title's target, cut to fit; its whole text stays in the body", () => {
    const long = `npm run build -- ${"--flag ".repeat(20)}`.trim();
    const shown = view("execute_command", { command: long });
    expect(shown.target).toBe(`${long.slice(0, 79)}…`);
    expect(shown.body).toEqual({ kind: "command", command: long });
    expect(view("execute_command", { command: "cd pkg\nnpm test" }).target).toBe("cd pkg …");
    expect(view("execute_command", {}).target).toBeUndefined();
  });

  it("a link opens the path alone at the first line read; a deleted file and several files have none", () => {
    expect(view("read_file", { path: "src/a.ts", start_line: "x" }).link).toEqual({ path: "src/a.ts" });
    expect(view("delete_file", { path: "old.ts" }, "done").link).toBeUndefined();
    expect(view("read_file", { args: SAMPLES.args! }).link).toBeUndefined();
    expect(view("list_files", { path: "src" }).link).toEqual({ path: "src" });
  });
});

describe("in another language", () => {
  // Every message that goes through l10n.t comes back as ⟦message⟧, so a word that skipped it has no brackets.
  inPseudoLocale();

  it.each(TOOLS.map((tool) => [tool.name, tool] as const))("%s: its title, labels and words come from the translation, the arguments as they are", (_, tool) => {
    // Every set of arguments, and the whole set again with each yes/no said the other way.
    const whole = argumentSets(tool).at(-2)!;
    const flipped = Object.fromEntries(Object.entries(whole).map(([name, value]) => [name, tool.params[name]!.kind === "boolean" ? "false" : value]));
    for (const [args, status] of [...argumentSets(tool), flipped].flatMap((args) => STATUSES.map((status) => [args, status] as const))) {
      const data = new Set(Object.values(args).filter((value) => value !== ""));
      const view = tool.present!(args, status);
      const what = `${status} ${JSON.stringify(args)}: ${JSON.stringify(view)}`;
      // The sentence in the translation's own order, the target's place kept.
      expect(translated(view.title), what).toBe(true);
      if (view.target && view.title.includes(TARGET_SLOT)) expect(toolHeading(view)).toContain(view.target);
      // A target made of the arguments (a path, a rule file from its name, server · tool) stays as it is.
      if (view.target && ![...data].some((value) => view.target!.includes(value.split(/\s/)[0]!))) expect(translated(view.target), what).toBe(true);
      const body = view.body;
      const fieldsShown = body?.kind === "fields" ? body.fields : body?.kind === "command" ? (body.fields ?? []) : [];
      for (const field of fieldsShown) {
        expect(translated(field.label), what).toBe(true);
        expect(data.has(field.value) || translated(field.value), what).toBe(true);
      }
      for (const hunk of body?.kind === "diff" ? body.hunks : []) if (hunk.label) expect(hunk.label.split(", ").every(translated), what).toBe(true);
      for (const file of body?.kind === "files" ? body.files : []) if (file.note) expect(translated(file.note), what).toBe(true);
    }
  });
  it.each(TOOLS.filter((tool) => tool.approval).map((tool) => [tool.name, tool] as const))("%s: what the user is asked to approve is a translated sentence", (_, tool) => {
    const whole = argumentSets(tool).at(-2)!;
    const flipped = Object.fromEntries(Object.entries(whole).map(([name, value]) => [name, tool.params[name]!.kind === "boolean" ? "false" : value]));
    for (const raw of [whole, flipped]) {
      const args = coerceArgs(tool.params, raw);
      expect(args.ok, JSON.stringify(raw)).toBe(true);
      if (args.ok) expect(translated(tool.approval!(args.args).summary), JSON.stringify(raw)).toBe(true);
    }
  });
});
