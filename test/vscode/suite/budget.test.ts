import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { appendedErrors, COMPLETE, exchange, kiln, setKiln, toolCards, undoBoth, useFakeModel, waitFor } from "./helpers";

describe("budgets and condensing in VS Code", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());

  it("kiln.budget.maxTokens stops the task before the request, Raise budget opens the setting, Resume goes on once raised", async () => {
    const api = await kiln();
    const undo = undoBoth(await useFakeModel(server), await setKiln({ "budget.maxTokens": 12_000, "provider.modelInfo": { contextWindow: 100_000, maxOutputTokens: 1_000 } }));
    try {
      api.sidebar.receive({ type: "chat/newTask" });
      server.enqueue({ text: `First.\n${COMPLETE}`, usage: { input: 6_000, output: 3_000 } });
      await exchange(api.sidebar, { type: "chat/send", text: "one" });
      const sent = server.requests.length;
      const stopped = await exchange(api.sidebar, { type: "chat/send", text: "two" });
      assert.equal(server.requests.length, sent, "the request that would cross the budget is not sent");
      const [stop] = appendedErrors(stopped);
      assert.equal(stop?.kind, "budget");
      assert.equal(stop?.limit, "maxTokens");
      assert.match(stop!.message, /The task has used 9,000 tokens; the next request could take up to [\d,]+ more, over its budget of 12,000/);
      assert.ok(stopped.some((m) => m.type === "chat/task" && m.task.status === "stopped"));

      api.sidebar.receive({ type: "chat/raiseBudget", limit: "maxTokens" });
      await waitFor("the settings editor", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes("Settings"));
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");

      await setKiln({ "budget.maxTokens": 100_000 });
      server.enqueue({ text: `Second.\n${COMPLETE}` });
      const resumed = await exchange(api.sidebar, { type: "chat/resume" });
      assert.equal(server.requests.length, sent + 1);
      assert.ok(resumed.some((m) => m.type === "chat/task" && m.task.status === "completed"));
    } finally {
      await undo();
    }
  });

  it("the Condense button summarises the conversation, and the next request carries the summary", async () => {
    const api = await kiln();
    const undo = await useFakeModel(server);
    try {
      api.sidebar.receive({ type: "chat/newTask" });
      server.enqueue({ text: `Looked at OLD-DETAIL-1.\n${COMPLETE}` }, { text: `Looked at OLD-DETAIL-2.\n${COMPLETE}` });
      await exchange(api.sidebar, { type: "chat/send", text: "look at one" });
      await exchange(api.sidebar, { type: "chat/send", text: "look at two" });
      server.enqueue({ text: "SUMMARY: two lookups so far." });
      const condensed = await exchange(api.sidebar, { type: "chat/condense" });
      const card = toolCards(condensed).find((c) => c.name === "condense");
      assert.equal(card?.status, "done");
      assert.match(card!.result ?? "", /SUMMARY: two lookups so far\./);
      server.enqueue({ text: `Done.\n${COMPLETE}` });
      await exchange(api.sidebar, { type: "chat/send", text: "three" });
      const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
      assert.match(sent, /<conversation_summary>\\nSUMMARY: two lookups so far\.\\n<\/conversation_summary>/);
      assert.doesNotMatch(sent, /OLD-DETAIL-1/);
    } finally {
      await undo();
    }
  });

  it("a profile's own auto-condense threshold applies while the profile is in use", async () => {
    const api = await kiln();
    const tight = {
      name: "Tight",
      kind: "openai-compatible",
      baseUrl: server.openaiBaseUrl,
      model: "fake-model",
      modelInfo: { contextWindow: 100_000, maxOutputTokens: 1_000 },
      autoCondensePercent: 1,
    };
    const undo = undoBoth(await useFakeModel(server), await setKiln({ profiles: [tight], activeProfile: "Tight" }));
    try {
      api.sidebar.receive({ type: "chat/newTask" });
      // The window is large: only the profile's 1% can make Kiln condense this short a task.
      server.enqueue({ text: `One.\n${COMPLETE}` }, { text: `Two.\n${COMPLETE}` });
      await exchange(api.sidebar, { type: "chat/send", text: "first" });
      await exchange(api.sidebar, { type: "chat/send", text: "second" });
      const before = server.requests.length;
      server.enqueue({ text: "SUMMARY: condensed at the profile's threshold." });
      const third = await exchange(api.sidebar, { type: "chat/send", text: "third" });
      const messages = server.requests[before]!.body.messages as { content: unknown }[];
      assert.match(String(messages[0]?.content), /^You summarise a coding agent's conversation/);
      const card = toolCards(third).find((c) => c.name === "condense");
      assert.match(card?.result ?? "", /SUMMARY: condensed at the profile's threshold\./);
    } finally {
      server.clearQueue();
      await undo();
      api.sidebar.receive({ type: "chat/newTask" });
    }
  });
});
