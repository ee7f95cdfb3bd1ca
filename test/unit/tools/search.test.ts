import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps, type ToolCallResult } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { ripgrepPath } from "../../../src/core/tools/ripgrep";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-search-"));
});

function write(rel: string, content: string): void {
  mkdirSync(dirname(join(cwd, rel)), { recursive: true });
  writeFileSync(join(cwd, rel), content);
}

function deps(signal = new AbortController().signal): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal },
    maxResultChars: 1_000_000,
  };
}

const search = (params: Record<string, string>, signal?: AbortSignal): Promise<ToolCallResult> =>
  runToolCall({ type: "tool_use", name: "search_files", params: { path: ".", ...params }, partial: false } satisfies ToolUseBlock, deps(signal));

describe("search_files", () => {
  it("finds rg in node_modules when run from source", () => {
    expect(ripgrepPath()).toMatch(/@vscode[/\\]ripgrep-[^/\\]+[/\\]bin[/\\]rg(\.exe)?$/);
  });

  it("groups matches by file with a line of context either side, merging overlaps", async () => {
    write("src/a.ts", "one\ntwo\nfindMe here\nfour\nfive\nsix\nseven\nfindMe again\nnine\n");
    write("src/b.py", "findMe = 1\nx = 2\n");
    write("other.md", "nothing\n");
    const result = await search({ regex: "find\\w+" });
    expect(result.status).toBe("done");
    expect(result.forModel).toBe(
      [
        "Found 3 matches in 2 files in the workspace. Matching lines are shown as `line:text`, context lines as `line-text`.",
        "",
        "# src/a.ts",
        "2-two",
        "3:findMe here",
        "4-four",
        "--",
        "7-seven",
        "8:findMe again",
        "9-nine",
        "",
        "# src/b.py",
        "1:findMe = 1",
        "2-x = 2",
      ].join("\n"),
    );
  });

  it("searches only the folder given and only files matching file_pattern", async () => {
    write("src/a.ts", "const token = 1;\n");
    write("src/a.js", "const token = 2;\n");
    write("lib/c.ts", "const token = 3;\n");
    const result = await search({ path: "src", regex: "token", file_pattern: "*.ts" });
    expect(result.forModel).toContain("in src (files matching *.ts).");
    expect(result.forModel).toContain("# src/a.ts\n1:const token = 1;");
    expect(result.forModel).not.toContain("a.js");
    expect(result.forModel).not.toContain("lib/c.ts");
  });

  it("respects .gitignore (nested too, without a git repository) and .kilocodeignore, even against a glob", async () => {
    write(".gitignore", "dist/\n");
    write("pkg/.gitignore", "*.gen.ts\n");
    write(".kilocodeignore", "secrets.ts\nprivate/\n");
    write("dist/out.ts", "needle\n");
    write("pkg/x.gen.ts", "needle\n");
    write("pkg/x.ts", "needle\n");
    write("secrets.ts", "needle\n");
    write("private/notes.ts", "needle\n");
    write("node_modules/dep/index.ts", "needle\n");
    write(".github/workflow.ts", "needle\n");
    const all = await search({ regex: "needle" });
    expect(all.forModel).toContain("Found 2 matches in 2 files");
    expect(all.forModel).toContain("# pkg/x.ts");
    expect(all.forModel).toContain("# .github/workflow.ts");
    // rg lets a --glob override its --ignore-file: the tool checks .kilocodeignore itself as well.
    const globbed = await search({ regex: "needle", file_pattern: "*.ts" });
    expect(globbed.forModel).not.toContain("secrets.ts");
    expect(globbed.forModel).not.toContain("private/");
    const inside = await runToolCall({ type: "tool_use", name: "search_files", params: { path: "private", regex: "needle" }, partial: false }, deps());
    expect(inside.status).toBe("error");
    expect(inside.forModel).toMatch(/^Error: private is hidden from Kiln by \.kilocodeignore/);
  });

  it("searches an ignored folder when asked for it by name", async () => {
    write(".gitignore", "build/\n");
    write("build/gen.js", "needle\n");
    const result = await search({ path: "build", regex: "needle" });
    expect(result.forModel).toContain("# build/gen.js\n1:needle");
  });

  it("stops at 300 matches and says how to narrow the search", async () => {
    for (let f = 0; f < 4; f++) write(`f${f}.txt`, Array.from({ length: 100 }, (_, i) => `hit ${i}`).join("\n"));
    const result = await search({ regex: "^hit" });
    expect(result.forModel).toMatch(/^Showing the first 300 matches in [34] files in the workspace; there are more\./);
    expect(result.forModel.match(/^\d+:hit/gm)).toHaveLength(300);
    expect(result.forModel).toContain("[Stopped at 300 matches. Narrow the search: a more specific regex, a subfolder as path, or a file_pattern.]");
  });

  it("gives rg's message for a bad regex as an error the model can fix", async () => {
    write("a.ts", "x\n");
    const result = await search({ regex: "foo(bar" });
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/^Error: <regex> is not a valid regular expression \(ripgrep uses Rust regex syntax/);
    expect(result.forModel).toContain("unclosed group");
  });

  it("falls back to PCRE2 for look-around", async () => {
    write("a.ts", "foobar\nfoobaz\n");
    const result = await search({ regex: "foo(?!bar)" });
    expect(result.status).toBe("done");
    expect(result.forModel).toContain("2:foobaz");
    expect(result.forModel).not.toContain("1:foobar");
  });

  it("reports a bad glob, no matches and a missing path", async () => {
    write("a.ts", "x\n");
    const glob = await search({ regex: "x", file_pattern: "{a,b" });
    expect(glob.forModel).toMatch(/^Error: <file_pattern> "\{a,b" is not a valid glob/);
    expect((await search({ regex: "zzz" })).forModel).toBe("No matches for /zzz/ in the workspace.");
    expect((await search({ path: "nope", regex: "x" })).forModel).toMatch(/^Error: nope does not exist\./);
  });

  it("handles a regex that starts with a dash, cuts very long lines and names files with odd characters", async () => {
    write("dir with space/ünï.ts", `-flag\n${"y".repeat(1000)}needle\n`);
    const dash = await search({ regex: "-flag" });
    expect(dash.forModel).toContain("# dir with space/ünï.ts\n1:-flag");
    const long = await search({ regex: "needle" });
    expect(long.forModel).toContain(`2:${"y".repeat(250)}… [line cut at 250 characters]`);
  });

  describe.runIf(process.platform !== "win32")("with FIFOs (named pipes), which never end", () => {
    const fifo = (rel: string) => {
      mkdirSync(dirname(join(cwd, rel)), { recursive: true });
      execFileSync("mkfifo", [join(cwd, rel)]);
    };
    const timed = async (params: Record<string, string>) => {
      const started = Date.now();
      const result = await search(params);
      return { result, seconds: (Date.now() - started) / 1000 };
    };

    it("refuses a FIFO given as the path at once", async () => {
      fifo("pipe");
      const { result, seconds } = await timed({ path: "pipe", regex: "x" });
      expect(result.forModel).toBe("Error: pipe is not a regular file (a device, socket or FIFO); it cannot be searched.");
      expect(seconds).toBeLessThan(2);
    });

    it("skips a FIFO inside the searched folder and returns the regular files' matches promptly", async () => {
      write("src/a.ts", "needle one\n");
      write("b.txt", "needle two\n");
      fifo("src/pipe");
      fifo("pipe.txt");
      const { result, seconds } = await timed({ regex: "needle" });
      expect(result.forModel).toContain("Found 2 matches in 2 files in the workspace.");
      expect(result.forModel).toContain("# src/a.ts\n1:needle one");
      expect(result.forModel).toContain("# b.txt\n1:needle two");
      expect(seconds).toBeLessThan(2);
    });

    it("searches past a FIFO named .kilocodeignore", async () => {
      write("a.ts", "needle\n");
      fifo(".kilocodeignore");
      const { result, seconds } = await timed({ regex: "needle" });
      expect(result.forModel).toContain("# a.ts\n1:needle");
      expect(seconds).toBeLessThan(2);
    });

    // rg opens ignore files to read their rules; where the kernel tells (Linux), the wait is seen and ended.
    it.runIf(process.platform === "linux")("stops at a FIFO named .gitignore and says why, instead of hanging", async () => {
      write("a/hit.ts", "needle\n");
      write("b/c/also.ts", "needle\n");
      fifo("b/.gitignore");
      const { result, seconds } = await timed({ regex: "needle" });
      expect(result.forModel).toMatch(/^Error: the search of the workspace stopped at a FIFO \(named pipe\) called \.gitignore, \.ignore or \.rgignore/);
      expect(result.forModel).toContain("Search single files (give one file as path)");
      expect(seconds).toBeLessThan(5);
      // A file given as the path is searched without walking folders, so their ignore files are not opened.
      expect((await timed({ path: "b/c/also.ts", regex: "needle" })).result.forModel).toContain("1:needle");
    });
  });

  it("stops rg when the task is cancelled", async () => {
    write("a.ts", "x\n");
    const controller = new AbortController();
    controller.abort();
    expect((await search({ regex: "x" }, controller.signal)).forModel).toBe("Cancelled.");
  });
});
