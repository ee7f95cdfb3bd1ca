import { beforeAll, describe, expect, it } from "vitest";
import { CONDENSE_INSTRUCTIONS } from "../../../src/core/agent/condense";
import { ContextGuard } from "../../../src/core/agent/contextGuard";
import { Conversation } from "../../../src/core/agent/Conversation";
import { TaskRuntime } from "../../../src/core/agent/taskRuntime";
import { BUILTIN_MODES } from "../../../src/core/modes/modes";
import { Task } from "../../../src/core/agent/Task";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../../../src/core/context/settings";
import { countTokens, loadTokenizer, messageTokens } from "../../../src/core/context/tokens";
import type { LlmMessage } from "../../../src/core/llm/types";
import { scriptedModel } from "../../fixtures/scriptedModel";
import { silentLogger } from "../../fixtures/silentLogger";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import type { Toolbox } from "../../../src/core/agent/toolbox";

beforeAll(loadTokenizer);

/** A model that answers each request with the next reply and reports the usage given. */
const fakeModel = (replies: string[], usage = { inputTokens: 100, outputTokens: 10 }) => scriptedModel(replies, { fallback: "Done.", usage });

const RESULT = "lorem ipsum dolor sit amet ".repeat(80);

/** The task, then `pairs` native read_file calls, each with its result (about 560 tokens, 2,168 characters). */
function fill(conversation: Conversation, pairs: number): Conversation {
  conversation.addUserText("THE TASK: read every file");
  for (let i = 0; i < pairs; i++) {
    const call: ToolUseBlock = { type: "tool_use", name: "read_file", params: {}, partial: false, id: `t${i}`, input: { path: `f${i}.txt` } };
    conversation.addAssistant("", [call], () => `x${i}`);
    conversation.addResults([{ type: "tool_result", toolUseId: `t${i}`, content: `file ${i}: ${RESULT}` }], [], [], true);
  }
  return conversation;
}

function setup(pairs: number, settings: Partial<ContextSettings>, window = 4_000, replies: string[] = [], toolbox?: Toolbox) {
  const model = fakeModel(replies);
  const current: ContextSettings = { ...DEFAULT_CONTEXT_SETTINGS, budget: {}, ...settings };
  const task = new TaskRuntime({
    getProvider: async () => model.provider,
    logger: silentLogger,
    toolbox,
    systemPrompt: "You are a test.",
    modelOverrides: () => ({ contextWindow: window, maxOutputTokens: 400, inputPrice: 1, outputPrice: 2 }),
    context: { settings: () => current },
  });
  const { log, usage } = task;
  const conversation = fill(task.conversation, pairs);
  const guard = new ContextGuard(task);
  return { guard, conversation, model, log, usage, current };
}

const size = (messages: LlmMessage[]) => messages.reduce((sum, m) => sum + messageTokens(m), 0) + countTokens("You are a test.");
const signal = () => new AbortController().signal;

/** Every tool_result in the messages answers a tool_use of the message just before it. */
function pairsIntact(messages: LlmMessage[]): boolean {
  return messages.every((m, i) => {
    if (typeof m.content === "string") return true;
    const previous = messages[i - 1]?.content;
    const uses = typeof previous === "string" || !previous ? [] : previous.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    return m.content.every((b) => b.type !== "tool_result" || uses.includes(b.toolUseId));
  });
}

describe("the context guard before a request", () => {
  it("leaves a conversation that fits alone", async () => {
    const { guard, conversation, model, log } = setup(3, {});
    const before = conversation.apiView();
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    expect(guard.view()).toEqual(before);
    expect(model.requests).toHaveLength(0);
    expect(log.snapshot()).toHaveLength(0);
  });

  it("condenses when over the window: one summary request, the task and the latest exchanges kept", async () => {
    const { guard, conversation, model, log } = setup(16, { condensePrompt: "Summarise as a bullet list." }, 4_000, ["- read files 0 to 13"]);
    expect(size(conversation.apiView())).toBeGreaterThan(4_000 * 0.9 - 400);
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.system).toBe("Summarise as a bullet list.");
    const view = guard.view();
    expect(view[0]!.content).toContain("THE TASK: read every file");
    expect(view[0]!.content).toContain("<conversation_summary>\n- read files 0 to 13\n</conversation_summary>");
    // The last two exchanges stay as they were, each call with its result.
    expect(view).toHaveLength(5);
    expect(JSON.stringify(view)).toContain("file 15:");
    expect(JSON.stringify(view)).not.toContain("file 13:");
    expect(pairsIntact(view)).toBe(true);
    // Nothing is deleted, and the chat shows the condense with its summary.
    expect(conversation.all()).toHaveLength(33);
    expect(log.snapshot()).toEqual([expect.objectContaining({ role: "tool", name: "condense", status: "done", result: expect.stringContaining("- read files 0 to 13") })]);
  });

  it("stops with a message, and sends no second summary, when condensing does not shrink enough", async () => {
    const { guard, model, log } = setup(16, {}, 4_000, [`A summary as long as the conversation. ${RESULT.repeat(12)}`]);
    const stop = await guard.beforeRequest(signal());
    expect(stop?.reason).toMatch(/^Condensing shrank the conversation from about [\d,]+ to [\d,]+ tokens, still over the [\d,]+ it must fit under, so Kiln stopped rather than condense again/);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.system).toBe(CONDENSE_INSTRUCTIONS);
    expect(log.snapshot().at(-1)).toMatchObject({ role: "error", error: { message: stop!.reason } });
  });

  it("with condensing off, hides the oldest whole exchanges, keeping the task; hidden is saved, never deleted", async () => {
    const { guard, conversation, model } = setup(16, { autoCondensePercent: 0 });
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    const view = guard.view();
    expect(view[0]!.content).toBe("THE TASK: read every file");
    expect(view.length).toBeLessThan(33);
    expect(size(view)).toBeLessThanOrEqual(4_000 * 0.9 - 400);
    expect(view.slice(1).map((m) => m.role)).toEqual(view.slice(1).map((_, i) => (i % 2 === 0 ? "assistant" : "user")));
    expect(pairsIntact(view)).toBe(true);
    expect(JSON.stringify(view)).toContain("file 15:");
    expect(conversation.all()).toHaveLength(33);
    const saved = conversation.save();
    expect(saved.hidden).toBe(33 - view.length);
    expect(Conversation.restore(saved).apiView()).toEqual(view);
  });

  it("keeps each request under the per-request input limit (a price step) by hiding old turns", async () => {
    const { guard } = setup(8, { autoCondensePercent: 0, budget: { maxInputPerRequest: 1_500 } }, 100_000);
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    expect(size(guard.view())).toBeLessThanOrEqual(1_500);
    expect(pairsIntact(guard.view())).toBe(true);
  });

  it("stops before a request that could cross the token budget, says why, and goes on once it is raised", async () => {
    const { guard, usage, log, current, model } = setup(2, { budget: { maxTokens: 2_000 } });
    usage.add({ inputTokens: 1_000, outputTokens: 200 }, 0.0014);
    const stop = await guard.beforeRequest(signal());
    expect(stop?.reason).toMatch(/^The task has used 1,200 tokens; the next request could take up to [\d,]+ more, over its budget of 2,000\. Raise the budget to go on\.$/);
    expect(log.snapshot().at(-1)).toMatchObject({ role: "error", error: { kind: "budget", limit: "maxTokens", retryable: false } });
    expect(model.requests).toHaveLength(0);
    current.budget = { maxTokens: 20_000 };
    expect(await guard.beforeRequest(signal())).toBeUndefined();
  });

  it("stops before crossing the cost budget, priced from the model's input and output prices", async () => {
    const { guard, usage } = setup(2, { budget: { maxCost: 0.002 } });
    usage.add({ inputTokens: 1_000, outputTokens: 0 }, 0.001);
    // About 800 input tokens at $1/M and 400 output at $2/M could add $0.0016.
    const stop = await guard.beforeRequest(signal());
    expect(stop?.reason).toMatch(/^The task has cost \$0\.0010; the next request could cost up to \$0\.00\d\d, over its budget of \$0\.0020/);
  });

  it("corrects the tokenizer by what the provider reported for the last request", async () => {
    const { guard, log, conversation, model } = setup(5, {}, 4_000, ["summary"]);
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    // The provider counted twice the tokens: the same conversation now counts as too big.
    log.fire({
      type: "usage",
      request: { inputTokens: 2 * size(conversation.apiView()), outputTokens: 10 },
      cost: undefined,
      total: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      totalCost: undefined,
    });
    await guard.beforeRequest(signal());
    expect(model.requests).toHaveLength(1);
  });

  it("sends old large results as a note naming the file with the full text, after N newer ones", async () => {
    const saved: string[] = [];
    const toolbox = {
      startMode: BUILTIN_MODES[0],
      modes: BUILTIN_MODES,
      systemPrompt: () => "You are a test.",
      nativeTools: () => [],
      saveOverflow: async (name: string, text: string) => `/tasks/1/${name}-${saved.push(text)}.txt`,
    } as unknown as Toolbox;
    const { guard, conversation } = setup(4, { shortenResultsAfter: 2 }, 100_000, [], toolbox);
    expect(await guard.beforeRequest(signal())).toBeUndefined();
    const sent = JSON.stringify(guard.view());
    expect(sent).toContain("[This read_file result (2,168 characters) was shortened after 2 newer tool results. The full text is in /tasks/1/read_file-1.txt; read that file if you need it again.]");
    expect(sent).toContain("/tasks/1/read_file-2.txt");
    expect(sent).not.toContain("file 1: lorem");
    expect(sent).toContain("file 2: lorem");
    expect(pairsIntact(guard.view())).toBe(true);
    expect(saved).toEqual([`file 0: ${RESULT}`, `file 1: ${RESULT}`]);
    // The conversation keeps the full text, and each result is saved once.
    expect(JSON.stringify(conversation.all())).toContain("file 0: lorem");
    await guard.beforeRequest(signal());
    expect(saved).toHaveLength(2);
  });
});

describe("a budget stop in a task", () => {
  it("stops before the request with status stopped, and Resume goes on after the budget is raised", async () => {
    const model = fakeModel(["First answer.", "Second answer."], { inputTokens: 500, outputTokens: 100 });
    const settings: ContextSettings = { ...DEFAULT_CONTEXT_SETTINGS, budget: { maxTokens: 1_000 } };
    const task = new Task({
      getProvider: async () => model.provider,
      logger: silentLogger,
      modelOverrides: () => ({ contextWindow: 100_000, maxOutputTokens: 500 }),
      context: { settings: () => settings },
    });
    await task.send("hello");
    expect(task.status).toBe("idle");
    await task.send("and again");
    expect(task.status).toBe("stopped");
    expect(model.requests).toHaveLength(1);
    expect(task.snapshot().at(-1)).toMatchObject({ role: "error", error: { kind: "budget", limit: "maxTokens", message: expect.stringContaining("over its budget of 1,000") } });
    settings.budget = { maxTokens: 10_000 };
    await task.resume();
    expect(task.status).toBe("idle");
    expect(model.requests).toHaveLength(2);
    task.dispose();
  });
});
