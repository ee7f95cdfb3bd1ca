import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fillArguments, parseSlashCommand, parseWorkflow, readWorkflow, workflowNames } from "../../../src/core/commands/workflows";
import { FileSearch } from "../../../src/core/mentions/fileSearch";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runSlashCommandTool } from "../../../src/core/tools/runSlashCommand";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-cmd-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("slash commands and workflow files", () => {
  it("parses /name and its arguments only at the start of a message", () => {
    expect(parseSlashCommand("/review  src/a.ts and b")).toEqual({ name: "review", args: "src/a.ts and b" });
    expect(parseSlashCommand("/newtask\nline two")).toEqual({ name: "newtask", args: "line two" });
    expect(parseSlashCommand("/condense")).toEqual({ name: "condense", args: "" });
    expect(parseSlashCommand("please /review")).toBeUndefined();
    expect(parseSlashCommand("/src/a.ts is broken")).toBeUndefined();
  });

  it("reads description, argument-hint and mode from front matter and keeps the body", () => {
    const w = parseWorkflow("---\ndescription: Review a change\nargument-hint: <files>\nmode: ask\n---\nReview $ARGUMENTS carefully.\n");
    expect(w).toEqual({ body: "Review $ARGUMENTS carefully.", description: "Review a change", argumentHint: "<files>", mode: "ask" });
    expect(parseWorkflow("No header.\n")).toEqual({ body: "No header." });
    // A broken header loses its fields, not the command.
    expect(parseWorkflow("---\ndescription: [unclosed\n---\nBody")).toEqual({ body: "Body" });
  });

  it("fills $ARGUMENTS everywhere, or appends the arguments when the body has no placeholder", () => {
    expect(fillArguments("Do $ARGUMENTS then check $ARGUMENTS.", "x y")).toBe("Do x y then check x y.");
    expect(fillArguments("Do it.", "now")).toBe("Do it.\n\nArguments: now");
    expect(fillArguments("Do it.", "  ")).toBe("Do it.");
  });

  it("lists and reads workflows from a commands folder; run_slash_command shares the parsing", async () => {
    const dir = join(root, ".kilocode", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "review.md"), "---\ndescription: Review\nmode: ask\n---\nReview $ARGUMENTS.");
    writeFileSync(join(dir, "deploy.md"), "Deploy.");
    writeFileSync(join(dir, "notes.txt"), "not a command");
    const fs = new NodeFileSystem();
    expect(await workflowNames(fs, dir)).toEqual(["deploy", "review"]);
    expect(await readWorkflow(fs, dir, "review")).toMatchObject({ mode: "ask", body: "Review $ARGUMENTS." });
    expect(await readWorkflow(fs, dir, "../x")).toBeUndefined();
    const ran = await runSlashCommandTool.execute({ command: "review", args: "a.ts" }, { cwd: root, fs, signal: new AbortController().signal });
    expect(ran).toEqual({ kind: "result", text: "Workflow /review; follow these instructions:\n<workflow>\nReview a.ts.\n</workflow>" });
  });

  it("run_slash_command also finds Kilo's, Roo's and Cline's workflow folders in place; Kiln's own folder wins a shared name", async () => {
    const put = (rel: string, text: string) => {
      mkdirSync(join(root, rel, ".."), { recursive: true });
      writeFileSync(join(root, rel), text);
    };
    put(".kilocode/commands/review.md", "KILN review.");
    put(".roo/commands/review.md", "ROO review.");
    put(".roo/commands/triage.md", "Triage $ARGUMENTS.");
    put(".kilocode/workflows/release.md", "Release it.");
    put(".clinerules/workflows/deploy.md", "Deploy to $ARGUMENTS.");
    const fs = new NodeFileSystem();
    const run = (command: string, args?: string) => runSlashCommandTool.execute({ command, ...(args ? { args } : {}) }, { cwd: root, fs, signal: new AbortController().signal });
    expect(await run("review")).toMatchObject({ text: expect.stringContaining("KILN review.") });
    expect(await run("triage", "#12")).toMatchObject({ text: expect.stringContaining("Triage #12.") });
    expect(await run("release")).toMatchObject({ text: expect.stringContaining("Release it.") });
    expect(await run("deploy", "staging")).toMatchObject({ text: expect.stringContaining("Deploy to staging.") });
    expect(await run("nope")).toMatchObject({ kind: "error", message: "there is no command /nope. Commands: /deploy, /release, /review, /triage." });
  });
});

describe("the @ picker's file search", () => {
  it("finds files and folders by fuzzy text, best match first, honouring .gitignore and .kilocodeignore", async () => {
    mkdirSync(join(root, "src", "components"), { recursive: true });
    mkdirSync(join(root, "dist"));
    mkdirSync(join(root, "node_modules", "lib"), { recursive: true });
    writeFileSync(join(root, "src", "components", "Button.tsx"), "");
    writeFileSync(join(root, "src", "buttonUtils.ts"), "");
    writeFileSync(join(root, "dist", "button.js"), "");
    writeFileSync(join(root, "private.md"), "");
    writeFileSync(join(root, "node_modules", "lib", "button.js"), "");
    writeFileSync(join(root, ".gitignore"), "dist/\n");
    writeFileSync(join(root, ".kilocodeignore"), "private.md\n");
    const search = new FileSearch(root, new NodeFileSystem());
    const found = (await search.search("button")).map((e) => e.path);
    expect(found).toEqual(["src/buttonUtils.ts", "src/components/Button.tsx"]);
    expect(await search.search("src/comp")).toContainEqual({ path: "src/components", kind: "folder" });
    expect((await search.search("btn")).map((e) => e.path)).toContain("src/components/Button.tsx");
    expect((await search.search("private")).length).toBe(0);
    expect((await search.search("", 2)).length).toBe(2);
  });
});
