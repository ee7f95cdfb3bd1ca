import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/core/agent/retry";
import { Task, type TaskEvent } from "../../src/core/agent/Task";
import { createToolbox } from "../../src/core/agent/toolbox";
import { createProvider } from "../../src/core/llm/createProvider";
import type { ProviderKind } from "../../src/core/llm/types";
import { BUILTIN_MODES } from "../../src/core/modes/modes";
import { silentLogger } from "../fixtures/silentLogger";
import type { FileSystem } from "../../src/core/ports/fileSystem";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";
import type { ToolProtocolSetting } from "../../src/core/prompts/system";
import { createDefaultRegistry, ToolRegistry } from "../../src/core/tools/registry";
import { defineTool } from "../../src/core/tools/defineTool";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";

let server: FakeModelServer;
beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-loop-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(dir, "src", "b.ts"), "export const b = 2;\n");
  return dir;
}

const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const snapTool = defineTool({
  name: "snap",
  group: "read",
  description: "Takes a picture.",
  params: {},
  execute: async () => ({ kind: "result", text: "Here is the picture.", images: [{ mediaType: "image/png", data: PIXEL }] }),
});

function makeTask(options: { kind?: ProviderKind; protocol: ToolProtocolSetting; fs?: FileSystem; retries?: number; model?: string; overrides?: unknown }) {
  const kind = options.kind ?? "openai";
  const events: TaskEvent[] = [];
  const task = new Task({
    getProvider: async () => createProvider({ kind, baseUrl: kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl, model: options.model ?? "fake", apiKey: "k" }),
    logger: silentLogger,
    modelOverrides: () => options.overrides,
    retry: { ...DEFAULT_RETRY, baseDelayMs: 10, maxRetries: options.retries ?? 0 },
    protocol: options.protocol,
    toolbox: createToolbox({
      registry: new ToolRegistry([...createDefaultRegistry().list(), snapTool]),
      mode: BUILTIN_MODES[0]!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: { groups: new Set(["read", "edit"]), outsideWorkspace: false },
      cwd: workspace(),
      fs: options.fs ?? new NodeFileSystem(),
      os: "Linux",
    }),
  });
  task.onDidChange((e) => events.push(e));
  return { task, events };
}

const complete = { toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] };
const xmlComplete = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
const system = (r: RecordedRequest) => JSON.stringify(r.body.system ?? (r.body.messages as unknown[])[0]);

describe("tool protocol auto", () => {
  it.each(["openai", "anthropic"] as const)("falls back to XML when the endpoint rejects tools, and finishes (%s)", async (kind) => {
    const { task, events } = makeTask({ kind, protocol: "auto" });
    const before = server.requests.length;
    server.enqueue({ fault: { type: "http", status: 400, message: "registry.ollama.ai/library/fake does not support tools" } }, xmlComplete);
    await task.send("finish");
    expect(task.status).toBe("completed");
    const [rejected, retried] = server.requests.slice(before);
    expect(rejected!.body.tools).toBeDefined();
    expect(retried!.body.tools).toBeUndefined();
    expect(system(retried!)).toContain("<attempt_completion>");
    expect(events).toContainEqual(expect.objectContaining({ type: "protocol", protocol: "xml" }));
    expect(task.snapshot().filter((i) => i.role === "error")).toEqual([]);
  });

  it("switches to XML for good when the model answers in XML though native tools were offered", async () => {
    const { task } = makeTask({ protocol: "auto" });
    const before = server.requests.length;
    server.enqueue({ text: "Reading.\n<read_file>\n<path>src/a.ts</path>\n</read_file>" }, xmlComplete);
    await task.send("read a");
    expect(task.status).toBe("completed");
    const [first, second] = server.requests.slice(before);
    expect(first!.body.tools).toBeDefined();
    expect(second!.body.tools).toBeUndefined();
    expect(JSON.stringify(second!.body.messages)).toContain("1 | export const a = 1;");
  });

  it("keeps native tools when the endpoint takes them", async () => {
    const { task } = makeTask({ protocol: "auto" });
    const before = server.requests.length;
    server.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "src/a.ts" } }] }, complete);
    await task.send("read a");
    expect(task.status).toBe("completed");
    expect(server.requests.slice(before).every((r) => r.body.tools !== undefined)).toBe(true);
  });

  it("does not fall back on a 400 that has nothing to do with tools", async () => {
    const { task, events } = makeTask({ protocol: "auto" });
    server.enqueue({ fault: { type: "http", status: 400, message: "messages: too long" } });
    await task.send("hi");
    expect(task.status).toBe("failed");
    expect(events.some((e) => e.type === "protocol")).toBe(false);
  });
});

describe("reads in one turn", () => {
  it("run side by side, and their results keep the order of the calls", async () => {
    const inner = new NodeFileSystem();
    let inFlight = 0;
    let maxInFlight = 0;
    let release: () => void = () => undefined;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    // Each read waits until the other has started (or 3 s pass): in sequence, only one is ever in flight.
    const fs: FileSystem = {
      ...inner,
      stat: (p) => inner.stat(p),
      readDirectory: (p) => inner.readDirectory(p),
      writeFile: (p, c) => inner.writeFile(p, c),
      delete: (p, o) => inner.delete(p, o),
      readFile: async (p) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        if (inFlight === 2) release();
        await Promise.race([bothStarted, new Promise((r) => setTimeout(r, 3000))]);
        inFlight--;
        return inner.readFile(p);
      },
    };
    const { task } = makeTask({ protocol: "native", fs });
    const before = server.requests.length;
    server.enqueue(
      {
        toolCalls: [
          { id: "call_a", name: "read_file", arguments: { path: "src/a.ts" } },
          { id: "call_b", name: "read_file", arguments: { path: "src/b.ts" } },
        ],
      },
      complete,
    );
    await task.send("read both");
    expect(maxInFlight).toBe(2);
    const results = (server.requests[before + 1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[]).filter((m) => m.role === "tool");
    expect(results.map((m) => m.tool_call_id)).toEqual(["call_a", "call_b"]);
    expect(results[0]!.content).toContain("export const a");
    expect(results[1]!.content).toContain("export const b");
  });

  it("a write between reads still runs alone and in order", async () => {
    const { task } = makeTask({ protocol: "native" });
    const before = server.requests.length;
    server.enqueue(
      {
        toolCalls: [
          { id: "w", name: "write_to_file", arguments: { path: "src/a.ts", content: "export const a = 42;\n", line_count: 1 } },
          { id: "r", name: "read_file", arguments: { path: "src/a.ts" } },
        ],
      },
      complete,
    );
    await task.send("write then read");
    const read = (server.requests[before + 1]!.body.messages as { tool_call_id?: string; content?: string }[]).find((m) => m.tool_call_id === "r");
    expect(read!.content).toContain("export const a = 42;");
  });
});

describe("replies", () => {
  it("a reply with reasoning only counts as empty and is asked again", async () => {
    const { task } = makeTask({ protocol: "xml", retries: 1 });
    const before = server.requests.length;
    server.enqueue({ reasoning: "Let me think about it..." }, xmlComplete);
    await task.send("go");
    expect(task.status).toBe("completed");
    expect(server.requests.length - before).toBe(2);
    const history = task.apiHistory();
    expect(history.filter((m) => m.role === "assistant").every((m) => m.content !== "")).toBe(true);
  });

  it.each(["openai", "anthropic"] as const)("reports each request's tokens and the task's totals (%s)", async (kind) => {
    const { task, events } = makeTask({ kind, protocol: "xml" });
    server.enqueue({ text: "<read_file>\n<path>src/a.ts</path>\n</read_file>", usage: { input: 100, output: 20 } }, { ...xmlComplete, usage: { input: 150, output: 30 } });
    await task.send("go");
    const usage = events.filter((e) => e.type === "usage");
    expect(usage.at(-1)).toMatchObject({ request: { inputTokens: 150, outputTokens: 30 }, total: { inputTokens: 250, outputTokens: 50 } });
  });

  it("prices each request from the model table, and sends the model's output limit", async () => {
    const { task, events } = makeTask({ protocol: "xml", model: "gpt-4.1-2025-04-14" });
    const before = server.requests.length;
    server.enqueue({ ...xmlComplete, usage: { input: 1_000_000, output: 100_000 } });
    await task.send("go");
    // gpt-4.1: $2 per million in, $8 per million out.
    expect(events.find((e) => e.type === "usage")).toMatchObject({ cost: 2.8, totalCost: 2.8 });
    expect(server.requests[before]!.body.max_completion_tokens).toBe(32_768);
  });

  it("takes the user's prices for a model the table does not know, and leaves out an unknown model's limit", async () => {
    const priced = makeTask({ protocol: "xml", overrides: { inputPrice: 1, outputPrice: 2 } });
    server.enqueue({ ...xmlComplete, usage: { input: 500_000, output: 500_000 } });
    await priced.task.send("go");
    expect(priced.events.find((e) => e.type === "usage")).toMatchObject({ cost: 1.5 });
    const before = server.requests.length;
    const unpriced = makeTask({ protocol: "xml" });
    server.enqueue(xmlComplete);
    await unpriced.task.send("go");
    expect(unpriced.events.find((e) => e.type === "usage")).toMatchObject({ cost: undefined, totalCost: undefined });
    expect(server.requests[before]!.body.max_completion_tokens).toBeUndefined();
  });
});

describe("images from tools", () => {
  const vision = { supportsImages: true };
  it.each([
    ["anthropic", "native"],
    ["openai", "native"],
    ["anthropic", "xml"],
    ["openai", "xml"],
  ] as const)("reach a vision model in the next request (%s, %s)", async (kind, protocol) => {
    const { task } = makeTask({ kind, protocol, overrides: vision });
    const before = server.requests.length;
    server.enqueue(protocol === "native" ? { toolCalls: [{ id: "toolu_snap", name: "snap", arguments: {} }] } : { text: "<snap>\n</snap>" }, protocol === "native" ? complete : xmlComplete);
    await task.send("take a picture");
    expect(task.status).toBe("completed");
    const messages = server.requests[before + 1]!.body.messages as { role: string; content: unknown }[];
    const sent = JSON.stringify(messages);
    // The image is the newest user turn's last block, so it also carries the prompt-cache mark.
    if (kind === "anthropic") expect(sent).toContain(`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PIXEL}"}`);
    else expect(sent).toContain(`{"type":"image_url","image_url":{"url":"data:image/png;base64,${PIXEL}"}}`);
    expect(sent).toContain("Here is the picture.");
  });

  it("are left out with a note for a model without vision", async () => {
    const { task } = makeTask({ protocol: "native" });
    const before = server.requests.length;
    server.enqueue({ toolCalls: [{ id: "call_snap", name: "snap", arguments: {} }] }, complete);
    await task.send("take a picture");
    const sent = JSON.stringify(server.requests[before + 1]!.body.messages);
    expect(sent).not.toContain(PIXEL);
    expect(sent).toContain("1 image(s) left out: this model does not take images.");
  });
});

describe("what the task header shows", () => {
  it("the context bar's figures: the last request's prompt and reply against the model's window and max output", async () => {
    const { task, events } = makeTask({ protocol: "xml", overrides: { contextWindow: 10_000, maxOutputTokens: 2_000 } });
    server.enqueue({ ...xmlComplete, usage: { input: 1_200, output: 300 } });
    await task.send("finish");
    expect(task.info().context).toEqual({ used: 1_500, window: 10_000, reserved: 2_000 });
    // The header hears of it with the usage, and of the status with each change.
    const statuses = events.filter((e) => e.type === "status").map((e) => e.type === "status" && e.status);
    expect(statuses.at(-1)).toBe("completed");
    expect(task.info().status).toBe("completed");
  });

  it("Resume after a cancel goes on with a note to the model, and the task completes", async () => {
    const { task } = makeTask({ protocol: "xml" });
    const before = server.requests.length;
    server.enqueue({ text: "Let me think about this for a while before I do anything at all.", chunkDelayMs: 80 });
    const running = task.send("do it");
    await new Promise<void>((resolve) => {
      const stop = task.onDidChange((e) => {
        if (e.type === "textDelta") {
          stop.dispose();
          resolve();
        }
      });
    });
    task.cancel();
    await running;
    expect(task.info().status).toBe("stopped");
    server.enqueue(xmlComplete);
    await task.resume();
    expect(task.status).toBe("completed");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("[The user resumed the task after it stopped.");
    expect(server.requests.length - before).toBe(2);
  });

  it("Resume does nothing to a task that did not stop", async () => {
    const { task } = makeTask({ protocol: "xml" });
    server.enqueue(xmlComplete);
    await task.send("finish");
    const before = server.requests.length;
    await task.resume();
    expect(server.requests.length).toBe(before);
    expect(task.status).toBe("completed");
  });
});
