import { describe, expect, it } from "vitest";
import { TaskRuntime } from "../../../src/core/agent/taskRuntime";
import { runToolTurn } from "../../../src/core/agent/toolTurn";
import { findMode } from "../../../src/core/modes/modes";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { silentLogger } from "../../fixtures/silentLogger";

async function turnOf(blocks: ToolUseBlock[]) {
  const task = new TaskRuntime({ getProvider: () => Promise.reject(new Error("no model in this test")), logger: silentLogger });
  const removed: string[] = [];
  task.log.onDidChange((e) => e.type === "itemRemoved" && removed.push(e.id));
  task.log.append({ id: "say", role: "assistant", text: "Done, I think.", partial: false });
  blocks.forEach((block, i) => task.log.append({ id: `c${i}`, role: "tool", name: block.name, params: {}, status: "streaming" }));
  const pipeline = {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true as const }) },
    autoApprove: { groups: new Set<never>(), outsideWorkspace: false },
    context: { cwd: process.cwd(), fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
  const outcome = await runToolTurn(
    blocks.map((block, i) => ({ block, itemId: `c${i}` })),
    false,
    task,
    pipeline,
    new AbortController().signal,
  );
  return { items: task.log.snapshot(), removed, outcome };
}

const call = (name: string, params: Record<string, string>): ToolUseBlock => ({ type: "tool_use", name, params, partial: false });

describe("the end of a task in the chat", () => {
  it("is one Task completed block: the attempt_completion card gives way to it", async () => {
    const { items, removed, outcome } = await turnOf([call("attempt_completion", { result: "Added the test." })]);
    expect(items.map((i) => i.role)).toEqual(["assistant", "completion"]);
    expect(items[1]).toMatchObject({ role: "completion", result: "Added the test." });
    expect(removed).toEqual(["c0"]);
    expect(outcome.waitFor?.status).toBe("completed");
  });

  it("a question keeps its card above the question, and calls after either are shown as skipped", async () => {
    const { items } = await turnOf([call("ask_followup_question", { question: "Which file?" }), call("read_file", { path: "README.md" })]);
    expect(items.map((i) => [i.role, i.role === "tool" ? i.status : ""])).toEqual([
      ["assistant", ""],
      ["tool", "done"],
      ["tool", "error"],
      ["question", ""],
    ]);
  });
});
