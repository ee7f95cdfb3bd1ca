import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";
import { buildCli, runCli, xmlTurn, type CliRun } from "./cliProcess";

/** A key under a name of the user's choosing, which no list of standard key names knows. */
const KEY = "sk-or-v1-0123456789abcdef-custom";
const OTHER_KEY = "sk-ant-not-used-here-987654321";
const reversed = (text: string) => [...text].reverse().join("");

let server: FakeModelServer;
let cli: string;
let workspace: string;
let historyDir: string;

beforeAll(async () => {
  cli = await buildCli();
  // Only the right key gets an answer: the CLI still sends it, though no child of the CLI can see it.
  server = await new FakeModelServer({ apiKey: KEY }).start();
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearQueue();
  workspace = mkdtempSync(join(tmpdir(), "kiln-secrets-ws-"));
  historyDir = mkdtempSync(join(tmpdir(), "kiln-secrets-history-"));
});

function kiln(args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> {
  const flags = ["--provider", "openai-compatible", "--base-url", server.openaiBaseUrl, "--model", "m", "--api-key-env", "MY_LLM_SECRET", "--workspace", workspace];
  return runCli(cli, ["run", ...flags, "--approve", "read,command", "--retries", "0", ...args], { MY_LLM_SECRET: KEY, KILN_HISTORY_DIR: historyDir, ...extraEnv });
}

const sent = (request: RecordedRequest): string => JSON.stringify(request.body.messages);

/** Every file task history wrote, as text. */
function historyText(dir = historyDir): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? historyText(path) : readFileSync(path, "utf8")))
    .join("\n");
}

describe.runIf(process.platform !== "win32")("the API key in kiln run", () => {
  it("is absent from the environment of commands, whatever variable --api-key-env names", async () => {
    const before = server.requests.length;
    // Reversed, so the redaction of results cannot be what hides the key here.
    server.enqueue(xmlTurn("execute_command", { command: "env | rev" }), xmlTurn("attempt_completion", { result: "Done." }));
    const result = await kiln(["Show env"], { ANTHROPIC_API_KEY: OTHER_KEY });
    expect(result.code).toBe(0);
    const toModel = sent(server.requests[before + 1]!);
    expect(toModel).toContain(reversed("PATH="));
    expect(toModel).not.toContain(reversed(KEY));
    expect(toModel).not.toContain(reversed("MY_LLM_SECRET"));
    expect(toModel).not.toContain(reversed(OTHER_KEY));
  });

  // The kernel shows the environment a process started with; a command can read its parent's.
  it.runIf(process.platform === "linux")("cannot be read from the CLI's own /proc/PID/environ by a command", async () => {
    const before = server.requests.length;
    // In a script, so the command line is one Kiln's command checks let run unasked. It reads every
    // ancestor's environment, the CLI's among them (only the CLI was started with these variables).
    const script = [
      "pid=$$",
      'while [ "$pid" -gt 1 ]; do',
      "  tr '\\0' '\\n' < /proc/$pid/environ 2>/dev/null | grep -E '^(MY_LLM_SECRET|ANTHROPIC_API_KEY|KILN_HISTORY_DIR)=' | rev",
      "  pid=$(awk '{print $4}' /proc/$pid/stat)",
      "done",
    ];
    writeFileSync(join(workspace, "parent-env.sh"), `${script.join("\n")}\n`);
    server.enqueue(xmlTurn("execute_command", { command: "sh parent-env.sh" }), xmlTurn("attempt_completion", { result: "Done." }));
    const result = await kiln(["Read the parent's environment"], { ANTHROPIC_API_KEY: OTHER_KEY });
    expect(result.code).toBe(0);
    const toModel = sent(server.requests[before + 1]!);
    // The command read the file: other variables are there as they were, the keys' entries masked.
    expect(toModel).toContain(reversed(`KILN_HISTORY_DIR=${historyDir}`));
    expect(toModel).toContain(reversed(`MY_LLM_SECRET=${"*".repeat(KEY.length)}`));
    expect(toModel).toContain(reversed(`ANTHROPIC_API_KEY=${"*".repeat(OTHER_KEY.length)}`));
    expect(toModel).not.toContain(reversed(KEY));
    expect(toModel).not.toContain(reversed(OTHER_KEY));
  });

  it("is redacted from tool results sent to the model, --json output, the final output and task history", async () => {
    writeFileSync(join(workspace, ".env"), `OPENROUTER_TOKEN=${KEY}\n`);
    const before = server.requests.length;
    server.enqueue(xmlTurn("execute_command", { command: "cat .env" }), xmlTurn("read_file", { path: ".env" }), xmlTurn("attempt_completion", { result: `The token is ${KEY}.` }));
    const json = await kiln(["--json", "Find the token"]);
    expect(json.code).toBe(0);
    const fromCommand = sent(server.requests[before + 1]!);
    expect(fromCommand).toContain("OPENROUTER_TOKEN=[redacted]");
    expect(sent(server.requests[before + 2]!)).toContain("OPENROUTER_TOKEN=[redacted]");
    for (const request of server.requests.slice(before)) expect(sent(request)).not.toContain(KEY);
    expect(json.stdout).toContain("OPENROUTER_TOKEN=[redacted]");
    expect(json.stdout).toContain("The token is [redacted].");
    expect(json.stdout + json.stderr).not.toContain(KEY);
    expect(historyText()).toContain("OPENROUTER_TOKEN=[redacted]");
    expect(historyText()).not.toContain(KEY);

    server.enqueue(xmlTurn("attempt_completion", { result: `The token is ${KEY}.` }));
    const plain = await kiln(["Say the token"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("✓ The token is [redacted].");
    expect(plain.stdout + plain.stderr).not.toContain(KEY);
  });

  it("is redacted from a provider error that echoes the Authorization header", async () => {
    server.enqueue({ fault: { type: "http", status: 400, message: "bad request", echoAuthorization: true } });
    const json = await kiln(["--json", "Hello"]);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain("Authorization: Bearer [redacted]");
    expect(json.stdout + json.stderr).not.toContain(KEY);
    expect(historyText()).toContain("Bearer [redacted]");
    expect(historyText()).not.toContain(KEY);

    server.enqueue({ fault: { type: "http", status: 400, message: "bad request", echoAuthorization: true } });
    const plain = await kiln(["Hello"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("Authorization: Bearer [redacted]");
    expect(plain.stdout + plain.stderr).not.toContain(KEY);
  });
});
