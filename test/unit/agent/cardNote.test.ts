import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AutoApproveInput } from "../../../src/core/agent/pipeline";
import { TaskRuntime } from "../../../src/core/agent/taskRuntime";
import { runToolTurn } from "../../../src/core/agent/toolTurn";
import { settingsFromWords } from "../../../src/core/approval/settings";
import { findMode } from "../../../src/core/modes/modes";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolItem } from "../../../src/shared/protocol/chat";
import type { Terminal } from "../../../src/core/ports/terminal";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { silentLogger } from "../../fixtures/silentLogger";

async function cardAfter(block: ToolUseBlock, mode: string, autoApprove: AutoApproveInput) {
  const task = new TaskRuntime({ getProvider: () => Promise.reject(new Error("no model in this test")), logger: silentLogger });
  task.log.append({ id: "t1", role: "tool", name: block.name, params: {}, status: "streaming" });
  const asked: string[] = [];
  const context = { cwd: mkdtempSync(join(tmpdir(), "kiln-note-")), fs: new NodeFileSystem(), signal: new AbortController().signal };
  const pipeline = {
    registry: createDefaultRegistry(),
    mode: findMode(mode)!,
    modes: [findMode("code")!, findMode("architect")!, findMode("debug")!],
    approvals: { request: async (r: { summary: string }) => (asked.push(r.summary), { approved: true as const }) },
    autoApprove,
    context: {
      ...context,
      // A terminal that must never be reached: a refused command does not run.
      terminal: new Proxy({}, { get: () => () => Promise.reject(new Error("the command ran")) }) as unknown as Terminal,
    },
  };
  const outcome = await runToolTurn([{ block, itemId: "t1" }], false, task, pipeline, new AbortController().signal);
  return { card: task.log.find("t1") as ToolItem, forModel: outcome.texts.join("\n"), asked };
}

describe("a card says in a sentence why Kiln did not run a call", () => {
  it("a mode that may not edit the file: the reason and the way out; the model still gets the full text", async () => {
    const write: ToolUseBlock = { type: "tool_use", name: "write_to_file", params: { path: "src/app.ts", content: "x", line_count: "1" }, partial: false };
    const { card, forModel, asked } = await cardAfter(write, "architect", { groups: new Set(["edit"]), outsideWorkspace: false });
    expect(card.status).toBe("error");
    expect(card.note).toBe("Architect mode may edit only Markdown files; src/app.ts is not one. Switch to code or debug mode for this.");
    expect(card.result).toContain("Tools available in this mode");
    expect(forModel).toContain("Modes that may: code, debug");
    expect(asked).toEqual([]);
  });

  it("a command on the deny list with refusal on: the rule's reason, and no one was asked", async () => {
    const run: ToolUseBlock = { type: "tool_use", name: "execute_command", params: { command: "rm -rf build" }, partial: false };
    const { card, asked } = await cardAfter(run, "code", settingsFromWords(["command"], { denied: ["rm"], refuseDenied: true }));
    expect(card.status).toBe("denied");
    expect(card.note).toMatch(/rm/);
    expect(card.result).toContain("Kiln refused execute_command without asking the user");
    expect(asked).toEqual([]);
  });

  it("a call that simply fails keeps its error as it was, with no note", async () => {
    const read: ToolUseBlock = { type: "tool_use", name: "read_file", params: {}, partial: false };
    const { card } = await cardAfter(read, "code", { groups: new Set(["read"]), outsideWorkspace: false });
    expect(card.status).toBe("error");
    expect(card.note).toBeUndefined();
  });
});
