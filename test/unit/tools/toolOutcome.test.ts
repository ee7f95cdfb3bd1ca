import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Task } from "../../../src/core/agent/Task";
import { createToolbox, type ToolboxOptions } from "../../../src/core/agent/toolbox";
import { settingsFromGroups } from "../../../src/core/approval/settings";
import type { McpHubApi, McpServerView } from "../../../src/core/mcp/types";
import { resolveMentions } from "../../../src/core/mentions/resolve";
import { findMode } from "../../../src/core/modes/modes";
import { lastSent, scriptedModel } from "../../fixtures/scriptedModel";
import { silentLogger } from "../../fixtures/silentLogger";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import type { Terminal } from "../../../src/core/ports/terminal";
import type { ToolContext } from "../../../src/core/tools/defineTool";
import { runToolCall, type PipelineDeps, type ToolCallResult } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import { TOOL_ERROR_REASONS, type ToolErrorReason } from "../../../src/shared/toolOutcome";

/**
 * A tool fails by its outcome's kind, never by how its text begins: a file whose first line is
 * "Error: …" is a result, and only real failures count toward the three-errors-in-a-row stop.
 */

function workspace(files: Record<string, string> = {}): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "kiln-outcome-")));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  return cwd;
}

function taskIn(cwd: string, replies: string[], options: Partial<ToolboxOptions> = {}) {
  const model = scriptedModel(replies);
  const task = new Task({
    getProvider: async () => model.provider,
    logger: silentLogger,
    modelOverrides: () => ({ contextWindow: 100_000, maxOutputTokens: 500 }),
    protocol: "xml",
    toolbox: createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode("code")!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
      cwd,
      fs: new NodeFileSystem(),
      os: "Linux",
      ...options,
    }),
  });
  return { task, requests: model.requests };
}

const toolCards = (items: ChatItem[]) => items.flatMap((item) => (item.role === "tool" ? [item] : []));
const STOP = "3 tool calls failed in a row";

describe('a file whose text begins with "Error:"', () => {
  it("read three times in a row is three results: the task goes on, and the model gets each file's content", async () => {
    const cwd = workspace({
      "logs/a.log": "Error: connection refused\n",
      "logs/b.log": "Error: disk full\n",
      "logs/c.log": "Error: out of memory\n",
    });
    const { task, requests } = taskIn(cwd, [
      "<read_file><path>logs/a.log</path></read_file>",
      "<read_file><path>logs/b.log</path></read_file>",
      "<read_file><path>logs/c.log</path></read_file>",
      "<attempt_completion><result>Three logs read.</result></attempt_completion>",
    ]);
    await task.send("What went wrong in the logs?");

    expect(task.status).toBe("completed");
    expect(requests).toHaveLength(4);
    expect(lastSent(requests[1]!)).toContain('[read_file] Result:\n<file path="logs/a.log" lines="1-1" total="1">\n1 | Error: connection refused\n</file>');
    expect(lastSent(requests[2]!)).toContain('[read_file] Result:\n<file path="logs/b.log" lines="1-1" total="1">\n1 | Error: disk full\n</file>');
    expect(lastSent(requests[3]!)).toContain('[read_file] Result:\n<file path="logs/c.log" lines="1-1" total="1">\n1 | Error: out of memory\n</file>');
    const items = task.snapshot();
    expect(
      toolCards(items)
        .filter((card) => card.name === "read_file")
        .map((card) => card.status),
    ).toEqual(["done", "done", "done"]);
    expect(JSON.stringify(items)).not.toContain(STOP);
    task.dispose();
  });
});

// A file name may hold a colon where the tests run (not on Windows): a listing can then begin with "Error:".
describe.runIf(process.platform !== "win32")('a listing whose first line begins with "Error:"', () => {
  const reports = {
    "build/Error: step 1.log": "",
    "deploy/Error: rollback.log": "",
    "tests/Error: flaky.log": "",
  };

  it("listed three times in a row is three results, not three failures: the task goes on and the model gets the names", async () => {
    const { task, requests } = taskIn(workspace(reports), [
      "<list_files><path>build</path></list_files>",
      "<list_files><path>deploy</path></list_files>",
      "<list_files><path>tests</path></list_files>",
      "<attempt_completion><result>Three folders listed.</result></attempt_completion>",
    ]);
    await task.send("Which steps failed?");

    expect(task.status).toBe("completed");
    expect(lastSent(requests[1]!)).toBe("[list_files] Result:\nError: step 1.log");
    expect(lastSent(requests[2]!)).toBe("[list_files] Result:\nError: rollback.log");
    expect(lastSent(requests[3]!)).toBe("[list_files] Result:\nError: flaky.log");
    const items = task.snapshot();
    expect(
      toolCards(items)
        .filter((card) => card.name === "list_files")
        .map((card) => card.status),
    ).toEqual(["done", "done", "done"]);
    expect(JSON.stringify(items)).not.toContain(STOP);
    task.dispose();
  });

  it("listed between failures resets the count like any other result", async () => {
    const { task } = taskIn(workspace({ ...reports, "notes.txt": "x\n" }), [
      "<list_files><path>gone</path></list_files>",
      "<list_files><path>missing</path></list_files>",
      "<list_files><path>build</path></list_files>",
      "<list_files><path>notes.txt</path></list_files>",
      "<list_files><path>nowhere</path></list_files>",
      "<attempt_completion><result>Done.</result></attempt_completion>",
    ]);
    await task.send("Look around");
    expect(task.status).toBe("completed");
    task.dispose();
  });
});

describe("a call that really fails", () => {
  it("counts: three in a row stop the task, and the model and the cards get the same Error: text as before", async () => {
    const cwd = workspace({ "notes.txt": "x\n" });
    const { task, requests } = taskIn(cwd, [
      "<list_files><path>gone</path></list_files>",
      "<search_files><path>missing</path><regex>x</regex></search_files>",
      "<list_files><path>notes.txt</path></list_files>",
      "<attempt_completion><result>Never reached.</result></attempt_completion>",
    ]);
    await task.send("Look around");

    expect(task.status).toBe("stopped");
    expect(requests).toHaveLength(3);
    expect(lastSent(requests[1]!)).toBe("[list_files] Result:\nError: gone does not exist.");
    expect(lastSent(requests[2]!)).toBe("[search_files] Result:\nError: missing does not exist. Use list_files to see what is there.");
    const items = task.snapshot();
    expect(toolCards(items).map((card) => [card.name, card.status, card.result])).toEqual([
      ["list_files", "error", "Error: gone does not exist."],
      ["search_files", "error", "Error: missing does not exist. Use list_files to see what is there."],
      ["list_files", "error", "Error: notes.txt is not a folder; use read_file to read a file."],
    ]);
    expect(items.at(-1)).toMatchObject({ role: "error", error: { message: expect.stringContaining(STOP) } });
    task.dispose();
  });
});

/** A connected server whose tool answers with an error. */
function failingMcp(): McpHubApi {
  const server: McpServerView = {
    name: "weather",
    source: "project",
    transport: "stdio",
    state: "connected",
    tools: [{ name: "forecast", description: "Forecast", inputSchema: { type: "object" }, alwaysAllow: false, enabled: true }],
    resources: [],
    templates: [],
    prompts: [],
    log: [],
  };
  return {
    servers: () => [server],
    callTool: async () => ({ text: "city not found", images: [], isError: true }),
    readResource: async () => ({ text: "", images: [], isError: true }),
  } as unknown as McpHubApi;
}

const brokenTerminal = {
  run: async () => {
    throw new Error("spawn /bin/sh ENOENT");
  },
} as unknown as Terminal;

interface Case {
  reason: ToolErrorReason;
  tool: string;
  params: Record<string, string>;
  mode?: string;
  context?: Partial<ToolContext>;
  /** The start of what the model reads. */
  says: string;
}

const cases: Case[] = [
  { reason: "invalid_args", tool: "read_file", params: {}, says: "Error: give <path> (one file) or <args> (several files)." },
  { reason: "not_found", tool: "list_files", params: { path: "gone" }, says: "Error: gone does not exist." },
  { reason: "wrong_type", tool: "list_files", params: { path: "notes.txt" }, says: "Error: notes.txt is not a folder" },
  { reason: "unsupported", tool: "list_code_definition_names", params: { path: "notes.txt" }, says: "Error: notes.txt is not a supported source file" },
  { reason: "too_large", tool: "list_code_definition_names", params: { path: "big.ts" }, says: "Error: big.ts is 1048577 bytes, over the 1048576-byte limit" },
  { reason: "ignored", tool: "list_files", params: { path: "secret" }, says: "Error: secret is hidden from Kiln by .kilocodeignore" },
  { reason: "mode", tool: "write_to_file", params: { path: "notes.txt", content: "y\n" }, mode: "ask", says: "Error: write_to_file (edit group) is not available in Ask mode." },
  { reason: "conflict", tool: "delete_file", params: { path: "full" }, says: "Error: the folder full is not empty" },
  { reason: "no_match", tool: "search_and_replace", params: { path: "notes.txt", search: "absent", replace: "y" }, says: "Error: no match for the search in notes.txt" },
  { reason: "unavailable", tool: "execute_command", params: { command: "true" }, says: "Error: this host cannot run commands (it has no terminal)." },
  { reason: "mcp", tool: "use_mcp_tool", params: { server_name: "weather", tool_name: "forecast" }, context: { mcp: failingMcp() }, says: "Error: weather/forecast reported an error:" },
  { reason: "failed", tool: "execute_command", params: { command: "true" }, context: { terminal: brokenTerminal }, says: "Error: the command could not be started: spawn /bin/sh ENOENT" },
];

async function run(c: Case): Promise<ToolCallResult> {
  const cwd = workspace({ "notes.txt": "x\n", "big.ts": "x".repeat(1024 * 1024 + 1), "secret/key.txt": "k\n", "full/a.txt": "a\n", ".kilocodeignore": "secret/\n" });
  const deps: PipelineDeps = {
    registry: createDefaultRegistry(),
    mode: findMode(c.mode ?? "code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read", "edit", "command", "mcp"]), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal, ...c.context },
  };
  return runToolCall({ type: "tool_use", name: c.tool, params: c.params, partial: false }, deps);
}

describe("each reason a failed call gives", () => {
  it.each(cases)("$reason comes from $tool, and the model reads Error: and the message", async (c) => {
    const result = await run(c);
    expect(result).toMatchObject({ status: "error", reason: c.reason });
    expect(result.forModel.startsWith(c.says)).toBe(true);
  });

  it("is produced by one of the calls above", () => {
    expect(new Set(cases.map((c) => c.reason))).toEqual(new Set(TOOL_ERROR_REASONS));
  });
});

describe("a call Kiln's rules refuse without asking", () => {
  const refusing = { ...settingsFromGroups(new Set(["read", "command"]), false), execute: { enabled: true, allowed: ["*"], denied: ["rm"], refuseDenied: true } };

  it("is refused, not failed: the model hears the rule, the card shows it denied, and it does not count toward the stop", async () => {
    const cwd = workspace({ "notes.txt": "x\n" });
    const { task, requests } = taskIn(
      cwd,
      [
        "<list_files><path>gone</path></list_files>",
        "<list_files><path>missing</path></list_files>",
        "<execute_command><command>rm -rf build</command></execute_command>",
        "<list_files><path>notes.txt</path></list_files>",
        "<list_files><path>nowhere</path></list_files>",
        "<attempt_completion><result>Done.</result></attempt_completion>",
      ],
      { autoApprove: refusing, terminal: brokenTerminal },
    );
    await task.send("Clean up");

    expect(task.status).toBe("completed");
    expect(lastSent(requests[3]!)).toMatch(/^\[execute_command\] Result:\nKiln refused execute_command without asking the user: `rm -rf build` matches the denied command prefix "rm"\./);
    expect(toolCards(task.snapshot()).find((card) => card.name === "execute_command")).toMatchObject({ status: "denied" });
    task.dispose();
  });

  it("comes back from the pipeline as refused, with the policy's reason", async () => {
    const deps: PipelineDeps = {
      registry: createDefaultRegistry(),
      mode: findMode("code")!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: refusing,
      context: { cwd: workspace(), fs: new NodeFileSystem(), signal: new AbortController().signal, terminal: brokenTerminal },
    };
    const result = await runToolCall({ type: "tool_use", name: "execute_command", params: { command: "rm -rf build" }, partial: false }, deps);
    expect(result).toMatchObject({ status: "refused", reason: expect.stringContaining('matches the denied command prefix "rm"') });
  });
});

describe("an @-mention of a folder list_files cannot list", () => {
  it("still pastes the tool's Error: text into the message", async () => {
    const cwd = workspace({ "notes.txt": "x\n" });
    const mention = (text: string) => resolveMentions(text, { cwd, fs: new NodeFileSystem(), allowPrivateUrls: false });
    expect(await mention("see @/gone/")).toBe('see @/gone/\n\n<folder_content path="gone/">\nError: gone does not exist.\n</folder_content>');
    expect(await mention("see @/notes.txt/")).toBe('see @/notes.txt/\n\n<folder_content path="notes.txt/">\nError: notes.txt is not a folder; use read_file to read a file.\n</folder_content>');
  });
});
