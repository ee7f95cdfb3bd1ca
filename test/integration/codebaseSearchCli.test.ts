import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const env = cliWithModelServer();
let workspace: string;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(workspace, path)), { recursive: true });
  writeFileSync(join(workspace, path), text);
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-codebase-search-"));
  put(
    "src/auth/passwords.ts",
    [
      'import { scryptSync, randomBytes } from "node:crypto";',
      "",
      "/** Salted scrypt, so two users with one password get different hashes. */",
      "export function hashPassword(plain: string): string {",
      '  const salt = randomBytes(16).toString("hex");',
      '  return `${salt}:${scryptSync(plain, salt, 64).toString("hex")}`;',
      "}",
      "",
    ].join("\n"),
  );
  put("src/ui/button.ts", "export function renderButton(label: string): string {\n  return `<button>${label}</button>`;\n}\n");
  put("README.md", "# Demo\n\nA demo app.\n\n## Passwords\n\nStored hashed, never in plain text.\n");
});

/** The text of everything the CLI sent in its last request: the tool's result is in it. */
const lastRequest = () => JSON.stringify(env.server.requests.at(-1)!.body.messages);

function run(extra: string[] = []) {
  return runCli(
    env.cli,
    ["run", "--provider", "openai", "--base-url", env.server.openaiBaseUrl, "--workspace", workspace, "--protocol", "xml", "--approve", "read", "--no-checkpoints", ...extra, "Find it"],
    {
      OPENAI_API_KEY: "sk-codebase-search",
    },
  );
}

describe("kiln run: codebase_search", () => {
  it("indexes the workspace on first use and sends the model the function that matches, as path:lines with its code", async () => {
    env.server.enqueue(xmlTurn("codebase_search", { query: "hash password" }), xmlTurn("attempt_completion", { result: "Found." }));
    const result = await run();
    expect(result.code, result.stderr).toBe(0);
    const sent = lastRequest();
    expect(sent).toContain("# src/auth/passwords.ts");
    expect(sent).toMatch(/## src\/auth\/passwords\.ts:\d+-7 score 1\.00 \(hashPassword\)/);
    expect(sent).toContain("4 | export function hashPassword(plain: string): string {");
    expect(sent).not.toContain("renderButton");
    // The tool is offered in the prompt, in the read group.
    expect(JSON.stringify(env.server.requests.at(-2)!.body)).toContain("## codebase_search");
  });

  it("--no-index: the tool is not offered, and a call to it says the index is off", async () => {
    env.server.enqueue(xmlTurn("codebase_search", { query: "hash password" }), xmlTurn("attempt_completion", { result: "Done." }));
    const result = await run(["--no-index"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(env.server.requests.at(-2)!.body)).not.toContain("## codebase_search");
    expect(lastRequest()).toContain("The codebase index is turned off here");
  });
});
