import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type AutoApprovePolicy, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

const GREET = "export function greet(name: string): string {\n    return `Hello, ${name}!`;\n}\n\nexport function part(name: string): string {\n    return `Bye, ${name}.`;\n}\n";

let cwd: string;
let asked: ApprovalRequest[];
let answer: ApprovalDecision;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-apply-diff-"));
  mkdirSync(join(cwd, "src"));
  writeFileSync(join(cwd, "src", "greet.ts"), GREET);
  asked = [];
  answer = { approved: true };
});

function deps(options: { auto?: AutoApprovePolicy["groups"]; mode?: string } = {}): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode(options.mode ?? "code")!,
    approvals: { request: async (r) => (asked.push(r), answer) },
    autoApprove: { groups: options.auto ?? new Set(), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
}

const call = (params: Record<string, string>): ToolUseBlock => ({ type: "tool_use", name: "apply_diff", params, partial: false });

const block = (search: string, replace: string, hint?: number) => `<<<<<<< SEARCH\n${hint === undefined ? "" : `:start_line:${hint}\n`}-------\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

const read = (path = "src/greet.ts") => readFileSync(join(cwd, path), "utf8");

describe("apply_diff", () => {
  it("asks with the diff, writes the change and says how many blocks applied", async () => {
    const diff = [block("    return `Bye, ${name}.`;", "    return `Goodbye, ${name}.`;", 6), block("    return `Hello, ${name}!`;", "    return `Hi, ${name}!`;", 2)].join("\n");
    const result = await runToolCall(call({ path: "src/greet.ts", diff }), deps());
    expect(result).toMatchObject({ status: "done", forModel: "Applied 2 blocks to src/greet.ts." });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: "apply_diff", group: "edit", summary: "Edit src/greet.ts (2 changes)", paths: [join(cwd, "src", "greet.ts")] });
    expect(asked[0]!.diff).toContain("-    return `Hello, ${name}!`;\n+    return `Hi, ${name}!`;");
    expect(read()).toBe(GREET.replace("Hello", "Hi").replace("Bye", "Goodbye"));
  });

  it("runs without asking when edits are auto-approved, and tells the model how a loose match was placed", async () => {
    const result = await runToolCall(
      call({ path: "src/greet.ts", diff: block("  return `Bye, ${name}.`;\n}", '  if (!name) return "";\n  return `Bye, ${name}.`;\n}', 40) }),
      deps({ auto: new Set(["edit"]) }),
    );
    expect(asked).toEqual([]);
    expect(result.forModel).toBe(
      "Applied 1 block to src/greet.ts. Block 1 matched lines 6-7 only when whitespace was ignored; its new lines follow the file's indentation. Block 1 was found at line 6, not at its :start_line: 40.",
    );
    expect(read()).toBe(GREET.replace("    return `Bye", '    if (!name) return "";\n    return `Bye'));
  });

  it("keeps CRLF and a BOM", async () => {
    const crlf = `\uFEFF${GREET.replace(/\n/g, "\r\n")}`;
    writeFileSync(join(cwd, "src", "crlf.ts"), crlf);
    await runToolCall(call({ path: "src/crlf.ts", diff: block("    return `Hello, ${name}!`;", "    const text = `Hello, ${name}!`;\n    return text;") }), deps());
    expect(read("src/crlf.ts")).toBe(crlf.replace("    return `Hello, ${name}!`;", "    const text = `Hello, ${name}!`;\r\n    return text;"));
  });

  it("refuses a missing file and points to write_to_file", async () => {
    const result = await runToolCall(call({ path: "src/nope.ts", diff: block("a", "b") }), deps());
    expect(result).toMatchObject({ status: "error" });
    expect(result.forModel).toBe(
      "Error: src/nope.ts does not exist. apply_diff changes existing files; create a file with write_to_file. (Check the path with list_files if you expected it to exist.)",
    );
  });

  it("refuses a folder", async () => {
    const result = await runToolCall(call({ path: "src", diff: block("a", "b") }), deps());
    expect(result.forModel).toBe("Error: src is a folder.");
  });

  it("returns each failed block's details, asks nothing and leaves the file", async () => {
    const diff = [block("    return `Hello, ${name}!`;", "    return `Hi, ${name}!`;"), block("    return `Bye, ${nam}.`;", "    return `Ciao, ${name}.`;", 6)].join("\n");
    const result = await runToolCall(call({ path: "src/greet.ts", diff }), deps());
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/^Error: src\/greet\.ts was not changed: 1 of 2 blocks could not be applied, so nothing was changed/);
    expect(result.forModel).toContain('- Block 2 (SEARCH starts "return `Bye, ${nam}.`;", :start_line: 6): SEARCH was not found in the file. Closest: line 6, ');
    expect(result.forModel).toContain("line 6: a few characters differ (a typo?)");
    expect(asked).toEqual([]);
    expect(read()).toBe(GREET);
  });

  it("refuses an ambiguous block and lists where it matched", async () => {
    writeFileSync(join(cwd, "src", "twice.ts"), "a();\nb();\na();\n");
    const result = await runToolCall(call({ path: "src/twice.ts", diff: block("a();", "c();") }), deps());
    expect(result.forModel).toContain("SEARCH matches 2 places exactly, starting at lines 1 and 3");
    expect(read("src/twice.ts")).toBe("a();\nb();\na();\n");
  });

  it("names what is malformed", async () => {
    const result = await runToolCall(call({ path: "src/greet.ts", diff: "<<<<<<< SEARCH\nx\n>>>>>>> REPLACE" }), deps());
    expect(result.forModel).toContain("Error: src/greet.ts was not changed: the diff is malformed, so nothing was changed:\n- Block 1: it has no ======= line");
    expect(read()).toBe(GREET);
  });

  it("rejects bad arguments before asking", async () => {
    const missing = await runToolCall(call({ path: "src/greet.ts" }), deps());
    expect(missing.forModel).toContain("Missing required parameter <diff>");
    const unknown = await runToolCall(call({ path: "src/greet.ts", diff: block("a", "b"), content: "x" }), deps());
    expect(unknown.forModel).toContain("Unknown parameter <content>");
    const ask = await runToolCall(call({ path: "src/greet.ts", diff: block("a", "b") }), deps({ mode: "ask" }));
    expect(ask.forModel).toContain("apply_diff (edit group) is not available in Ask mode");
    expect(asked).toEqual([]);
  });

  it("a denial leaves the file and passes on the feedback", async () => {
    answer = { approved: false, feedback: "keep the greeting" };
    const result = await runToolCall(call({ path: "src/greet.ts", diff: block("    return `Hello, ${name}!`;", "    return `Yo, ${name}!`;") }), deps());
    expect(result).toMatchObject({ status: "denied", feedback: "keep the greeting" });
    expect(read()).toBe(GREET);
  });

  it("keeps its diff raw: leading and trailing newlines of the value do not matter", async () => {
    const diff = `\n\n${block("    return `Hello, ${name}!`;", "    return `Hey, ${name}!`;")}\n\n`;
    const result = await runToolCall(call({ path: "src/greet.ts", diff }), deps());
    expect(result.status).toBe("done");
    expect(read()).toBe(GREET.replace("Hello", "Hey"));
  });
});
