import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { configure, kiln, waitFor } from "./helpers";

const WRITE = "<write_to_file>\n<path>queued.txt</path>\n<content>\nx\n</content>\n<line_count>1</line_count>\n</write_to_file>";
const complete = (result: string) => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;

/** Everything the model has been sent so far, as text. */
function sentSoFar(server: FakeModelServer): string {
  return JSON.stringify(server.requests.map((r) => r.body.messages));
}

function lastQueue(posted: HostToWebview[]) {
  return posted.flatMap((m) => (m.type === "chat/queue" ? [m] : [])).at(-1);
}

function waitingCard(posted: HostToWebview[]) {
  return posted.flatMap((m) => (m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.status === "waiting" && m.item.approval ? [m.item] : [])).at(-1);
}

describe("messages typed while the task is busy are queued", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(async () => {
    await vscode.workspace.getConfiguration("kiln").update("autoApprove", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("a message sent while a card waits is queued, then goes to the model when the task is ready for it", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await vscode.workspace.getConfiguration("kiln").update("autoApprove", ["read"], vscode.ConfigurationTarget.Global);
    api.sidebar.newTask();
    server.enqueue({ text: WRITE }, { text: complete("Wrote queued.txt.") }, { text: complete("Handled the follow-up.") });
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      api.sidebar.receive({ type: "chat/send", text: "Write queued.txt" });
      const card = await waitFor("the write's approval card", () => waitingCard(posted));
      api.sidebar.receive({ type: "chat/send", text: "Then mention it in the README" });
      assert.deepEqual(lastQueue(posted), { type: "chat/queue", messages: ["Then mention it in the README"], paused: false });
      assert.doesNotMatch(sentSoFar(server), /mention it in the README/, "the queued message waits while the card does");

      api.sidebar.receive({ type: "chat/approval", id: card.id, approved: true });
      await waitFor("the queued message at the model", () => /Then mention it in the README/.test(sentSoFar(server)) || undefined);
      await waitFor(
        "the follow-up's completion",
        () => posted.some((m) => m.type === "chat/appended" && m.item.role === "completion" && m.item.result.includes("Handled the follow-up.")) || undefined,
      );
      assert.deepEqual(lastQueue(posted)?.messages, []);
      // It reached the chat as the user's message, after the first completion.
      const users = posted.flatMap((m) => (m.type === "chat/appended" && m.item.role === "user" ? [m.item.text] : []));
      assert.deepEqual(users, ["Write queued.txt", "Then mention it in the README"]);
    } finally {
      listener.dispose();
    }
  });

  it("after Stop the queue waits: a removed message never goes, Send now sends the other", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await vscode.workspace.getConfiguration("kiln").update("autoApprove", ["read"], vscode.ConfigurationTarget.Global);
    api.sidebar.newTask();
    server.enqueue({ text: WRITE }, { text: complete("Answered the kept one.") });
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      api.sidebar.receive({ type: "chat/send", text: "Write queued.txt" });
      await waitFor("the write's approval card", () => waitingCard(posted));
      api.sidebar.receive({ type: "chat/send", text: "queued one: keep" });
      api.sidebar.receive({ type: "chat/send", text: "queued two: drop" });
      const stoppedAt = posted.length;
      api.sidebar.receive({ type: "chat/cancel" });
      await waitFor("the task to stop", () => posted.slice(stoppedAt).some((m) => m.type === "chat/busy" && !m.busy) || undefined);
      assert.deepEqual(lastQueue(posted), { type: "chat/queue", messages: ["queued one: keep", "queued two: drop"], paused: true });

      api.sidebar.receive({ type: "chat/unqueue", index: 1, send: false });
      await waitFor("the removal", () => (lastQueue(posted)?.messages.length === 1 ? true : undefined));
      assert.doesNotMatch(sentSoFar(server), /queued one|queued two/, "Stop kept the queue from sending on its own");

      api.sidebar.receive({ type: "chat/unqueue", index: 0, send: true });
      await waitFor("the kept message at the model", () => /queued one: keep/.test(sentSoFar(server)) || undefined);
      assert.deepEqual(lastQueue(posted), { type: "chat/queue", messages: [], paused: false });
      assert.doesNotMatch(sentSoFar(server), /queued two: drop/);
    } finally {
      listener.dispose();
    }
  });

  it("refuses a malformed unqueue, and a new task drops the queue", async () => {
    const api = await kiln();
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      api.sidebar.receive({ type: "chat/unqueue", index: -1, send: true });
      api.sidebar.receive({ type: "chat/unqueue", index: "0", send: true });
      // A valid unqueue always answers with the queue; these were dropped before reaching the session.
      assert.equal(lastQueue(posted), undefined);
      api.sidebar.newTask();
      assert.deepEqual(lastQueue(posted), { type: "chat/queue", messages: [], paused: false });
    } finally {
      listener.dispose();
    }
  });
});

describe("images sent from the chat input", () => {
  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  let server: FakeModelServer;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(async () => {
    await vscode.workspace.getConfiguration("kiln.provider").update("modelInfo", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("the chat is told the model takes images, and a pasted image reaches it; a malformed one is dropped", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl, "fake-vision");
    await vscode.workspace.getConfiguration("kiln.provider").update("modelInfo", { supportsImages: true }, vscode.ConfigurationTarget.Global);
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      api.sidebar.newTask();
      const snapshot = posted.find((m) => m.type === "chat/snapshot");
      assert.equal(snapshot?.type === "chat/snapshot" && snapshot.provider.images, true);

      api.sidebar.receive({ type: "chat/send", text: "look", images: [{ mediaType: "image/svg+xml", data: PNG }] });
      api.sidebar.receive({ type: "chat/send", text: "look", images: [{ mediaType: "image/png", data: "not base64!" }] });
      const before = server.requests.length;
      server.enqueue({ text: complete("A pixel.") });
      api.sidebar.receive({ type: "chat/send", text: "What is this?", images: [{ mediaType: "image/png", data: PNG }] });
      await waitFor("the request with the image", () => server.requests[before]);
      assert.equal(server.requests.length, before + 1, "the two malformed messages never reached the model");
      const user = JSON.stringify((server.requests[before]!.body.messages as unknown[]).at(-1));
      assert.match(user, new RegExp(`data:image/png;base64,${PNG.replace(/[+/]/g, "\\$&")}`));
    } finally {
      listener.dispose();
      api.sidebar.newTask();
    }
  });
});
