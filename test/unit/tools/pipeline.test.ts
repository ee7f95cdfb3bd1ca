import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type AutoApprovePolicy, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import type { McpHubApi, McpServerView } from "../../../src/core/mcp/types";

let cwd: string;
let asked: ApprovalRequest[];
let answer: ApprovalDecision;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-tools-"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src", "a.ts"), Array.from({ length: 620 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  writeFileSync(join(cwd, "README.md"), "# Hi\n");
  asked = [];
  answer = { approved: true };
});

function deps(options: { auto?: AutoApprovePolicy["groups"]; mode?: string } & Pick<Partial<PipelineDeps>, "maxResultChars" | "saveOverflow"> = {}): PipelineDeps {
  const { auto, mode, ...rest } = options;
  return {
    registry: createDefaultRegistry(),
    mode: findMode(mode ?? "code")!,
    approvals: { request: async (r) => (asked.push(r), answer) },
    autoApprove: { groups: auto ?? new Set(), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
    ...rest,
  };
}

const call = (name: string, params: Record<string, string>, extra: Partial<ToolUseBlock> = {}): ToolUseBlock => ({ type: "tool_use", name, params, partial: false, ...extra });

describe("tool pipeline", () => {
  it("reads a range with line numbers after asking for approval", async () => {
    const result = await runToolCall(call("read_file", { path: "src/a.ts", start_line: "3", end_line: "5" }), deps());
    expect(asked).toMatchObject([{ tool: "read_file", group: "read", paths: [join(cwd, "src", "a.ts")], outsideWorkspace: false }]);
    expect(result.status).toBe("done");
    expect(result.forModel).toContain("3 | line 3\n4 | line 4\n5 | line 5");
    expect(result.forModel).not.toContain("line 6");
  });

  it("caps a read at 500 lines and says how to read on", async () => {
    const result = await runToolCall(call("read_file", { path: "src/a.ts" }), deps({ auto: new Set(["read"]) }));
    expect(asked).toEqual([]);
    expect(result.forModel).toContain("500 | line 500");
    expect(result.forModel).not.toContain("| line 501");
    expect(result.forModel).toContain("[Showing lines 1-500 of 620. Read on with start_line 501.]");
  });

  it("reads several files given as nested XML or as JSON", async () => {
    const xml = await runToolCall(call("read_file", { args: "<file><path>README.md</path></file><file><path>src/a.ts</path><line_range>2-3</line_range></file>" }), deps());
    expect(xml.forModel).toContain('<file path="README.md" lines="1-1" total="1">\n1 | # Hi');
    expect(xml.forModel).toContain("2 | line 2\n3 | line 3");
    expect(asked[0]!.paths).toEqual([join(cwd, "README.md"), join(cwd, "src", "a.ts")]);
    const json = await runToolCall(call("read_file", { args: '[{"path": "README.md"}]' }), deps());
    expect(json.forModel).toContain("1 | # Hi");
  });

  it("describes binary files and refuses folders and missing files", async () => {
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    const auto = deps({ auto: new Set(["read"]) });
    expect((await runToolCall(call("read_file", { path: "blob.bin" }), auto)).forModel).toContain("Binary file (4 bytes)");
    expect((await runToolCall(call("read_file", { path: "src" }), auto)).forModel).toContain("this is a folder; use list_files");
    expect((await runToolCall(call("read_file", { path: "nope.ts" }), auto)).forModel).toContain("no such file");
  });

  it("asks before reading outside the workspace even when reads are auto-approved", async () => {
    await runToolCall(call("read_file", { path: "../elsewhere.txt" }), deps({ auto: new Set(["read"]) }));
    expect(asked).toMatchObject([{ outsideWorkspace: true }]);
  });

  it("coerces text values and names the parameter and rule when one is wrong", async () => {
    const bad = await runToolCall(call("read_file", { path: "src/a.ts", start_line: "three", end_line: "0" }), deps());
    expect(bad.status).toBe("error");
    expect(bad.forModel).toContain('Parameter <start_line> must be a whole number; got "three"');
    expect(bad.forModel).toContain("Parameter <end_line> must be at least 1; got 0");
    const unknown = await runToolCall(call("list_files", { path: ".", recursive: "yes", depth: "2" }), deps());
    expect(unknown.forModel).toContain("Unknown parameter <depth>");
    expect(unknown.forModel).toContain("Parameter <recursive> must be true or false");
    const missing = await runToolCall(call("write_to_file", { content: "x" }), deps());
    expect(missing.forModel).toContain("Missing required parameter <path>");
    expect(asked).toEqual([]);
  });

  it("treats the text false as false", async () => {
    const result = await runToolCall(call("list_files", { path: ".", recursive: "false" }), deps());
    expect(result.forModel).toBe("README.md\nsrc/");
  });

  it("lists recursively", async () => {
    const result = await runToolCall(call("list_files", { path: ".", recursive: "true" }), deps());
    expect(result.forModel).toBe("README.md\nsrc/\nsrc/a.ts");
  });

  it("names the available tools for an unknown tool", async () => {
    const result = await runToolCall(call("delete_everything", {}), deps({ mode: "ask" }));
    expect(result.forModel).toMatch(/no tool named "delete_everything". Available tools: read_file, list_files, .*ask_followup_question, attempt_completion/);
    // Only the tools of the mode: Ask mode cannot write.
    expect(result.forModel).not.toContain("write_to_file");
  });

  it("names the MCP tools in refusals only while a server can take them", async () => {
    const server = (state: McpServerView["state"]): McpServerView => ({
      name: "docs",
      source: "global",
      transport: "stdio",
      state,
      tools: state === "connected" ? [{ name: "search", inputSchema: { type: "object" }, alwaysAllow: false, enabled: true }] : [],
      resources: [],
      templates: [],
      prompts: [],
      log: [],
    });
    const hub = (servers: McpServerView[]): McpHubApi => ({
      servers: () => servers,
      callTool: () => Promise.reject(new Error("not called")),
      readResource: () => Promise.reject(new Error("not called")),
    });
    const refusals = async (mcp?: McpHubApi) => {
      const withHub = (d: PipelineDeps): PipelineDeps => ({ ...d, context: { ...d.context, ...(mcp && { mcp }) } });
      const unknown = await runToolCall(call("delete_everything", {}), withHub(deps({ mode: "ask" })));
      const refused = await runToolCall(call("write_to_file", { path: "x.ts", content: "x" }), withHub(deps({ mode: "ask" })));
      expect(unknown.forModel).toContain("Available tools: read_file");
      expect(refused.forModel).toContain("Tools available in this mode: read_file");
      return [unknown.forModel, refused.forModel];
    };
    // No hub, or only servers that are down or waiting for approval: nothing to call, so not named.
    for (const mcp of [undefined, hub([]), hub([server("error"), server("needs-approval"), server("connecting")])]) {
      for (const text of await refusals(mcp)) {
        expect(text).not.toContain("use_mcp_tool");
        expect(text).not.toContain("access_mcp_resource");
      }
    }
    for (const text of await refusals(hub([server("error"), server("connected")]))) {
      expect(text).toContain("use_mcp_tool");
      expect(text).toContain("access_mcp_resource");
    }
  });

  it("enforces the mode at call time", async () => {
    const ask = await runToolCall(call("write_to_file", { path: "x.ts", content: "x" }), deps({ mode: "ask" }));
    expect(ask.forModel).toContain("write_to_file (edit group) is not available in Ask mode");
    const architect = await runToolCall(call("write_to_file", { path: "src/x.ts", content: "x" }), deps({ mode: "architect" }));
    expect(architect.forModel).toContain("Architect mode may edit only Markdown files; src/x.ts is not one.");
    const plan = await runToolCall(call("write_to_file", { path: "PLAN.md", content: "# Plan\n" }), deps({ mode: "architect" }));
    expect(plan.status).toBe("done");
    expect(readFileSync(join(cwd, "PLAN.md"), "utf8")).toBe("# Plan\n");
  });

  it("writes atomically, creating folders, and leaves no temp file", async () => {
    const result = await runToolCall(call("write_to_file", { path: "deep/er/new.txt", content: "one\ntwo\n", line_count: "2" }), deps());
    expect(result.forModel).toBe("Created deep/er/new.txt (2 lines).");
    expect(readFileSync(join(cwd, "deep", "er", "new.txt"), "utf8")).toBe("one\ntwo\n");
    expect(readdirSync(join(cwd, "deep", "er"))).toEqual(["new.txt"]);
  });

  it("refuses content far shorter than its line_count, writing nothing", async () => {
    const result = await runToolCall(call("write_to_file", { path: "README.md", content: "short\n", line_count: "40" }), deps());
    expect(result.status).toBe("error");
    expect(result.forModel).toContain("looks cut off");
    expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe("# Hi\n");
  });

  it("a denial with feedback reaches the model and changes nothing", async () => {
    answer = { approved: false, feedback: "use docs/ instead" };
    const result = await runToolCall(call("write_to_file", { path: "README.md", content: "gone" }), deps());
    expect(result).toMatchObject({ status: "denied", feedback: "use docs/ instead" });
    expect(result.forModel).toContain("<feedback>\nuse docs/ instead\n</feedback>");
    expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe("# Hi\n");
  });

  it("hands questions and completions to the loop", async () => {
    const q = await runToolCall(call("ask_followup_question", { question: "Which file?", follow_up: '<suggest>a.ts</suggest><suggest mode="architect">plan first</suggest>' }), deps());
    expect(q).toMatchObject({ status: "done", outcome: { kind: "question", question: "Which file?", suggestions: [{ text: "a.ts" }, { text: "plan first", mode: "architect" }] } });
    const done = await runToolCall(call("attempt_completion", { result: "\nAll done.\n" }), deps());
    expect(done).toMatchObject({ outcome: { kind: "completion", result: "All done." } });
    expect(asked).toEqual([]);
  });

  it("does not run a cut-off call or one the parser flagged", async () => {
    const partial = await runToolCall(call("write_to_file", { path: "x", content: "y" }, { partial: true }), deps());
    expect(partial.forModel).toContain("was cut off before it was complete");
    const flagged = await runToolCall(call("write_to_file", { path: "x", content: "y" }, { error: "The value of <content> is longer than 100000 characters" }), deps());
    expect(flagged.forModel).toBe("Error: The value of <content> is longer than 100000 characters");
    expect(asked).toEqual([]);
  });

  it("caps long results and keeps the full text where the model can read it", async () => {
    const saved: string[] = [];
    const result = await runToolCall(call("read_file", { path: "src/a.ts" }), deps({ maxResultChars: 100, saveOverflow: async (_tool, text) => (saved.push(text), ".kiln/results/read_file-1.txt") }));
    expect(result.forModel.length).toBeLessThan(300);
    expect(result.forModel).toMatch(/\[Result cut at 100 of \d+ characters\. The full result is saved at \.kiln\/results\/read_file-1\.txt/);
    expect(saved[0]).toContain("500 | line 500");
  });

  it("lets the model read a cut result back from outside the workspace without asking, and nothing else there", async () => {
    const store = mkdtempSync(join(tmpdir(), "kiln-overflow-"));
    const options = {
      auto: new Set(["read"] as const),
      maxResultChars: 100,
      ownFiles: new Set<string>(),
      saveOverflow: async (_tool: string, text: string) => {
        writeFileSync(join(store, "read_file-1.txt"), text);
        return join(store, "read_file-1.txt");
      },
    };
    await runToolCall(call("read_file", { path: "src/a.ts" }), { ...deps(options), ownFiles: options.ownFiles });
    const back = await runToolCall(call("read_file", { path: join(store, "read_file-1.txt"), start_line: "2", end_line: "2" }), { ...deps(options), ownFiles: options.ownFiles });
    expect(asked).toEqual([]);
    expect(back.forModel).toMatch(/2 \| +1 \| line 1/);
    writeFileSync(join(store, "other.txt"), "secret\n");
    await runToolCall(call("read_file", { path: join(store, "other.txt") }), { ...deps(options), ownFiles: options.ownFiles });
    expect(asked).toMatchObject([{ tool: "read_file", outsideWorkspace: true }]);
  });

  it("refuses any tool on a path hidden by .kilocodeignore, and reads the rules again when they change", async () => {
    writeFileSync(join(cwd, ".kilocodeignore"), "secrets/\n");
    mkdirSync(join(cwd, "secrets"));
    writeFileSync(join(cwd, "secrets", "key.txt"), "hunter2\n");
    const read = await runToolCall(call("read_file", { path: "secrets/key.txt" }), deps({ auto: new Set(["read"]) }));
    expect(read.status).toBe("error");
    expect(read.forModel).toContain("secrets/key.txt is hidden from Kiln by .kilocodeignore");
    expect(read.forModel).not.toContain("hunter2");
    const write = await runToolCall(call("write_to_file", { path: "secrets/new.txt", content: "x" }), deps({ auto: new Set(["edit"]) }));
    expect(write.forModel).toContain("hidden from Kiln by .kilocodeignore");
    expect(asked).toEqual([]);
    writeFileSync(join(cwd, ".kilocodeignore"), "other/\n");
    const again = await runToolCall(call("read_file", { path: "secrets/key.txt" }), deps({ auto: new Set(["read"]) }));
    expect(again.forModel).toContain("hunter2");
  });

  it("always asks before changing protected files, even with edits auto-approved", async () => {
    const result = await runToolCall(call("write_to_file", { path: ".vscode/settings.json", content: "{}" }), deps({ auto: new Set(["edit"]) }));
    expect(asked).toMatchObject([{ tool: "write_to_file", protectedPaths: [".vscode/settings.json"] }]);
    expect(result.status).toBe("done");
  });

  it("asks before changing the Roo and Cline rule and mode files Kiln reads in place, but not look-alikes", async () => {
    for (const path of [
      ".roomodes",
      ".roo/rules/style.md",
      ".roo/rules-code/x.md",
      ".clinerules",
      ".clinerules/a.md",
      ".roorules-code",
      ".ROO/skills/s/SKILL.md",
      ".claude/skills/s/SKILL.md",
      ".claude/settings.json",
      ".kilo/agents/reviewer.md",
    ]) {
      asked.length = 0;
      await runToolCall(call("write_to_file", { path, content: "x" }), deps({ auto: new Set(["edit"]) }));
      expect(asked, path).toMatchObject([{ tool: "write_to_file", protectedPaths: [path] }]);
    }
    asked.length = 0;
    for (const path of ["src/.roomodes.md", ".rooted/notes.md", "docs/clinerules.md", ".kilos/notes.md"])
      await runToolCall(call("write_to_file", { path, content: "x" }), deps({ auto: new Set(["edit"]) }));
    expect(asked).toEqual([]);
  });

  it("treats a link inside the workspace that leads outside it as outside", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "kiln-elsewhere-"));
    writeFileSync(join(elsewhere, "private.txt"), "not yours\n");
    symlinkSync(elsewhere, join(cwd, "linked"));
    answer = { approved: false };
    const result = await runToolCall(call("read_file", { path: "linked/private.txt" }), deps({ auto: new Set(["read"]) }));
    expect(asked).toMatchObject([{ tool: "read_file", outsideWorkspace: true }]);
    expect(result.status).toBe("denied");
    const write = await runToolCall(call("write_to_file", { path: "linked/new.txt", content: "x" }), deps({ auto: new Set(["edit"]) }));
    expect(asked[1]).toMatchObject({ tool: "write_to_file", outsideWorkspace: true });
    expect(write.status).toBe("denied");
    expect(readdirSync(elsewhere)).toEqual(["private.txt"]);
  });
});
