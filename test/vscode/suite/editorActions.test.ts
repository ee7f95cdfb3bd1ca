import * as assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatSession } from "../../../src/hosts/vscode/chat/ChatSession";
import type { HostToWebview } from "../../../src/shared/protocol/messages";
import { FakeModelServer, type RecordedRequest } from "../../fixtures/fakeModelServer";
import { COMPLETE, configure, kiln, setKiln, waitFor } from "./helpers";

/** Runs `run` (a command) and collects what the chat posts until `done` says it has what it waited for. */
async function postsOf(session: ChatSession, run: () => Thenable<unknown>, what: string, done: (posted: HostToWebview[]) => boolean): Promise<HostToWebview[]> {
  const posted: HostToWebview[] = [];
  const listener = session.onDidPost((m) => posted.push(m));
  try {
    await run();
    await waitFor(what, () => done(posted));
    return posted;
  } finally {
    listener.dispose();
  }
}

/** A command that starts a task: what the chat posts until that turn ends. */
function turnOf(session: ChatSession, run: () => Thenable<unknown>): Promise<HostToWebview[]> {
  return postsOf(session, run, "the end of the turn", (posted) => {
    const busy = posted.findIndex((m) => m.type === "chat/busy" && m.busy);
    return busy !== -1 && posted.slice(busy).some((m) => m.type === "chat/busy" && !m.busy);
  });
}

/** What a command put into the chat input, and everything else the chat posted meanwhile. */
async function addedToInput(session: ChatSession, run: () => Thenable<unknown>): Promise<{ text: string; posted: HostToWebview[] }> {
  const posted = await postsOf(session, run, "chat/addToInput", (p) => p.some((m) => m.type === "chat/addToInput"));
  const text = posted.flatMap((m) => (m.type === "chat/addToInput" ? [m.text] : []))[0]!;
  return { text, posted };
}

/** The text of each user message in a recorded Chat Completions request. */
function userTexts(request: RecordedRequest): string[] {
  const messages = request.body.messages as { role: string; content: unknown }[];
  return messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? "").join("\n") : ""));
}

const BROKEN_JSON = '{\n  "name": "kiln",\n  "version": 1\n  "broken": true\n}\n';

describe("editor and terminal actions ask the sidebar chat", () => {
  const workspace = process.env.KILN_TEST_WORKSPACE!;
  const file = join(workspace, "kiln-actions.json");
  let server: FakeModelServer;
  let undo: (() => Promise<void>) | undefined;

  before(async () => {
    server = await new FakeModelServer().start();
    await configure("openai-compatible", server.openaiBaseUrl);
  });
  afterEach(async () => {
    server.clearQueue();
    await undo?.();
    undo = undefined;
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
  after(async () => {
    rmSync(file, { force: true });
    await server.close();
  });

  /** The broken JSON file in an editor with `selection`, once the JSON language service reported its error. */
  async function openBroken(selection: vscode.Range): Promise<{ editor: vscode.TextEditor; problems: vscode.Diagnostic[] }> {
    writeFileSync(file, BROKEN_JSON);
    const uri = vscode.Uri.file(file);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    editor.selection = new vscode.Selection(selection.start, selection.end);
    const problems = await waitFor("JSON diagnostics", () => {
      const found = vscode.languages.getDiagnostics(uri);
      return found.length > 0 ? found : undefined;
    });
    return { editor, problems };
  }

  it("Explain starts a new task with the file, its lines and the selected code", async () => {
    const api = await kiln();
    await openBroken(new vscode.Range(1, 0, 3, 0));
    server.enqueue({ text: COMPLETE });
    const before = server.requests.length;
    const posted = await turnOf(api.sidebar, () => vscode.commands.executeCommand("kiln.explainCode"));
    assert.ok(
      posted.some((m) => m.type === "chat/snapshot"),
      "a new task was started",
    );
    const request = server.requests[before]!;
    const users = userTexts(request);
    assert.equal(users.length, 1, "the new task carries no earlier conversation");
    assert.match(users[0]!, /Explain the following code from kiln-actions\.json:2-3/);
    assert.ok(users[0]!.includes('```\n  "name": "kiln",\n  "version": 1\n\n```'), users[0]);
  });

  it("the lightbulb offers Fix for a problem, and Fix sends the problem's message and lines", async () => {
    const api = await kiln();
    const { editor, problems } = await openBroken(new vscode.Range(3, 2, 3, 2));
    const uri = editor.document.uri;
    const atCursor = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, new vscode.Range(3, 2, 3, 2));
    const fix = atCursor.find((a) => a.title === "Kiln: Fix This Code");
    assert.ok(fix?.command, `offered: ${atCursor.map((a) => a.title).join(", ")}`);
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(!atCursor.some((a) => a.title === "Kiln: Explain This Code"), "without a selection only Fix is offered");

    const selected = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", uri, new vscode.Range(1, 0, 2, 14));
    const titles = selected.map((a) => a.title);
    for (const title of ["Kiln: Explain This Code", "Kiln: Improve This Code", "Kiln: Add to Context"]) assert.ok(titles.includes(title), `${title} in ${titles.join(", ")}`);

    server.enqueue({ text: COMPLETE });
    const before = server.requests.length;
    await turnOf(api.sidebar, () => vscode.commands.executeCommand(fix.command!.command, ...(fix.command!.arguments ?? [])));
    const prompt = userTexts(server.requests[before]!)[0]!;
    assert.match(prompt, /Fix the problems in the following code from kiln-actions\.json:4-4/);
    assert.ok(prompt.includes(`line 4: ${problems[0]!.message}`), prompt);
    assert.ok(prompt.includes('"broken": true'), prompt);
  });

  it("Add to Context puts the reference and code into the chat input and sends nothing", async () => {
    const api = await kiln();
    await openBroken(new vscode.Range(1, 2, 1, 17));
    const before = server.requests.length;
    const { text, posted } = await addedToInput(api.sidebar, () => vscode.commands.executeCommand("kiln.addToContext"));
    assert.equal(text, 'kiln-actions.json:2-2\n```\n"name": "kiln",\n```');
    assert.equal(server.requests.length, before, "nothing went to the model");
    assert.ok(!posted.some((m) => m.type === "chat/appended" || (m.type === "chat/busy" && m.busy)), "no message in the chat");
  });

  it("a custom template in settings changes the prompt; unknown placeholders stay", async () => {
    const api = await kiln();
    undo = await setKiln({ "prompts.improve": "Tidy ${filePath} (${startLine}-${endLine}, ${languageId}): ${selectedText} ${ticket}" });
    await openBroken(new vscode.Range(2, 2, 2, 14));
    server.enqueue({ text: COMPLETE });
    const before = server.requests.length;
    await turnOf(api.sidebar, () => vscode.commands.executeCommand("kiln.improveCode"));
    assert.ok(userTexts(server.requests[before]!)[0]!.startsWith('Tidy kiln-actions.json (3-3, json): "version": 1 ${ticket}'), userTexts(server.requests[before]!)[0]);
  });

  it("the terminal's Explain Command and Add Output to Context take the given text", async () => {
    const api = await kiln();
    server.enqueue({ text: COMPLETE });
    const before = server.requests.length;
    await turnOf(api.sidebar, () => vscode.commands.executeCommand("kiln.terminal.explainCommand", "tar -xzvf kiln.tgz -C /tmp"));
    const prompt = userTexts(server.requests[before]!)[0]!;
    assert.ok(prompt.includes("Explain this terminal command:\n\n```\ntar -xzvf kiln.tgz -C /tmp\n```"), prompt);

    const { text } = await addedToInput(api.sidebar, () => vscode.commands.executeCommand("kiln.terminal.addToContext", "npm ERR! missing script: lint"));
    assert.equal(text, "Terminal output:\n```\nnpm ERR! missing script: lint\n```");
  });

  it("Add Output to Context without a selection takes the terminal's last command and its output", async function () {
    const api = await kiln();
    // bash with an empty home: shell integration starts only once the user's ~/.bashrc has run, and a
    // runner's rc file (pyenv waiting 60 s on a stale lock) has outlasted the wait.
    const home = mkdtempSync(join(tmpdir(), "kiln-home-"));
    const terminal = vscode.window.createTerminal({ name: "kiln-actions", cwd: workspace, shellPath: "/bin/bash", env: { HOME: home } });
    try {
      terminal.show();
      const integration = await waitFor("shell integration", () => terminal.shellIntegration, 20_000);
      const ended = new Promise<void>((resolve) => {
        const listener = vscode.window.onDidEndTerminalShellExecution((e) => {
          if (e.terminal !== terminal) return;
          listener.dispose();
          resolve();
        });
      });
      integration.executeCommand("echo kiln-$((6*7))-marker");
      await ended;
      await waitFor("the terminal to be active", () => vscode.window.activeTerminal === terminal);
      const { text } = await addedToInput(api.sidebar, () => vscode.commands.executeCommand("kiln.terminal.addToContext"));
      assert.match(text, /^Terminal output:\n```\n\$ echo kiln-\$\(\(6\*7\)\)-marker\n[\s\S]*kiln-42-marker[\s\S]*\n```$/);
    } finally {
      terminal.dispose();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("Focus Chat Input asks the chat's input for the cursor", async () => {
    const api = await kiln();
    const posted = await postsOf(
      api.sidebar,
      () => vscode.commands.executeCommand("kiln.focusInput"),
      "chat/focusInput",
      (p) => p.some((m) => m.type === "chat/focusInput"),
    );
    assert.ok(!posted.some((m) => m.type === "chat/addToInput"), "focusing adds no text");
  });
});
