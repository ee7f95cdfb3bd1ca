import * as assert from "node:assert/strict";
import { join } from "node:path";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import type { McpRequestItem } from "../../../src/shared/protocol/mcpRequests";
import { FakeModelServer, type ScriptedTurn } from "../../fixtures/fakeModelServer";
import { allowMcpServer, chatItems, COMPLETE, kiln, promptOf, removeMcpConfig, startTurn, toolCards, useFakeModel, waitFor, writeMcpConfig, xmlCall } from "./helpers";

// The suite runs from out/test/vscode: the repository, with its node_modules, is three folders up.
const EVERYTHING = join(__dirname, "..", "..", "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

function requestCards(posted: readonly HostToWebview[]): McpRequestItem[] {
  return chatItems(posted).filter((i): i is McpRequestItem => i.role === "mcpRequest");
}

/**
 * The model calls one of server-everything's tools (then `after`), the user approves the card, and
 * the server's request shows: resolves with the turn and that request's card.
 */
async function untilRequest(tool: string, args: Record<string, unknown>, ...after: ScriptedTurn[]) {
  const api = await kiln();
  server.enqueue(xmlCall("use_mcp_tool", { server_name: "everything", tool_name: tool, arguments: JSON.stringify(args) }), ...after);
  const turn = startTurn(api.sidebar, `Use ${tool}`);
  turn.answer((await turn.card()).id, true);
  const card = await waitFor(`the request of ${tool}`, () => requestCards(turn.posted).find((c) => c.status === "waiting"));
  const status = () => requestCards(turn.posted).find((c) => c.id === card.id)?.status;
  return { api, turn, card, status };
}

let server: FakeModelServer;

describe("MCP sampling, forms and progress in the real host", () => {
  let restore: () => Promise<void>;

  before(async () => {
    server = await new FakeModelServer().start();
    writeMcpConfig(JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));
    const api = await kiln();
    await api.mcp.reload();
    await allowMcpServer("everything");
    // The sampling tool is listed only when Kiln declared sampling: proof the host answers it.
    await waitFor("server-everything with its sampling tool", () => api.mcp.hub.servers().find((s) => s.name === "everything" && s.tools.some((t) => t.name === "trigger-sampling-request")), 45_000);
  });
  after(async () => {
    await removeMcpConfig();
    await server.close();
  });
  beforeEach(async () => {
    restore = await useFakeModel(server);
    (await kiln()).sidebar.newTask();
  });
  afterEach(() => restore());

  it("a sampling request shows its prompt in the chat; approved, the chat's model answers it and the tool result carries the answer", async () => {
    const { api, turn, card, status } = await untilRequest("trigger-sampling-request", { prompt: "Name a colour", maxTokens: 40 }, { text: "Vermilion, the colour of kilns." }, { text: COMPLETE });
    assert.equal(card.server, "everything");
    assert.deepEqual(card.request, {
      kind: "sampling",
      systemPrompt: "You are a helpful test server.",
      messages: [{ role: "user", text: "Resource trigger-sampling-request context: Name a colour" }],
      maxTokens: 40,
    });
    api.sidebar.receive({ type: "chat/mcpAnswer", id: card.id, answer: { kind: "sampling", approved: true } });
    await turn.done;

    // The fake model got the server's own prompt, system prompt and token cap.
    const sampled = server.requests.find((r) => promptOf(r).all.includes("Resource trigger-sampling-request context: Name a colour"));
    assert.ok(sampled, "the model was asked the server's prompt");
    assert.equal(promptOf(sampled).system, "You are a helpful test server.");
    assert.equal(sampled.body.max_completion_tokens, 40);
    assert.match(promptOf(server.requests.at(-1)!).all, /LLM sampling result:[\s\S]*Vermilion, the colour of kilns\./);
    assert.equal(status(), "answered");
    assert.equal(requestCards(turn.posted).find((c) => c.id === card.id)?.result, "Vermilion, the colour of kilns.");
  });

  it("a rejected sampling request never reaches the model, and cancelling the task declines one still waiting", async () => {
    const first = await untilRequest("trigger-sampling-request", { prompt: "Secret plans" }, { text: COMPLETE });
    first.api.sidebar.receive({ type: "chat/mcpAnswer", id: first.card.id, answer: { kind: "sampling", approved: false } });
    await first.turn.done;
    assert.ok(!server.requests.some((r) => promptOf(r).all.includes("context: Secret plans")), "the declined prompt went to no model");
    assert.match(promptOf(server.requests.at(-1)!).all, /declined the sampling request/);
    assert.equal(toolCards(first.turn.posted)[0]?.status, "error");

    first.api.sidebar.newTask();
    const second = await untilRequest("trigger-sampling-request", { prompt: "Never mind" });
    second.api.sidebar.receive({ type: "chat/cancel" });
    await second.turn.done;
    assert.equal(second.status(), "declined");
  });

  it("a form is filled in from the chat: the host refuses values the form does not allow, and the tool result shows the submitted ones", async () => {
    const { api, turn, card, status } = await untilRequest("trigger-elicitation-request", {}, { text: COMPLETE });
    assert.equal(card.request.kind, "elicitation");
    assert.equal(card.request.kind === "elicitation" && card.request.message, "Please provide inputs for the following fields:");
    const name = card.request.kind === "elicitation" ? card.request.fields.find((f) => f.name === "name") : undefined;
    assert.deepEqual(name && [name.kind, name.required], ["text", true]);

    // 500 is past the integer field's maximum of 100: the host says why and keeps the form waiting.
    const logged: string[] = [];
    const logs = api.onDidLog((line) => logged.push(line));
    api.sidebar.receive({ type: "chat/mcpAnswer", id: card.id, answer: { kind: "elicitation", action: "accept", content: { name: "Ada Lovelace", integer: 500 } } });
    await waitFor("the refusal in the log", () => logged.find((l) => l.includes(`MCP answer for ${card.id} ignored`)));
    logs.dispose();
    assert.match(logged.join("\n"), /"Integer" must be at most 100/);
    assert.equal(status(), "waiting");
    api.sidebar.receive({ type: "chat/mcpAnswer", id: card.id, answer: { kind: "elicitation", action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7 } } });
    await turn.done;
    const result = promptOf(server.requests.at(-1)!).all;
    assert.match(result, /- Name: Ada Lovelace/);
    assert.match(result, /- Favorite Integer: 7/);
    assert.equal(status(), "answered");
  });

  it("a declined form tells the tool the user declined", async () => {
    const { api, turn, card, status } = await untilRequest("trigger-elicitation-request", {}, { text: COMPLETE });
    api.sidebar.receive({ type: "chat/mcpAnswer", id: card.id, answer: { kind: "elicitation", action: "decline" } });
    await turn.done;
    assert.match(promptOf(server.requests.at(-1)!).all, /User declined to provide the requested information/);
    assert.equal(status(), "declined");
  });

  it("a long operation's progress shows on its tool card while it runs", async () => {
    const api = await kiln();
    server.enqueue(xmlCall("use_mcp_tool", { server_name: "everything", tool_name: "trigger-long-running-operation", arguments: '{"duration": 1, "steps": 4}' }), { text: COMPLETE });
    const turn = startTurn(api.sidebar, "Run the long operation");
    turn.answer((await turn.card()).id, true);
    const withProgress = await waitFor("progress on the card", () => toolCards(turn.posted).find((c) => c.status === "running" && c.progress));
    assert.match(withProgress.progress!, /^[1-4]\/4$/);
    await turn.done;
    const finished = toolCards(turn.posted)[0]!;
    assert.equal(finished.status, "done");
    assert.equal(finished.progress, undefined);
    assert.match(finished.result ?? "", /Long running operation completed/);
  });
});
