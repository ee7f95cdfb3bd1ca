import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/ports/approvals";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import type { ApprovalCategory, ToolGroup } from "../../../src/core/tools/groups";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { findPlaceholder } from "../../../src/core/tools/placeholders";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

let cwd: string;
let asked: ApprovalRequest[];
let answer: ApprovalDecision;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-edit-tools-"));
  writeFileSync(join(cwd, "list.txt"), "one\ntwo\nthree\n");
  asked = [];
  answer = { approved: true };
});

function deps(options: { auto?: ToolGroup[]; categories?: ApprovalCategory[] } = {}): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async (r) => (asked.push(r), answer) },
    autoApprove: { groups: new Set(options.auto ?? []), outsideWorkspace: false, categories: new Set(options.categories ?? []) },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
}

const run = (name: string, params: Record<string, string>, d = deps()) => runToolCall({ type: "tool_use", name, params, partial: false } satisfies ToolUseBlock, d);
const file = (path: string) => readFileSync(join(cwd, path), "utf8");
const CRLF_BOM = "\uFEFFalpha\r\nbeta\r\ngamma\r\n";

describe("insert_content", () => {
  it("inserts before a line after showing the diff", async () => {
    const result = await run("insert_content", { path: "list.txt", line: "2", content: "one and a half\n" });
    expect(result.forModel).toBe("Inserted 1 line into list.txt before line 2 (lines 2-2 now).");
    expect(file("list.txt")).toBe("one\none and a half\ntwo\nthree\n");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.diff).toContain("+one and a half");
  });

  it("appends with line 0, also to a file without a final line break", async () => {
    await run("insert_content", { path: "list.txt", line: "0", content: "four\nfive" });
    expect(file("list.txt")).toBe("one\ntwo\nthree\nfour\nfive\n");
    writeFileSync(join(cwd, "open.txt"), "last");
    await run("insert_content", { path: "open.txt", line: "0", content: "next" });
    expect(file("open.txt")).toBe("last\nnext\n");
  });

  it("refuses a line past the end, a missing file and empty content, changing nothing", async () => {
    const past = await run("insert_content", { path: "list.txt", line: "4", content: "x" });
    expect(past.forModel).toBe("Error: list.txt has 3 lines, so there is no line 4 to insert before. Use line 0 to append at the end, or a line from 1 to 3.");
    expect((await run("insert_content", { path: "nope.txt", line: "1", content: "x" })).forModel).toContain(
      "Error: nope.txt does not exist. insert_content adds to existing files; create a file with write_to_file.",
    );
    expect((await run("insert_content", { path: "list.txt", line: "1", content: "" })).forModel).toContain("Error: content is empty");
    expect(file("list.txt")).toBe("one\ntwo\nthree\n");
    expect(asked).toEqual([]);
  });

  it("names bad arguments", async () => {
    const bad = await run("insert_content", { path: "list.txt", line: "-1", content: "x" });
    expect(bad.forModel).toContain("Parameter <line> must be at least 0; got -1");
    const words = await run("insert_content", { path: "list.txt", line: "top", content: "x" });
    expect(words.forModel).toContain('Parameter <line> must be a whole number; got "top"');
    expect((await run("insert_content", { path: "list.txt", content: "x" })).forModel).toContain("Missing required parameter <line>");
  });

  it("keeps CRLF line endings and the BOM", async () => {
    writeFileSync(join(cwd, "win.txt"), CRLF_BOM);
    await run("insert_content", { path: "win.txt", line: "2", content: "new1\nnew2\n" });
    expect(file("win.txt")).toBe("\uFEFFalpha\r\nnew1\r\nnew2\r\nbeta\r\ngamma\r\n");
  });

  it("leaves the file unchanged when denied, and passes the feedback on", async () => {
    answer = { approved: false, feedback: "not there" };
    const result = await run("insert_content", { path: "list.txt", line: "1", content: "zero" });
    expect(result.status).toBe("denied");
    expect(result.forModel).toContain("not there");
    expect(file("list.txt")).toBe("one\ntwo\nthree\n");
  });
});

describe("search_and_replace", () => {
  it("replaces literal text, special characters included, and reports the count", async () => {
    writeFileSync(join(cwd, "code.js"), "call(a.b);\ncall(a.b);\ncall(axb);\n");
    const result = await run("search_and_replace", { path: "code.js", search: "call(a.b)", replace: "run($&)" });
    expect(result.forModel).toBe("Replaced 2 occurrences in code.js.");
    // Literal mode: "." matches only a dot, and "$&" in the replacement is written as is.
    expect(file("code.js")).toBe("run($&);\nrun($&);\ncall(axb);\n");
  });

  it("replaces regex matches with groups, ignoring case when asked", async () => {
    writeFileSync(join(cwd, "names.txt"), "Ada Lovelace\nalan turing\n");
    const result = await run("search_and_replace", { path: "names.txt", search: "^(\\w+) (\\w+)$", replace: "$2, $1", use_regex: "true" });
    expect(result.forModel).toBe("Replaced 2 occurrences in names.txt.");
    expect(file("names.txt")).toBe("Lovelace, Ada\nturing, alan\n");
    await run("search_and_replace", { path: "names.txt", search: "ADA", replace: "Augusta", ignore_case: "true" });
    expect(file("names.txt")).toBe("Lovelace, Augusta\nturing, alan\n");
  });

  it("replaces only within the line range", async () => {
    writeFileSync(join(cwd, "x.txt"), "x\nx\nx\nx\n");
    const result = await run("search_and_replace", { path: "x.txt", search: "x", replace: "y", start_line: "2", end_line: "3" });
    expect(result.forModel).toBe("Replaced 2 occurrences in x.txt within lines 2-3.");
    expect(file("x.txt")).toBe("x\ny\ny\nx\n");
    expect((await run("search_and_replace", { path: "x.txt", search: "x", replace: "y", start_line: "9" })).forModel).toContain("Error: x.txt has 4 lines; start_line 9 is past the end.");
    expect((await run("search_and_replace", { path: "x.txt", search: "x", replace: "y", start_line: "3", end_line: "2" })).forModel).toContain("Error: end_line 2 is before start_line 3.");
  });

  it("names a bad regular expression", async () => {
    const result = await run("search_and_replace", { path: "list.txt", search: "(unclosed", replace: "", use_regex: "true" });
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/^Error: search is not a valid regular expression: .*(unclosed|Unterminated group)/);
  });

  it("fails without touching the file when nothing matches", async () => {
    const result = await run("search_and_replace", { path: "list.txt", search: "four", replace: "4" });
    expect(result.forModel).toContain("Error: no match for the search in list.txt; the file is unchanged.");
    expect(file("list.txt")).toBe("one\ntwo\nthree\n");
    expect(asked).toEqual([]);
    expect((await run("search_and_replace", { path: "list.txt", search: "", replace: "x" })).forModel).toContain("Error: search is empty");
    expect((await run("search_and_replace", { path: "gone.txt", search: "a", replace: "b" })).forModel).toContain("Error: gone.txt does not exist");
    expect((await run("search_and_replace", { path: "list.txt", search: "a", replace: "b", use_regex: "maybe" })).forModel).toContain("Parameter <use_regex> must be true or false");
  });

  it("keeps CRLF and the BOM, and finds multi-line text written with \\n", async () => {
    writeFileSync(join(cwd, "win.txt"), CRLF_BOM);
    const result = await run("search_and_replace", { path: "win.txt", search: "alpha\nbeta", replace: "ALPHA\nBETA" });
    expect(result.forModel).toBe("Replaced 1 occurrence in win.txt.");
    expect(file("win.txt")).toBe("\uFEFFALPHA\r\nBETA\r\ngamma\r\n");
  });

  it("leaves the file unchanged when denied", async () => {
    answer = { approved: false };
    const result = await run("search_and_replace", { path: "list.txt", search: "two", replace: "2" });
    expect(result.forModel).toContain("The user denied search_and_replace");
    expect(file("list.txt")).toBe("one\ntwo\nthree\n");
  });
});

describe("delete_file", () => {
  it("deletes a file only with the delete category auto-approved, else asks", async () => {
    writeFileSync(join(cwd, "old.txt"), "bye\n");
    const asks = await run("delete_file", { path: "old.txt" }, deps({ auto: ["edit"] }));
    expect(asks.forModel).toBe("Deleted old.txt.");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.diff).toContain("-bye");
    writeFileSync(join(cwd, "old2.txt"), "bye\n");
    await run("delete_file", { path: "old2.txt" }, deps({ auto: ["edit"], categories: ["delete"] }));
    expect(asked).toHaveLength(1);
    expect(existsSync(join(cwd, "old.txt")) || existsSync(join(cwd, "old2.txt"))).toBe(false);
  });

  it("keeps the file when denied", async () => {
    answer = { approved: false, feedback: "keep it" };
    const result = await run("delete_file", { path: "list.txt" }, deps({ auto: ["edit"] }));
    expect(result.status).toBe("denied");
    expect(result.forModel).toContain("keep it");
    expect(file("list.txt")).toBe("one\ntwo\nthree\n");
  });

  it("refuses the workspace, what holds it, and missing paths", async () => {
    expect((await run("delete_file", { path: "." })).forModel).toContain("Error: . is the workspace folder; it cannot be deleted.");
    expect((await run("delete_file", { path: "..", recursive: "true" })).forModel).toContain("is the workspace folder or holds it; it cannot be deleted.");
    expect((await run("delete_file", { path: "ghost.txt" })).forModel).toContain("Error: ghost.txt does not exist, so there is nothing to delete.");
    expect(existsSync(join(cwd, "list.txt"))).toBe(true);
  });

  it("deletes an empty folder; a full one only with recursive, saying how much goes", async () => {
    mkdirSync(join(cwd, "empty"));
    expect((await run("delete_file", { path: "empty" })).forModel).toBe("Deleted the folder empty (an empty folder).");
    mkdirSync(join(cwd, "full", "sub"), { recursive: true });
    writeFileSync(join(cwd, "full", "a.txt"), "a");
    writeFileSync(join(cwd, "full", "sub", "b.txt"), "b");
    const refused = await run("delete_file", { path: "full" });
    expect(refused.forModel).toBe(
      "Error: the folder full is not empty (2 files, 1 folder), so it was not deleted. Set recursive to true to delete it with everything in it, or delete what is in it first.",
    );
    expect(existsSync(join(cwd, "full", "a.txt"))).toBe(true);
    asked = [];
    const done = await run("delete_file", { path: "full", recursive: "true" });
    expect(done.forModel).toBe("Deleted the folder full (2 files in 2 folders).");
    expect(asked[0]!.reason).toBe("Deletes the folder full: 2 files in 2 folders.");
    expect(existsSync(join(cwd, "full"))).toBe(false);
  });

  it("keeps a folder when denied, and one holding paths hidden by .kilocodeignore", async () => {
    mkdirSync(join(cwd, "keep"));
    writeFileSync(join(cwd, "keep", "a.txt"), "a");
    answer = { approved: false };
    expect((await run("delete_file", { path: "keep", recursive: "true" })).status).toBe("denied");
    expect(existsSync(join(cwd, "keep", "a.txt"))).toBe(true);
    answer = { approved: true };
    writeFileSync(join(cwd, ".kilocodeignore"), "secret.env\n");
    writeFileSync(join(cwd, "keep", "secret.env"), "TOKEN=1");
    expect((await run("delete_file", { path: "keep", recursive: "true" })).forModel).toContain("holds paths hidden from Kiln by .kilocodeignore (keep/secret.env)");
    expect(existsSync(join(cwd, "keep", "secret.env"))).toBe(true);
  });

  it("deletes a binary file without a text diff", async () => {
    writeFileSync(join(cwd, "blob.bin"), Buffer.from([1, 0, 2, 0]));
    const result = await run("delete_file", { path: "blob.bin" });
    expect(result.forModel).toBe("Deleted blob.bin (4 bytes).");
    expect(asked[0]).toMatchObject({ tool: "delete_file", reason: "Deletes blob.bin (binary, 4 bytes)." });
    expect(asked[0]!.diff).toBeUndefined();
  });
});

describe("new_rule", () => {
  it("writes .kilocode/rules/<name>.md and always asks, edits auto-approved or not", async () => {
    const result = await run("new_rule", { name: "Testing conventions", content: "Use vitest." }, deps({ auto: ["edit"] }));
    expect(result.forModel).toBe("Saved the rule as .kilocode/rules/Testing-conventions.md.");
    expect(file(".kilocode/rules/Testing-conventions.md")).toBe("Use vitest.\n");
    expect(asked).toMatchObject([{ tool: "new_rule", protectedPaths: [".kilocode/rules/Testing-conventions.md"] }]);
  });

  it("adds .md once and refuses separators, empty names and existing rules", async () => {
    await run("new_rule", { name: "style.md", content: "Tabs.\n" });
    expect(file(".kilocode/rules/style.md")).toBe("Tabs.\n");
    expect((await run("new_rule", { name: "style", content: "Spaces." })).forModel).toContain("Error: a rule named .kilocode/rules/style.md already exists.");
    expect(file(".kilocode/rules/style.md")).toBe("Tabs.\n");
    expect((await run("new_rule", { name: "../escape", content: "x" })).forModel).toContain('Error: the rule name "../escape" holds a path separator');
    expect((await run("new_rule", { name: "a\\b", content: "x" })).forModel).toContain("holds a path separator");
    expect((await run("new_rule", { name: "???", content: "x" })).forModel).toContain('Error: the rule name "???" is empty once cleaned');
    expect((await run("new_rule", { name: "  ", content: "x" })).forModel).toContain("Parameter <name> must not be empty");
    expect((await run("new_rule", { name: "ok", content: "  \n" })).forModel).toContain("Error: content is empty");
  });

  it("writes nothing when denied", async () => {
    answer = { approved: false };
    expect((await run("new_rule", { name: "x", content: "y" })).status).toBe("denied");
    expect(existsSync(join(cwd, ".kilocode"))).toBe(false);
  });
});

describe("write_to_file placeholder check", () => {
  const lazy: [string, string][] = [
    ["app.ts", "import x from 'x';\n// ... existing code ...\nexport const y = 2;\n"],
    ["app.ts", "function a() {}\n// rest of the code unchanged\n"],
    ["tool.py", "import os\n# ... rest of file\n"],
    ["Box.java", "class Box {\n  int size;\n  /* remaining methods */\n}\n"],
    ["index.html", "<body>\n  <h1>Hi</h1>\n  <!-- rest unchanged -->\n</body>\n"],
    ["App.tsx", "return (\n  <div>\n    {/* ...rest of the component... */}\n  </div>\n);\n"],
    ["query.sql", "SELECT 1;\n-- other queries unchanged\n"],
    ["README.md", "# Title\n\n[... rest of the document unchanged ...]\n"],
  ];

  it.each(lazy)("refuses %s with a placeholder when the file exists, writing nothing", async (path, content) => {
    writeFileSync(join(cwd, path), "original\n");
    const result = await run("write_to_file", { path, content });
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/^Error: line \d+ of content, ".+", looks like a placeholder for code you left out\./);
    expect(result.forModel).toContain("Send the complete file content with every line written out, or change only part of the file with apply_diff.");
    expect(file(path)).toBe("original\n");
    expect(asked).toEqual([]);
  });

  it("writes a new file even with such a comment: nothing can be lost", async () => {
    const result = await run("write_to_file", { path: "fresh.ts", content: "// ... existing code ...\n" });
    expect(result.status).toBe("done");
  });

  it("takes ordinary code with ellipses and comments about the rest", async () => {
    const code = [
      "const all = [...first, ...rest];",
      "function f(...args: number[]) { return { ...defaults, ...args }; }",
      "// Loading...",
      "// Other options",
      "// rest of the arguments are forwarded to the handler",
      "// TODO: handle the remaining cases...",
      "for i in 1...10 { print(i) }",
      "# REST API helpers",
      "def stub(): ...",
      "let s = 'rest of the code unchanged';",
      "// ...",
    ].join("\n");
    writeFileSync(join(cwd, "code.ts"), "old\n");
    const result = await run("write_to_file", { path: "code.ts", content: `${code}\n` });
    expect(result.forModel).toBe("Overwrote code.ts (11 lines).");
    // Markdown headings are not comments.
    writeFileSync(join(cwd, "notes.md"), "old\n");
    expect((await run("write_to_file", { path: "notes.md", content: "## Remaining code\nto review\n" })).status).toBe("done");
  });

  it("takes a placeholder-like line the file already had", async () => {
    writeFileSync(join(cwd, "doc.ts"), "// ... existing code ...\nconst a = 1;\n");
    expect((await run("write_to_file", { path: "doc.ts", content: "// ... existing code ...\nconst a = 2;\n" })).status).toBe("done");
    expect(findPlaceholder("x\n  // ... existing code ...\n")).toEqual({ line: 2, text: "// ... existing code ..." });
  });
});

describe("a proposal the user changed before approving", () => {
  it("the model is told, with the user's change as a patch against its proposal", async () => {
    const d = deps();
    // The review surface (VS Code's diff editor) saves what the user left on its right side.
    d.context.edits = {
      apply: async (edit, decide) => {
        await decide();
        const content = edit.proposed!.replace("two", "TWO (the user's spelling)");
        writeFileSync(edit.path, content);
        return { applied: true, content, userEdited: true };
      },
    };
    const result = await run("insert_content", { path: "list.txt", line: "2", content: "one and a half\n" }, d);
    expect(file("list.txt")).toBe("one\none and a half\nTWO (the user's spelling)\nthree\n");
    expect(result.forModel).toContain("Inserted 1 line into list.txt before line 2 (lines 2-2 now). The user edited your proposal before saving");
    expect(result.forModel).toContain("-two\n+TWO (the user's spelling)");
  });

  it("the card is told the diff editor has the edit, then each revision of it while the user decides", async () => {
    const d = deps();
    const revisions: string[] = [];
    d.onApprovalRevised = (diff) => revisions.push(diff);
    d.context.edits = {
      apply: async (edit, decide, revised) => {
        // Discard in the diff editor: the proposal loses its first change before the decision.
        const decision = decide({ inEditor: true });
        revised?.(edit.original!);
        await decision;
        return { applied: false };
      },
    };
    answer = { approved: false };
    await run("insert_content", { path: "list.txt", line: "2", content: "one and a half\n" }, d);
    expect(asked[0]).toMatchObject({ inEditor: true });
    expect(asked[0]!.diff).toContain("+one and a half");
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toContain("--- list.txt");
    expect(revisions[0]).not.toContain("+one and a half");
  });

  it("says nothing of the kind when the user kept the proposal", async () => {
    const result = await run("write_to_file", { path: "new.txt", content: "hello\n", line_count: "1" });
    expect(result.forModel).toBe("Created new.txt (1 line).");
  });
});

describe("writing back a secret's [redacted] mark", () => {
  it("asks a person, even with edits auto-approved, before a rewrite replaces a secret with the mark", async () => {
    writeFileSync(join(cwd, ".env.example"), "API_URL=https://api.example.com\nAPI_TOKEN=real-value-123\n");
    answer = { approved: false, feedback: "keep my token" };
    const result = await run("write_to_file", { path: ".env.example", content: "API_URL=https://api.example.org\nAPI_TOKEN=[redacted]\n" }, deps({ auto: ["edit"] }));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.reason).toContain("[redacted]");
    expect(result.status).toBe("denied");
    expect(file(".env.example")).toBe("API_URL=https://api.example.com\nAPI_TOKEN=real-value-123\n");
  });

  it("does not ask when the mark was already in the file, or for a new file", async () => {
    writeFileSync(join(cwd, "notes.md"), "Secrets show as [redacted].\n");
    await run("write_to_file", { path: "notes.md", content: "Secrets show as [redacted] in results.\n" }, deps({ auto: ["edit"] }));
    await run("write_to_file", { path: "doc.md", content: "A [redacted] mark.\n" }, deps({ auto: ["edit"] }));
    expect(asked).toEqual([]);
    expect(file("doc.md")).toBe("A [redacted] mark.\n");
  });
});
