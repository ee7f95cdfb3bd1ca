import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatItem } from "../../../src/shared/protocol/chat";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { FakeModelServer, type ScriptedTurn } from "../../fixtures/fakeModelServer";
import { configure, exchange, kiln, waitFor } from "./helpers";

type Call = { name: string; args: Record<string, string | number | boolean> };

function step(protocol: "xml" | "native", call: Call): ScriptedTurn {
  if (protocol === "native") return { toolCalls: [{ name: call.name, arguments: call.args }] };
  const params = Object.entries(call.args).map(([k, v]) => `<${k}>${String(v)}</${k}>`);
  return { text: `Next step.\n<${call.name}>\n${params.join("\n")}\n</${call.name}>` };
}

/** The chat items as the webview ends up with them, rebuilt from what the host posted. */
function items(posted: HostToWebview[]): ChatItem[] {
  const out = new Map<string, ChatItem>();
  for (const m of posted) {
    if (m.type === "chat/appended" || m.type === "chat/itemChanged") out.set(m.item.id, m.item);
    if (m.type === "chat/itemRemoved") out.delete(m.id);
  }
  return [...out.values()];
}

async function settings(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration("kiln");
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

describe("the sidebar runs the agent loop in the workspace", () => {
  let server: FakeModelServer;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(async () => {
    await settings({ autoApprove: undefined, "provider.protocol": undefined });
    await server.close();
  });

  for (const protocol of ["xml", "native"] as const) {
    it(`lists, reads, writes and completes with auto-approved tools (${protocol})`, async () => {
      const api = await kiln();
      await configure("openai-compatible", server.openaiBaseUrl);
      await settings({ autoApprove: ["read", "edit"], "provider.protocol": protocol });
      api.sidebar.newTask();
      const target = join(workspace, "test", `greet-${protocol}.test.ts`);
      rmSync(target, { force: true });
      const content = 'import { greet } from "../src/greet";\nconsole.assert(greet("Kiln") === "Hello, Kiln!");\n';
      const before = server.requests.length;
      server.enqueue(
        step(protocol, { name: "list_files", args: { path: ".", recursive: true } }),
        step(protocol, { name: "read_file", args: { path: "src/greet.ts" } }),
        // The codebase index, built in the extension host on the tool's first call.
        step(protocol, { name: "codebase_search", args: { query: "greeting for a name" } }),
        step(protocol, { name: "write_to_file", args: { path: `test/greet-${protocol}.test.ts`, content, line_count: 2 } }),
        step(protocol, { name: "attempt_completion", args: { result: "Added a test for greet." } }),
      );
      await vscode.window.showTextDocument(vscode.Uri.file(join(workspace, "src", "greet.ts")), { preview: false });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Add a test for greet" }, 30_000);
      // The XML value loses its last line break; a new file ends with one all the same.
      assert.equal(readFileSync(target, "utf8"), content);
      const shown = items(posted);
      const tools = shown.filter((i) => i.role === "tool");
      assert.deepEqual(
        tools.map((t) => [t.name, t.status]),
        [
          ["list_files", "done"],
          ["read_file", "done"],
          ["codebase_search", "done"],
          ["write_to_file", "done"],
        ],
      );
      assert.match(tools[1]!.role === "tool" ? (tools[1]!.result ?? "") : "", /1 \| export function greet/);
      assert.match(tools[2]!.role === "tool" ? (tools[2]!.result ?? "") : "", /## src\/greet\.ts:1-3 score 1\.00 \(greet\)\n1 \| export function greet/);
      assert.deepEqual(shown.at(-1), { id: shown.at(-1)!.id, role: "completion", result: "Added a test for greet.", command: undefined });
      const requests = server.requests.slice(before);
      assert.equal(requests.length, 5);
      // The header's numbers: the fake reports 10 tokens in and 5 out per request.
      const task = posted.filter((m) => m.type === "chat/task").at(-1);
      assert.deepEqual(task?.type === "chat/task" && [task.task.mode, task.task.tokensIn, task.task.tokensOut], ["code", 50, 25]);
      assert.equal(requests[0]!.body.tools !== undefined, protocol === "native");
      assert.match(JSON.stringify(requests[0]!.body.messages), new RegExp(`Workspace: ${workspace.replace(/[/\\\\.]/g, "\\$&")}`));
      // The environment tells the model which files the user has open.
      assert.match(JSON.stringify(requests[0]!.body.messages), /Open files: src\/greet\.ts/);
    });
  }

  it("kiln.index.enabled off: a new task is not offered codebase_search", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await settings({ "provider.protocol": "native" });
    const offered = async () => {
      api.sidebar.newTask();
      const before = server.requests.length;
      server.enqueue({ toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] });
      await exchange(api.sidebar, { type: "chat/send", text: "Anything" }, 30_000);
      return (server.requests[before]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    };
    assert.ok((await offered()).includes("codebase_search"));
    await settings({ "index.enabled": false });
    try {
      const names = await offered();
      assert.ok(names.includes("search_files") && !names.includes("codebase_search"), names.join(", "));
    } finally {
      await settings({ "index.enabled": undefined });
    }
  });

  it("a write that is not auto-approved waits on its card; Reject with feedback reaches the model, Approve writes", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await settings({ autoApprove: ["read"], "provider.protocol": "xml" });
    api.sidebar.newTask();
    const target = join(workspace, "approved.txt");
    rmSync(target, { force: true });
    server.enqueue(
      step("xml", { name: "write_to_file", args: { path: "approved.txt", content: "first" } }),
      step("xml", { name: "write_to_file", args: { path: "approved.txt", content: "second" } }),
      step("xml", { name: "attempt_completion", args: { result: "Wrote it the second way." } }),
    );
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    const done = exchange(api.sidebar, { type: "chat/send", text: "Write approved.txt" }, 30_000);
    const waitingCard = () => posted.flatMap((m) => (m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.status === "waiting" && m.item.approval ? [m.item] : [])).at(-1);
    const first = await waitFor("the first approval card", waitingCard);
    assert.equal(first.approval?.summary, "Write approved.txt (1 line)");
    assert.match(first.approval?.diff ?? "", /\+first/);
    api.sidebar.receive({ type: "chat/approval", id: first.id, approved: false, feedback: "say second, not first" });
    const second = await waitFor("the second approval card", () => (waitingCard()?.id !== first.id ? waitingCard() : undefined));
    assert.equal(existsSync(target), false, "nothing is written before Approve");
    api.sidebar.receive({ type: "chat/approval", id: second.id, approved: true });
    await done;
    listener.dispose();
    assert.equal(readFileSync(target, "utf8"), "second\n");
    const statuses = items(posted)
      .filter((i) => i.role === "tool" && i.name === "write_to_file")
      .map((i) => i.role === "tool" && i.status);
    assert.deepEqual(statuses, ["denied", "done"]);
    assert.match(JSON.stringify(server.requests.at(-2)!.body.messages), /The user denied write_to_file and said:\\n<feedback>\\nsay second, not first/);
    // The chat shows the feedback as the user's message, right under the card it answered.
    const shown = items(posted);
    const deniedAt = shown.findIndex((i) => i.role === "tool" && i.id === first.id);
    const next = shown[deniedAt + 1];
    assert.deepEqual(next?.role === "user" ? next.text : next, "say second, not first");
  });

  it("edits through the VS Code file system: apply_diff, insert, replace, delete; CRLF kept", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await settings({ autoApprove: ["read", "edit", "delete"], "provider.protocol": "native" });
    api.sidebar.newTask();
    const file = join(workspace, "notes-crlf.txt");
    const doomed = join(workspace, "doomed.txt");
    writeFileSync(file, "alpha\r\nbeta\r\ngamma\r\n");
    writeFileSync(doomed, "bye\n");
    server.enqueue(
      step("native", { name: "apply_diff", args: { path: "notes-crlf.txt", diff: "<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE" } }),
      step("native", { name: "insert_content", args: { path: "notes-crlf.txt", line: 0, content: "delta" } }),
      step("native", { name: "search_and_replace", args: { path: "notes-crlf.txt", search: "alpha", replace: "ALPHA" } }),
      step("native", { name: "delete_file", args: { path: "doomed.txt" } }),
      step("native", { name: "attempt_completion", args: { result: "Edited." } }),
    );
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "Edit the notes" }, 30_000);
    const tools = items(posted).filter((i) => i.role === "tool");
    assert.deepEqual(
      tools.map((t) => t.role === "tool" && [t.name, t.status]),
      [
        ["apply_diff", "done"],
        ["insert_content", "done"],
        ["search_and_replace", "done"],
        ["delete_file", "done"],
      ],
    );
    assert.equal(readFileSync(file, "utf8"), "ALPHA\r\nBETA\r\ngamma\r\ndelta\r\n");
    assert.equal(existsSync(doomed), false);
  });

  it("shows an automatic retry, with its attempt and wait, then the reply", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await vscode.workspace.getConfiguration("kiln.provider").update("retries", 1, vscode.ConfigurationTarget.Global);
    api.sidebar.newTask();
    server.enqueue({ fault: { type: "http", status: 503, retryAfter: "1", message: "busy" } }, step("xml", { name: "attempt_completion", args: { result: "made it" } }));
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "try" }, 30_000);
    const retrying = posted.find((m) => m.type === "chat/retrying");
    assert.ok(retrying && retrying.type === "chat/retrying");
    assert.deepEqual([retrying.attempt, retrying.of, retrying.delayMs], [1, 1, 1000]);
    assert.match(retrying.reason, /busy/);
    assert.ok(items(posted).some((i) => i.role === "completion" && i.result === "made it"));
  });

  it("a read outside the workspace is not auto-approved, and cancel while it waits refuses it", async () => {
    const api = await kiln();
    await configure("openai-compatible", server.openaiBaseUrl);
    await settings({ autoApprove: ["read"], "provider.protocol": "xml" });
    api.sidebar.newTask();
    server.enqueue(step("xml", { name: "read_file", args: { path: "/etc/hostname" } }));
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    const done = exchange(api.sidebar, { type: "chat/send", text: "Read /etc/hostname" }, 30_000);
    const card = await waitFor("the approval card", () => posted.flatMap((m) => (m.type === "chat/itemChanged" && m.item.role === "tool" && m.item.approval ? [m.item] : [])).at(-1));
    assert.equal(card.approval?.outsideWorkspace, true);
    api.sidebar.receive({ type: "chat/cancel" });
    await done;
    listener.dispose();
    const read = items(posted).find((i) => i.role === "tool" && i.name === "read_file");
    assert.equal(read?.role === "tool" && read.status, "denied");
    assert.equal(read?.role === "tool" && read.approval, undefined);
  });
});
