import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { withView } from "../../src/core/agent/presenter";
import { formatToolCall } from "../../src/hosts/cli/toolLines";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const env = cliWithModelServer();
let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-tool-lines-ws-"));
  writeFileSync(join(workspace, "other.txt"), "other\n");
});

describe.runIf(process.platform !== "win32")("kiln run prints each finished call as its tool presents it", () => {
  it("a command, a write, a read of several files and an edit: their sentence, then what they wrote, read or changed", async () => {
    env.server.enqueue(
      xmlTurn("execute_command", { command: "echo hi" }),
      xmlTurn("write_to_file", { path: "notes.txt", content: "a\nb\n", line_count: 2 }),
      xmlTurn("read_file", { args: "<file><path>notes.txt</path><line_range>1-1</line_range></file><file><path>other.txt</path></file>" }),
      xmlTurn("apply_diff", { path: "notes.txt", diff: "<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE" }),
      xmlTurn("attempt_completion", { result: "Done." }),
    );
    const result = await runCli(
      env.cli,
      ["run", "--provider", "openai", "--base-url", env.server.openaiBaseUrl, "--workspace", workspace, "--protocol", "xml", "--approve", "read,edit,command", "--no-checkpoints", "Take notes"],
      { OPENAI_API_KEY: "sk-tool-lines" },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("✓ Done.");
    expect(result.stderr).toContain("\n[Kiln ran `echo hi`: done]\n");
    expect(result.stderr).toContain("\n[Kiln wrote notes.txt: done]\n  2 lines\n");
    expect(result.stderr).toContain("\n[Kiln read 2 files: done]\n  notes.txt lines 1-1\n  other.txt\n");
    expect(result.stderr).toContain("\n[Kiln edited notes.txt: done]\n  1 change: −1 +1\n");
  });
});

describe("the printed lines of a call", () => {
  const line = (name: string, params: Record<string, string>, status: "done" | "denied" | "error" = "done") => formatToolCall(withView({ id: "t", role: "tool", name, params, status }));

  it("one line per field, cut to its first line; no more than six lines in all", () => {
    expect(line("browser_action", { action: "type", text: "first line\nsecond line" }, "denied")).toBe("[Kiln was not allowed to use the browser: type: denied]\n  text: first line …");
    const todos = Array.from({ length: 9 }, (_, i) => `- [ ] item ${i + 1}`).join("\n");
    expect(line("update_todo_list", { todos }).split("\n")).toEqual([
      "[Kiln updated the todo list: done]",
      "  [ ] item 1",
      "  [ ] item 2",
      "  [ ] item 3",
      "  [ ] item 4",
      "  [ ] item 5",
      "  … 4 more",
    ]);
    expect(line("search_files", { path: "src", regex: "x".repeat(300) }).split("\n")[1]).toHaveLength(2 + "regex: ".length + 160);
  });

  it("a call whose view has no body is its line alone", () => {
    expect(line("list_code_definition_names", { path: "src" }, "error")).toBe("[Kiln could not list the definitions in src: error]");
  });
});
