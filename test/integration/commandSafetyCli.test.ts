/**
 * Issue 14's command cases through `kiln run`, as a prompt-injected model would send them, with the
 * approval settings a careful user picks: nothing the user did not allow runs, and the model hears
 * why. No terminal is attached, so a call that asks is refused.
 */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
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

async function attempt(command: string, allowed: string[]) {
  const { server, cli } = state;
  const before = server.requests.length;
  server.enqueue(xmlTurn("execute_command", { command }), done);
  const allow = allowed.flatMap((prefix) => ["--allow-command", prefix]);
  const result = await runCli(cli, ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "--approve", "read,command", ...allow, "Go"], {
    OPENAI_API_KEY: "sk-safety",
  });
  const toModel = JSON.stringify(server.requests[before + 1]?.body.messages ?? []);
  return { result, toModel };
}

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
