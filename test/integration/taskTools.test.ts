import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../../src/core/agent/retry";
import { Task, type TaskEvent } from "../../src/core/agent/Task";
import { createToolbox } from "../../src/core/agent/toolbox";
import { createProvider } from "../../src/core/llm/createProvider";
import { findMode } from "../../src/core/modes/modes";
import { silentLogger } from "../fixtures/silentLogger";
import { NodeFileSystem } from "../../src/platform/node/nodeFileSystem";
import { createDefaultRegistry } from "../../src/core/tools/registry";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";

let server: FakeModelServer;
beforeAll(async () => {
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function makeTask(options: { mode?: string; requireTodosDone?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "kiln-tasktools-"));
  const events: TaskEvent[] = [];
  const task = new Task({
    getProvider: async () => createProvider({ kind: "openai", baseUrl: server.openaiBaseUrl, model: "fake", apiKey: "k" }),
    logger: silentLogger,
    retry: { ...DEFAULT_RETRY, maxRetries: 0 },
    protocol: "xml",
    toolbox: createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode(options.mode ?? "code")!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: { groups: new Set(["read", "edit"]), outsideWorkspace: false },
      cwd,
      fs: new NodeFileSystem(),
      os: "Linux",
      requireTodosDone: options.requireTodosDone,
    }),
  });
  task.onDidChange((e) => events.push(e));
  return { task, events, cwd };
}

const xml = (name: string, params: Record<string, string> = {}) => ({
  text: `<${name}>\n${Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("\n")}\n</${name}>`,
});
const complete = (result = "Done.") => xml("attempt_completion", { result });
const systemOf = (r: RecordedRequest) => String((r.body.messages as { content: string }[])[0]!.content);
const sentTo = (r: RecordedRequest) => JSON.stringify(r.body.messages);

describe("switch_mode", () => {
  it("moves an ask-mode task into code mode, whose tools then work", async () => {
    const { task, cwd } = makeTask({ mode: "ask" });
    const before = server.requests.length;
    server.enqueue(xml("switch_mode", { mode_slug: "code", reason: "to write the file" }), xml("write_to_file", { path: "a.txt", content: "hi" }), complete());
    await task.send("write a.txt");
    expect(task.status).toBe("completed");
    const [first, second] = server.requests.slice(before);
    expect(systemOf(first!)).toContain("Mode: ask");
    expect(systemOf(first!)).not.toContain("## write_to_file");
    expect(systemOf(second!)).toContain("Mode: code");
    expect(systemOf(second!)).toContain("## write_to_file");
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hi\n");
  });

  it("names the modes when asked for one that does not exist", async () => {
    const { task } = makeTask();
    const before = server.requests.length;
    server.enqueue(xml("switch_mode", { mode_slug: "wizard" }), complete());
    await task.send("switch");
    expect(sentTo(server.requests[before + 1]!)).toContain('there is no mode \\"wizard\\". Modes: code, architect, ask, debug, orchestrator');
  });
});

describe("update_todo_list", () => {
  it("keeps the checklist on the task, and completion waits for open items when the setting asks", async () => {
    const { task, events } = makeTask({ requireTodosDone: true });
    const before = server.requests.length;
    server.enqueue(
      xml("update_todo_list", { todos: "- [x] read the code\n- [-] write the test\n- [ ] run it" }),
      complete("too early"),
      xml("update_todo_list", { todos: "- [x] read the code\n- [x] write the test\n- [x] run it" }),
      complete("all done"),
    );
    await task.send("work");
    expect(events.find((e) => e.type === "todos")).toEqual({
      type: "todos",
      todos: [
        { text: "read the code", status: "completed" },
        { text: "write the test", status: "in_progress" },
        { text: "run it", status: "pending" },
      ],
    });
    expect(sentTo(server.requests[before + 2]!)).toContain("2 todo item(s) are still open (write the test; run it)");
    expect(task.status).toBe("completed");
    expect(task.snapshot().at(-1)).toMatchObject({ role: "completion", result: "all done" });
  });

  it("refuses a list that is not a checklist, saying the format", async () => {
    const { task } = makeTask();
    const before = server.requests.length;
    server.enqueue(xml("update_todo_list", { todos: "1. do this\n2. do that" }), complete());
    await task.send("plan");
    expect(sentTo(server.requests[before + 1]!)).toContain("is not a checklist item");
  });
});

describe("new_task", () => {
  it("runs a subtask in its mode; the parent waits and gets its result", async () => {
    const { task, cwd } = makeTask({ mode: "orchestrator" });
    const before = server.requests.length;
    server.enqueue(
      xml("new_task", { mode: "code", message: "Create notes.md saying hello." }),
      xml("write_to_file", { path: "notes.md", content: "hello" }),
      complete("notes.md created"),
      complete("The subtask made notes.md."),
    );
    await task.send("make notes");
    expect(task.status).toBe("completed");
    expect(readFileSync(join(cwd, "notes.md"), "utf8")).toBe("hello\n");
    const [parentFirst, child1, child2, parentAgain] = server.requests.slice(before);
    expect(systemOf(parentFirst!)).toContain("Mode: orchestrator");
    expect(systemOf(child1!)).toContain("Mode: code");
    // The subtask calls tools the parent's way (this task's protocol is XML): no native tools are offered to either.
    expect([parentFirst, child1, child2].map((r) => r!.body.tools)).toEqual([undefined, undefined, undefined]);
    expect(systemOf(child1!)).toContain("<write_to_file>");
    // The subtask starts clean: it sees its instructions, not the parent's conversation.
    expect((child1!.body.messages as unknown[]).slice(1)).toEqual([{ role: "user", content: "Create notes.md saying hello." }]);
    expect(sentTo(child2!)).toContain("Created notes.md");
    expect(sentTo(parentAgain!)).toContain("The subtask (Code mode) completed with this result:\\nnotes.md created");
    // One chat shows both, and the subtask's items keep ids of their own.
    const items = task.snapshot();
    expect(items.map((i) => i.role)).toContain("completion");
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(items.some((i) => i.role === "user" && i.text === "Create notes.md saying hello.")).toBe(true);
  });

  it("a question from the subtask is answered by the user's next message, then both go on", async () => {
    const { task } = makeTask({ mode: "orchestrator" });
    const before = server.requests.length;
    server.enqueue(
      xml("new_task", { mode: "ask", message: "Find out the user's name." }),
      xml("ask_followup_question", { question: "What is your name?" }),
      complete("The name is Ada."),
      complete("Greeted Ada."),
    );
    const running = task.send("greet the user");
    await new Promise<void>((resolve) => {
      const check = () => (task.acceptsInput && task.snapshot().some((i) => i.role === "question") ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(task.busy).toBe(true);
    await task.send("Ada");
    await running;
    expect(task.status).toBe("completed");
    expect(sentTo(server.requests[before + 2]!)).toContain("<answer>\\nAda\\n</answer>");
    expect(sentTo(server.requests[before + 3]!)).toContain("The name is Ada.");
  });

  it("cancel stops the subtask and the parent", async () => {
    const { task, cwd } = makeTask({ mode: "orchestrator" });
    server.enqueue(xml("new_task", { mode: "code", message: "slow work" }), {
      text: `thinking ${"more ".repeat(300)}<write_to_file><path>late.txt</path><content>x</content></write_to_file>`,
      chunkDelayMs: 5,
    });
    const running = task.send("go");
    setTimeout(() => task.cancel(), 300);
    await running;
    expect(task.status).toBe("stopped");
    expect(task.busy).toBe(false);
    expect(existsSync(join(cwd, "late.txt"))).toBe(false);
  });
});

describe("condense", () => {
  it("replaces the older conversation with a summary in later requests, keeping the first message", async () => {
    const { task, cwd } = makeTask();
    writeFileSync(join(cwd, "big.txt"), "x".repeat(5000));
    const before = server.requests.length;
    server.enqueue(
      xml("read_file", { path: "big.txt" }),
      xml("condense", { context: "the file is all x" }),
      { text: "Summary: the user asked to look at big.txt; it holds 5000 x characters." },
      complete(),
    );
    await task.send("look at big.txt");
    expect(task.status).toBe("completed");
    const [, , summaryRequest, after] = server.requests.slice(before);
    expect(systemOf(summaryRequest!)).toContain("You summarise a coding agent's conversation");
    expect(sentTo(summaryRequest!)).toContain("Make sure to keep: the file is all x");
    const messages = after!.body.messages as { role: string; content: string }[];
    expect(messages[1]!.content).toContain("look at big.txt");
    expect(messages[1]!.content).toContain("<conversation_summary>\nSummary: the user asked to look at big.txt");
    expect(sentTo(after!)).not.toContain("x".repeat(1000));
    expect(messages[2]!.content).toContain("<condense>");
    // The full history is kept, only hidden from the model.
    expect(JSON.stringify(task.apiHistory())).toContain("x".repeat(1000));
  });
});

describe("run_slash_command and report_bug", () => {
  it("hands the model a workflow with its arguments, and lists the commands when one is missing", async () => {
    const { task, cwd } = makeTask();
    mkdirSync(join(cwd, ".kilocode", "commands"), { recursive: true });
    writeFileSync(join(cwd, ".kilocode", "commands", "review.md"), "---\ndescription: Review a file\n---\nReview $ARGUMENTS for bugs, then list them.\n");
    const before = server.requests.length;
    server.enqueue(xml("run_slash_command", { command: "review", args: "src/a.ts" }), xml("run_slash_command", { command: "deploy" }), complete());
    await task.send("/review src/a.ts");
    expect(sentTo(server.requests[before + 1]!)).toContain("<workflow>\\nReview src/a.ts for bugs, then list them.\\n</workflow>");
    expect(sentTo(server.requests[before + 1]!)).not.toContain("description: Review a file");
    expect(sentTo(server.requests[before + 2]!)).toContain("there is no command /deploy. Commands: /review.");
  });

  it("prepares a bug report and sends nothing", async () => {
    const { task } = makeTask();
    const before = server.requests.length;
    server.enqueue(xml("report_bug", { title: "Diff view flickers", description: "Steps: open a diff." }), complete());
    await task.send("report it");
    expect(server.requests.length - before).toBe(2);
    const card = task.snapshot().find((i) => i.role === "tool" && i.name === "report_bug");
    expect(card).toMatchObject({ status: "done", result: expect.stringContaining("## Diff view flickers\n\nSteps: open a diff.") });
  });
});
