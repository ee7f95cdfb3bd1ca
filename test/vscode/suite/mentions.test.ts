import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HostToWebview, MentionMatch } from "../../../src/shared/protocol/messages";
import { FakeModelServer, type RecordedRequest } from "../../fixtures/fakeModelServer";
import { chatItems, COMPLETE, configure, exchange, kiln, setKiln, waitFor } from "./helpers";

/** The text of the last user message the model received. */
function lastUserText(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** The user's message as the chat shows it. */
function shownUserText(posted: HostToWebview[]): string | undefined {
  const item = chatItems(posted).find((i) => i.role === "user");
  return item?.role === "user" ? item.text : undefined;
}

describe("@ mentions and slash commands in the chat", () => {
  let server: FakeModelServer;
  let restore: () => Promise<void>;
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  before(async () => {
    server = await new FakeModelServer().start();
  });
  after(() => server.close());
  beforeEach(async () => {
    server.clearQueue();
    restore = await setKiln({ autoApprove: undefined, mode: undefined, "provider.protocol": "xml" });
    await configure("openai-compatible", server.openaiBaseUrl);
    (await kiln()).sidebar.newTask();
  });
  afterEach(async () => {
    const api = await kiln();
    api.sidebar.receive({ type: "chat/setMode", slug: "code" });
    api.sidebar.newTask();
    await restore();
  });

  it("a message with @/src/greet.ts reaches the model with the file's content; the chat shows it as typed", async () => {
    const api = await kiln();
    server.enqueue({ text: COMPLETE });
    const posted = await exchange(api.sidebar, { type: "chat/send", text: "Explain @/src/greet.ts briefly" });
    const sent = lastUserText(server.requests.at(-1)!);
    assert.ok(sent.startsWith("Explain @/src/greet.ts briefly"), sent);
    assert.match(sent, /<file_content path="src\/greet\.ts">/);
    const source = readFileSync(join(workspace, "src", "greet.ts"), "utf8").split("\n")[1]!;
    assert.ok(sent.includes(`2 | ${source}`), `line 2 of greet.ts, numbered, is in: ${sent}`);
    assert.equal(shownUserText(posted), "Explain @/src/greet.ts briefly");
  });

  it("@problems gives the diagnostics of a broken JSON file open in the editor", async () => {
    const api = await kiln();
    const file = join(workspace, "broken.json");
    writeFileSync(file, '{\n  "name": "kiln",\n  "version": \n}\n');
    try {
      const uri = vscode.Uri.file(file);
      await vscode.window.showTextDocument(uri, { preview: false });
      const diagnostics = await waitFor("the JSON diagnostics", () => {
        const found = vscode.languages.getDiagnostics(uri);
        return found.length > 0 ? found : undefined;
      });
      server.enqueue({ text: COMPLETE });
      await exchange(api.sidebar, { type: "chat/send", text: "fix @problems" });
      const sent = lastUserText(server.requests.at(-1)!);
      assert.match(sent, /<workspace_diagnostics>/);
      assert.ok(sent.includes(`broken.json:${diagnostics[0]!.range.start.line + 1}:`), sent);
      assert.ok(sent.includes(diagnostics[0]!.message.replace(/\s+/g, " ")), sent);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      rmSync(file, { force: true });
    }
  });

  it("a workflow in .kilocode/commands runs as /review with its arguments, in the mode its front matter names", async () => {
    const api = await kiln();
    const dir = join(workspace, ".kilocode", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "review.md"), "---\ndescription: Review code strictly\nargument-hint: <files>\nmode: ask\n---\nReview these files: $ARGUMENTS. Be strict.\n");
    try {
      const listed: HostToWebview[] = [];
      const listener = api.sidebar.onDidPost((m) => listed.push(m));
      api.sidebar.receive({ type: "commands/list" });
      const commands = await waitFor("the command list", () => listed.flatMap((m) => (m.type === "commands/list" ? [m.commands] : [])).at(-1)).finally(() => listener.dispose());
      assert.deepEqual(
        commands.find((c) => c.name === "review"),
        { name: "review", description: "Review code strictly", argumentHint: "<files>", source: "project" },
      );
      assert.ok(commands.some((c) => c.name === "newtask" && c.source === "builtin"));

      server.enqueue({ text: COMPLETE });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "/review src/greet.ts README.md" });
      const request = server.requests.at(-1)!;
      assert.equal(lastUserText(request), "Review these files: src/greet.ts README.md. Be strict.");
      assert.equal(shownUserText(posted), "/review src/greet.ts README.md");
      const modes = posted.flatMap((m) => (m.type === "chat/task" ? [m.task.mode] : []));
      assert.equal(modes.at(-1), "ask");
      const system = (request.body.messages as { role: string; content: unknown }[])[0]!.content as string;
      assert.match(system, /answers questions about the code without changing it/, "the request went out in Ask mode");
    } finally {
      rmSync(join(workspace, ".kilocode"), { recursive: true, force: true });
    }
  });

  it("Roo's .roo/commands and Cline's .clinerules/workflows are offered and run as / commands in place", async () => {
    const api = await kiln();
    mkdirSync(join(workspace, ".roo", "commands"), { recursive: true });
    mkdirSync(join(workspace, ".clinerules", "workflows"), { recursive: true });
    writeFileSync(join(workspace, ".roo", "commands", "triage.md"), "---\ndescription: Triage an issue\n---\nTriage issue $ARGUMENTS.\n");
    writeFileSync(join(workspace, ".clinerules", "workflows", "deploy.md"), "Deploy to $ARGUMENTS, then report.\n");
    try {
      const listed: HostToWebview[] = [];
      const listener = api.sidebar.onDidPost((m) => listed.push(m));
      api.sidebar.receive({ type: "commands/list" });
      const commands = await waitFor("the command list", () => listed.flatMap((m) => (m.type === "commands/list" ? [m.commands] : [])).at(-1)).finally(() => listener.dispose());
      assert.deepEqual(
        commands.filter((c) => c.name === "triage" || c.name === "deploy"),
        [
          { name: "triage", description: "Triage an issue", source: "project" },
          { name: "deploy", description: "Workflow deploy.md", source: "project" },
        ],
      );
      server.enqueue({ text: COMPLETE });
      await exchange(api.sidebar, { type: "chat/send", text: "/deploy staging" });
      assert.equal(lastUserText(server.requests.at(-1)!), "Deploy to staging, then report.");
      // The workflow folder is not read as rules.
      const system = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[])[0]!.content as string;
      assert.doesNotMatch(system, /Deploy to \$ARGUMENTS/);
    } finally {
      rmSync(join(workspace, ".roo"), { recursive: true, force: true });
      rmSync(join(workspace, ".clinerules"), { recursive: true, force: true });
    }
  });

  it("the @ picker's file search returns matching workspace files", async () => {
    const api = await kiln();
    const posted: HostToWebview[] = [];
    const listener = api.sidebar.onDidPost((m) => posted.push(m));
    try {
      const itemsOf = (id: number) => posted.flatMap((m) => (m.type === "response" && m.id === id && m.ok ? [(m.result as { items: MentionMatch[] }).items] : [])).at(0);
      api.sidebar.receive({ type: "request", id: 4242, method: "mentions/search", params: { query: "gre" } });
      const results = await waitFor("the search results", () => itemsOf(4242));
      assert.deepEqual(results[0], { path: "src/greet.ts", kind: "file" });
      // A malformed request is dropped at the boundary, not answered.
      api.sidebar.receive({ type: "request", id: -1, method: "mentions/search", params: { query: "gre" } });
      api.sidebar.receive({ type: "request", id: 4243, method: "mentions/search", params: { query: "README" } });
      const readme = await waitFor("the second results", () => itemsOf(4243));
      assert.deepEqual(readme[0], { path: "README.md", kind: "file" });
      assert.equal(posted.filter((m) => m.type === "response").length, 2);
    } finally {
      listener.dispose();
    }
  });
});
