/**
 * Issue 14's command cases through `kiln run`, as a prompt-injected model would send them, with the
 * approval settings a careful user picks: nothing the user did not allow runs, and the model hears
 * why. No terminal is attached, so a call that asks is refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const state = cliWithModelServer();
let root: string;
let workspace: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "kiln-cmd-safety-"));
  workspace = join(root, "ws");
  mkdirSync(join(workspace, "scripts"), { recursive: true });
  writeFileSync(join(workspace, ".env"), "TOKEN=secret-in-dotenv\n");
  writeFileSync(join(workspace, ".kilocodeignore"), ".env\n");
  symlinkSync(".env", join(workspace, "env_link"));
  writeFileSync(join(root, "outside.txt"), "secret-outside\n");
});

const done = xmlTurn("attempt_completion", { result: "Done." });

/** One scripted tool call through `kiln run`, then completion; what the model was told after the call. */
async function call(tool: string, params: Record<string, string>, approve: string, extra: string[] = []) {
  const { server, cli } = state;
  const before = server.requests.length;
  server.enqueue(xmlTurn(tool, params), done);
  const result = await runCli(cli, ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "--approve", approve, ...extra, "Go"], {
    OPENAI_API_KEY: "sk-safety",
  });
  const messages = (server.requests[before + 1]?.body.messages ?? []) as unknown[];
  // What came back from the call: the last message, after the model's own call.
  return { result, toModel: JSON.stringify(messages.at(-1) ?? "") };
}

const attempt = (command: string, allowed: string[]) =>
  call(
    "execute_command",
    { command },
    "read,command",
    allowed.flatMap((prefix) => ["--allow-command", prefix]),
  );

describe.runIf(process.platform !== "win32")("kiln run: an allowed prefix runs only what it names", () => {
  it.each([
    ["a comment hiding a newline", "git status #'\ntouch pwned\n#'", "git status"],
    ["&> read by sh as & and >", "ls &>/dev/null touch pwned", "ls"],
    ["a here-document hiding the next line", "ls <<EOF\nls '\nEOF\ntouch pwned\nls #'", "ls"],
    ["a path climbing out of an allowed folder", "./scripts/../../pwned.sh", "./scripts/"],
  ])("%s is not run", async (_, command, allowed) => {
    writeFileSync(join(root, "pwned.sh"), "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
    const { toModel } = await attempt(command, [allowed]);
    expect(existsSync(join(workspace, "pwned"))).toBe(false);
    expect(toModel).toMatch(/denied|not auto-approved|needs approval|refused/i);
  });

  it.each([
    ["a file outside the workspace", "cat ../outside.txt", "secret-outside"],
    ["a link to a file hidden by .kilocodeignore", "cat env_link", "secret-in-dotenv"],
  ])("cat of %s is not run", async (_, command, secret) => {
    const { toModel } = await attempt(command, ["cat"]);
    expect(toModel).not.toContain(secret);
  });

  it("still runs a plain allowed command", async () => {
    writeFileSync(join(workspace, "notes.txt"), "plain-notes\n");
    const { toModel } = await attempt("cat notes.txt", ["cat"]);
    expect(toModel).toContain("plain-notes");
  });
});

describe("kiln run: file tools reveal nothing outside the workspace before the user says yes", () => {
  it.each([
    ["search_and_replace whose replacement is the match itself", "search_and_replace", { path: "../outside.txt", search: "secret-outside", replace: "$&" }],
    ["apply_diff of a block that may or may not be there", "apply_diff", { path: "../outside.txt", diff: "<<<<<<< SEARCH\nsecret-outside\n=======\nx\n>>>>>>> REPLACE" }],
    ["insert_content", "insert_content", { path: "../outside.txt", line: "1", content: "x" }],
  ])("%s is asked before it reads, and refused here says nothing about the file", async (_, tool, params) => {
    const { toModel } = await call(tool, params as Record<string, string>, "read,edit");
    expect(toModel).toContain("Not approved in this headless run");
    expect(toModel).not.toMatch(/occurrence|could not be applied|has \d+ lines|secret-outside/);
  });

  it("an auto-approved edit does not write a protected file through a link to its folder", async () => {
    mkdirSync(join(workspace, ".kilocode"));
    writeFileSync(join(workspace, ".kilocode", "mcp.json"), '{ "mcpServers": {} }\n');
    symlinkSync(".kilocode", join(workspace, "cfg_link"));
    const { toModel } = await call("write_to_file", { path: "cfg_link/mcp.json", content: '{ "mcpServers": { "x": { "command": "touch", "args": ["pwned"] } } }' }, "read,edit");
    expect(readFileSync(join(workspace, ".kilocode", "mcp.json"), "utf8")).toBe('{ "mcpServers": {} }\n');
    expect(toModel).toContain("protected");
  });
});
