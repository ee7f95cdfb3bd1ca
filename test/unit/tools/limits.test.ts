import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolbox, type ToolboxOptions } from "../../../src/core/agent/toolbox";
import { findMode } from "../../../src/core/modes/modes";
import type { CommandPool } from "../../../src/platform/node/commandPool";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { createNodeTerminal } from "../../../src/platform/node/nodeTerminal";
import { runToolCall } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { parseArgs, UsageError } from "../../../src/hosts/cli/args";

let cwd: string;
let terminal: CommandPool;

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "kiln-limits-")));
  writeFileSync(join(cwd, "ten.txt"), Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
  terminal = createNodeTerminal({ logDir: () => join(cwd, ".logs") });
});
afterEach(() => terminal.dispose());

/** A task's tools as a host builds them, with the limits given here (each read per call). */
function toolbox(limits: Pick<ToolboxOptions, "readFileMaxLines" | "toolResultMaxChars" | "outputMaxChars" | "saveOverflow">) {
  return createToolbox({
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read", "command"]), outsideWorkspace: false },
    cwd,
    fs: new NodeFileSystem(),
    os: "Linux",
    terminal,
    ...limits,
  });
}

const call = (name: string, params: Record<string, string>): ToolUseBlock => ({ type: "tool_use", name, params, partial: false });
const run = (box: ReturnType<typeof toolbox>, name: string, params: Record<string, string>) =>
  runToolCall(call(name, params), box.pipeline(new AbortController().signal, { mode: box.startMode, modes: box.modes }));

describe("limits on what reaches the model", () => {
  it("read_file shows readFileMaxLines lines of a real file and says where to read on; a changed limit applies to the next call", async () => {
    let maxLines = 3;
    const box = toolbox({ readFileMaxLines: () => maxLines });
    const first = await run(box, "read_file", { path: "ten.txt" });
    expect(first.forModel).toContain("1 | row 1\n2 | row 2\n3 | row 3\n[Showing lines 1-3 of 10. Read on with start_line 4.]");
    expect(first.forModel).not.toContain("row 4");
    const next = await run(box, "read_file", { path: "ten.txt", start_line: "4" });
    expect(next.forModel).toContain("\n4 | row 4\n5 | row 5\n6 | row 6\n[Showing lines 4-6 of 10. Read on with start_line 7.]");
    maxLines = 20;
    const all = await run(box, "read_file", { path: "ten.txt" });
    expect(all.forModel).toContain("10 | row 10");
    expect(all.forModel).not.toContain("Showing lines");
  });

  it("without a setting read_file keeps its 500-line cap", async () => {
    writeFileSync(join(cwd, "long.txt"), Array.from({ length: 600 }, (_, i) => `l${i + 1}`).join("\n"));
    const result = await run(toolbox({}), "read_file", { path: "long.txt" });
    expect(result.forModel).toContain("[Showing lines 1-500 of 600. Read on with start_line 501.]");
  });

  it("toolResultMaxChars cuts a long result and saves the whole of it for read_file", async () => {
    writeFileSync(join(cwd, "wide.txt"), Array.from({ length: 100 }, (_, i) => `${i + 1}:${"x".repeat(60)}`).join("\n"));
    const saved: string[] = [];
    const box = toolbox({
      toolResultMaxChars: () => 1_000,
      saveOverflow: async (tool, text) => {
        const file = join(cwd, `${tool}-overflow.txt`);
        writeFileSync(file, text);
        saved.push(file);
        return file;
      },
    });
    const result = await run(box, "read_file", { path: "wide.txt" });
    const [shown, note] = result.forModel.split("\n[Result cut at ");
    expect(shown).toHaveLength(1_000);
    expect(note).toMatch(/^1000 of \d+ characters\. The full result is saved at .*read_file-overflow\.txt; read it with read_file and start_line\.\]$/);
    const full = readFileSync(saved[0]!, "utf8");
    expect(full.startsWith(shown!)).toBe(true);
    expect(full).toContain(`100 | 100:${"x".repeat(60)}`);
  });

  it.runIf(process.platform !== "win32")("outputMaxChars cuts command output to its head and tail, and read_command_output pages within it", async () => {
    const box = toolbox({ outputMaxChars: () => 1_000 });
    const result = await run(box, "execute_command", { command: "seq 1 2000" });
    expect(result.status).toBe("done");
    const output = result.forModel.split("\nOutput:\n")[1]!;
    expect(output.startsWith("1\n2\n3\n")).toBe(true);
    expect(output.endsWith("1999\n2000")).toBe(true);
    expect(output).toMatch(/\[… [\d,]+ characters cut from the middle of the output \(lines \d+-\d+\)\. Page through them with read_command_output, id \w+, start_line \d+\./);
    const [head, tail] = output.split(/\n\[….*…\]\n/);
    expect(head!.length + tail!.length).toBeLessThanOrEqual(1_000);
    expect(head!.length + tail!.length).toBeGreaterThan(900);
    const id = /id (\w+), start_line/.exec(output)![1]!;
    const page = await run(box, "read_command_output", { id, start_line: "100" });
    const lines = page.forModel.split("\nOutput:\n")[1]!.split("\n");
    expect(lines[0]).toBe("100");
    expect(lines.slice(0, -1).join("\n").length).toBeLessThanOrEqual(1_000);
    expect(lines.at(-1)).toMatch(/^\[Showing lines 100-\d+ of 2000\. Read on with start_line \d+\.\]$/);
  });
});

describe("kiln run: limit flags", () => {
  const parse = (...flags: string[]) => parseArgs(["run", ...flags, "task"], {}, "/tmp");

  it("takes the three limits as whole numbers within their bounds", () => {
    const args = parse("--read-max-lines", "3", "--result-max-chars", "2000", "--output-max-chars", "5000");
    expect([args.readFileMaxLines, args.toolResultMaxChars, args.outputMaxChars]).toEqual([3, 2000, 5000]);
    expect(parse().readFileMaxLines).toBeUndefined();
  });

  it.each([
    [["--read-max-lines", "0"], '--read-max-lines must be a whole number from 1 to 100000 (got "0")'],
    [["--read-max-lines", "2.5"], '--read-max-lines must be a whole number from 1 to 100000 (got "2.5")'],
    [["--result-max-chars", "lots"], '--result-max-chars must be a whole number from 1000 to 10000000 (got "lots")'],
    [["--output-max-chars", "999"], '--output-max-chars must be a whole number from 1000 to 1000000 (got "999")'],
  ])("refuses %j with a usage error that says what is allowed", (flags, message) => {
    expect(() => parse(...flags)).toThrow(new UsageError(message));
  });
});
