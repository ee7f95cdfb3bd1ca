import { describe, expect, it } from "vitest";
import { TaskRuntime } from "../../../src/core/agent/taskRuntime";
import { runToolTurn } from "../../../src/core/agent/toolTurn";
import { findMode } from "../../../src/core/modes/modes";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { silentLogger } from "../../fixtures/silentLogger";

const read: ToolUseBlock = { type: "tool_use", name: "read_file", params: { path: "package.json" }, partial: false };

async function rejectWith(feedback: string | undefined) {
  const task = new TaskRuntime({ getProvider: () => Promise.reject(new Error("no model in this test")), logger: silentLogger });
  task.log.append({ id: "t1", role: "tool", name: "read_file", params: {}, status: "waiting" });
  const pipeline = {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: false as const, feedback }) },
    autoApprove: { groups: new Set<never>(), outsideWorkspace: false },
    context: { cwd: process.cwd(), fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
  const outcome = await runToolTurn([{ block: read, itemId: "t1" }], false, task, pipeline, new AbortController().signal);
  return { items: task.log.snapshot(), forModel: outcome.texts.join("\n") };
}

describe("a Reject with words", () => {
  it("shows the words as the user's message under the card; the model still gets them with the denial", async () => {
    const { items, forModel } = await rejectWith("Not that file, read README.md");
    expect(items.map((i) => i.role)).toEqual(["tool", "user"]);
    expect(items[0]).toMatchObject({ status: "denied" });
    expect(items[1]).toMatchObject({ role: "user", text: "Not that file, read README.md" });
    expect(forModel).toContain("The user denied read_file and said:\n<feedback>\nNot that file, read README.md\n</feedback>");
  });

  it("a plain Reject, or one with only spaces, adds no message", async () => {
    for (const feedback of [undefined, "   "]) expect((await rejectWith(feedback)).items.map((i) => i.role)).toEqual(["tool"]);
  });
});
