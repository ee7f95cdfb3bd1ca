import { describe, expect, it } from "vitest";
import type { TaskEvent } from "../../../src/core/agent/ChatLog";
import { Task } from "../../../src/core/agent/Task";
import { TaskRuntime, type TaskRuntimeOptions } from "../../../src/core/agent/taskRuntime";
import { createToolbox } from "../../../src/core/agent/toolbox";
import type { Provider } from "../../../src/core/llm/types";
import { BUILTIN_MODES, findMode, type Mode } from "../../../src/core/modes/modes";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { silentLogger } from "../../fixtures/silentLogger";

const noModel = (): Promise<Provider> => Promise.reject(new Error("no model in this test"));

function toolbox(mode = "code", modes: readonly Mode[] = BUILTIN_MODES) {
  return createToolbox({
    registry: createDefaultRegistry(),
    mode: findMode(mode, modes)!,
    modes,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(), outsideWorkspace: false },
    cwd: process.cwd(),
    fs: new NodeFileSystem(),
    os: "Linux",
  });
}

function runtime(options: Partial<TaskRuntimeOptions> = {}) {
  const task = new TaskRuntime({ getProvider: noModel, logger: silentLogger, toolbox: toolbox(), ...options });
  const events: TaskEvent[] = [];
  task.log.onDidChange((e) => events.push(e));
  return { task, events };
}

describe("a task's state has one owner", () => {
  it("starts in the toolbox's mode unless told another, and a change is announced once, from the task", () => {
    expect(runtime().task.modes?.mode.slug).toBe("code");
    const { task, events } = runtime({ mode: findMode("ask")! });
    expect(task.modes?.mode.slug).toBe("ask");
    task.setMode(findMode("architect")!);
    expect(task.modes?.mode.slug).toBe("architect");
    expect(events).toEqual([{ type: "mode", mode: "architect" }]);
    // A task without tools has no modes, and nothing to switch.
    const chat = new TaskRuntime({ getProvider: noModel, logger: silentLogger });
    chat.setMode(findMode("code")!);
    expect(chat.modes).toBeUndefined();
  });

  it("a mode file change gives the current mode its new definition; a mode that is gone stays until the task leaves it", () => {
    const custom: Mode = { slug: "docs", name: "Docs", roleDefinition: "You write docs.", groups: ["read"] };
    const { task, events } = runtime({ toolbox: toolbox("docs", [...BUILTIN_MODES, custom]) });
    const edited = { ...custom, roleDefinition: "You write short docs." };
    task.reloadModes([...BUILTIN_MODES, edited]);
    expect(task.modes?.mode).toEqual(edited);
    task.reloadModes(BUILTIN_MODES);
    expect(task.modes?.mode).toEqual(edited);
    expect(task.modes?.modes.map((m) => m.slug)).toEqual([...BUILTIN_MODES.map((m) => m.slug), "docs"]);
    expect(events).toEqual([]);
  });

  it("the toolbox a task holds is the same for every mode: what depends on the mode takes it", () => {
    const box = toolbox();
    expect(Object.isFrozen(box)).toBe(true);
    const code = box.nativeTools(findMode("code")!).map((t) => t.name);
    const ask = box.nativeTools(findMode("ask")!).map((t) => t.name);
    expect(code).toContain("write_to_file");
    expect(ask).not.toContain("write_to_file");
    expect(box.systemPrompt("xml", { mode: findMode("ask")!, modes: box.modes })).toContain("Mode: ask");
    expect(box.pipeline(new AbortController().signal, { mode: findMode("ask")!, modes: box.modes }).mode.slug).toBe("ask");
    // Asking in another mode changed nothing for the next caller.
    expect(box.nativeTools(findMode("code")!).map((t) => t.name)).toEqual(code);
  });

  it("counts failed calls in a row until one works or the user writes", () => {
    const { task } = runtime();
    expect([task.countError(), task.countError()]).toEqual([1, 2]);
    task.clearErrors();
    expect(task.countError()).toBe(1);
    task.freshStart();
    expect(task.errorStreak).toBe(0);
  });

  it("falls back to XML for good, once, and says why", () => {
    const { task, events } = runtime({ protocol: "auto" });
    expect([task.protocolSetting, task.protocol]).toEqual(["auto", "native"]);
    task.fallBackToXml("the model called tools as XML in its text");
    expect(task.protocol).toBe("xml");
    expect(events).toEqual([{ type: "protocol", protocol: "xml", reason: "the model called tools as XML in its text" }]);
    expect(runtime({ protocol: "xml" }).task.protocol).toBe("xml");
  });

  it("a subtask counts against its parent's budget and auto-approve limits, and starts with the todos it was given", () => {
    const parent = runtime().task;
    const child = new TaskRuntime({ getProvider: noModel, logger: silentLogger, toolbox: toolbox() }, { parent, todos: [{ text: "write it", status: "pending" }] });
    expect(child.budgetMeter).toBe(parent.budgetMeter);
    expect(child.approvalTally).toBe(parent.approvalTally);
    expect(child.usage).not.toBe(parent.usage);
    expect(child.todos).toEqual([{ text: "write it", status: "pending" }]);
  });

  it("a Task's mode is the runtime's: the picker's choice shows in its info and in what history saves", () => {
    const task = new Task({ getProvider: noModel, logger: silentLogger, toolbox: toolbox(), identity: { id: "t1", createdAt: 0, workspace: "/ws" } });
    expect(task.setMode("debug")).toBe(true);
    expect(task.setMode("no-such-mode")).toBe(false);
    expect(task.info().mode).toBe("debug");
    expect(task.saved()?.entry.mode).toBe("debug");
    task.dispose();
  });
});
