import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Task } from "../../../src/core/agent/Task";
import { createToolbox } from "../../../src/core/agent/toolbox";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { createNodeTerminal } from "../../../src/platform/node/nodeTerminal";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolItem } from "../../../src/shared/protocol/chat";
import type { CommandPool } from "../../../src/platform/node/commandPool";
import { lastSent, scriptedModel } from "../../fixtures/scriptedModel";
import { silentLogger } from "../../fixtures/silentLogger";

/** The output part of a command's result (its command line names what it will print). */
const outputIn = (text: string) => text.slice(text.indexOf("Output:"));

const command = (line: string) => `<execute_command><command>${line}</command></execute_command>`;

let terminal: CommandPool;
afterEach(() => terminal?.dispose());

/** A task whose model runs `line`, with commands auto-approved, and the states its command card went through. */
function taskRunning(line: string, replies: string[] = []) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "kiln-card-")));
  terminal = createNodeTerminal();
  const model = scriptedModel([command(line), ...replies]);
  const task = new Task({
    getProvider: async () => model.provider,
    logger: silentLogger,
    modelOverrides: () => ({ contextWindow: 100_000, maxOutputTokens: 500 }),
    protocol: "xml",
    toolbox: createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode("code")!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: { groups: new Set(["read", "command"]), outsideWorkspace: false },
      cwd,
      fs: new NodeFileSystem(),
      os: "Linux",
      terminal,
    }),
  });
  const states: ToolItem[] = [];
  task.onDidChange((e) => {
    if (e.type === "itemChanged" && e.item.role === "tool" && e.item.name === "execute_command") states.push(e.item);
  });
  /** The card once it shows `text` in its output with its buttons. */
  const runningWith = (text: string) =>
    new Promise<ToolItem>((resolve) => {
      const found = () => states.find((s) => s.status === "running" && s.output?.includes(text) && s.controls?.length);
      const look = () => {
        const state = found();
        if (state) resolve(state);
        else setTimeout(look, 20);
      };
      look();
    });
  return { task, requests: model.requests, states, runningWith };
}

describe.runIf(process.platform !== "win32")("a running command's card", () => {
  it("shows the output as it comes, with Continue while running and Stop; Stop ends the command, not the task", async () => {
    const { task, requests, states, runningWith } = taskRunning("echo started; sleep 30; echo never");
    const done = task.send("Run the slow thing");
    const card = await runningWith("started");
    expect(card.controls).toEqual(["continue", "stop"]);
    expect(task.controlCall(card.id, "stop")).toBe(true);
    await done;
    // The model heard that the user stopped it, with the output so far, and the task went on to complete.
    expect(requests).toHaveLength(2);
    expect(lastSent(requests[1]!)).toContain("The user stopped the command");
    expect(outputIn(lastSent(requests[1]!))).toContain("started");
    expect(outputIn(lastSent(requests[1]!))).not.toContain("never");
    const last = states.at(-1)!;
    expect(last.status).toBe("done");
    expect(last.output).toBeUndefined();
    expect(last.controls).toBeUndefined();
    expect(task.controlCall(card.id, "stop")).toBe(false);
  });

  it("Continue while running gives the model the output so far; the command goes on and its rest is read later", async () => {
    const { task, requests, runningWith } = taskRunning("echo first; sleep 2; echo second", ["<read_command_output><id>1</id><wait>20</wait></read_command_output>"]);
    const done = task.send("Start it and go on");
    const card = await runningWith("first");
    task.controlCall(card.id, "continue");
    await done;
    expect(requests).toHaveLength(3);
    expect(lastSent(requests[1]!)).toContain("Still running (the user chose to go on without waiting for it)");
    expect(outputIn(lastSent(requests[1]!))).toContain("first");
    expect(outputIn(lastSent(requests[1]!))).not.toContain("second");
    expect(lastSent(requests[2]!)).toMatch(/Exit code: 0\nNew output:\n(.*\n)?second/);
  });

  it("a command's output on its card is its head and its latest lines, not all of it", async () => {
    const { task, runningWith } = taskRunning("seq 1 20000; echo tail-marker; sleep 30");
    const done = task.send("Print a lot");
    const card = await runningWith("tail-marker");
    expect(card.output!.startsWith("1\n2\n3\n")).toBe(true);
    expect(card.output!.length).toBeLessThan(6_000);
    task.controlCall(card.id, "stop");
    await done;
  });
});
