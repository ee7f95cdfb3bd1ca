import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fixtures/fakeModelServer";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const testServer = pathToFileURL(resolve(__dirname, "../fixtures/mcp/testServer.mjs")).href;
const env = { OPENAI_API_KEY: "sk-trust" };
const setup = cliWithModelServer();

/** A stdio entry that leaves a marker file the moment its command runs, then serves MCP (the test server). */
function markerEntry(marker: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: ["-e", 'require("fs").writeFileSync(process.argv[1], "ran"); import(process.argv[2]);', marker, testServer], ...extra };
}

let workspace: string;
let home: string;
let marker: string;

function writeConfig(entry: Record<string, unknown>): void {
  mkdirSync(join(workspace, ".kilocode"), { recursive: true });
  writeFileSync(join(workspace, ".kilocode", "mcp.json"), JSON.stringify({ mcpServers: { marker: entry } }, null, 2));
}

const approvalsFile = () => join(home, ".kilocode", "kiln", "mcp-approvals.json");
const systemPrompt = (r: RecordedRequest) => JSON.stringify((r.body.messages as unknown[])[0]);
const runArgs = (...extra: string[]) => ["run", "--provider", "openai", "--base-url", setup.server.openaiBaseUrl, "--workspace", workspace, ...extra, "Look around"];

/** kiln run without a terminal (stdin a pipe), with its own home for the approvals file. */
async function runHeadless(...extra: string[]) {
  setup.server.enqueue(xmlTurn("attempt_completion", { result: "Looked." }));
  const before = setup.server.requests.length;
  const result = await runCli(setup.cli, runArgs(...extra), { ...env, HOME: home });
  return { ...result, prompt: systemPrompt(setup.server.requests[before]!) };
}

/** kiln run at a terminal (`script` gives it one) answering each MCP question with `answer`. */
async function runAtTerminal(answer: string): Promise<{ output: string; code: number | null; prompt: string }> {
  setup.server.enqueue(xmlTurn("attempt_completion", { result: "Looked." }));
  const before = setup.server.requests.length;
  const command = [process.execPath, setup.cli, ...runArgs("--approve", "read")].map((a) => `'${a}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, ...env, HOME: home, KILN_HISTORY_DIR: join(home, "tasks"), KILN_CHECKPOINT_DIR: join(home, "checkpoints"), TERM: "dumb" },
  });
  let output = "";
  let answered = 0;
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    const asked = output.split("[y/N]").length - 1;
    if (asked > answered) {
      answered = asked;
      child.stdin.write(`${answer}\n`);
    }
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  return { output, code, prompt: systemPrompt(setup.server.requests[before]!) };
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-trust-ws-"));
  home = mkdtempSync(join(tmpdir(), "kiln-trust-home-"));
  marker = join(workspace, "server-ran.txt");
  writeConfig(markerEntry(marker));
});

describe("a project's .kilocode/mcp.json servers start only when allowed", () => {
  it("without a terminal or the flag, the server's command never runs (even with --approve all) and stderr names it and the way to allow it", async () => {
    const result = await runHeadless("--approve", "all");
    expect(result.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).toContain(`kiln: MCP: server "marker" from .kilocode/mcp.json was not started (not allowed for this folder): \`${process.execPath} -e 'require("fs")`);
    expect(result.stderr).toContain("pass --trust-project-mcp to start the project's servers for this run");
    // The model is not offered the blocked server.
    expect(result.prompt).not.toContain("## marker");
    expect(existsSync(approvalsFile())).toBe(false);
  });

  it("--trust-project-mcp starts it for this run: its tools reach the model, and nothing is remembered", async () => {
    const result = await runHeadless("--trust-project-mcp");
    expect(result.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("ran");
    expect(result.stderr).not.toMatch(/MCP: /);
    expect(result.prompt).toMatch(/## marker[\s\S]*- pid:/);
    expect(existsSync(approvalsFile())).toBe(false);
  });

  it("at a terminal it asks with the command; a yes starts it and is kept in an owner-only file that lets later runs start it unasked", async () => {
    writeConfig(markerEntry(marker, { env: { LOG_LEVEL: "debug", GITHUB_TOKEN: "${env:GITHUB_TOKEN}", API_KEY: "sk-live-0123456789abcdefghij" } }));
    const asked = await runAtTerminal("y");
    expect(asked.code).toBe(0);
    expect(asked.output).toContain(`Start MCP server "marker" from .kilocode/mcp.json: \`${process.execPath} -e`);
    expect(asked.output).toContain("(env: LOG_LEVEL=debug, GITHUB_TOKEN=${env:GITHUB_TOKEN}, API_KEY=<hidden, 28 chars>)? [y/N]");
    expect(asked.output).not.toContain("sk-live-0123456789abcdefghij");
    expect(readFileSync(marker, "utf8")).toBe("ran");
    expect(asked.prompt).toContain("## marker");
    expect(statSync(approvalsFile()).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(approvalsFile(), "utf8")) as { approvals: Record<string, Record<string, string>> };
    expect(Object.keys(saved.approvals)).toEqual([workspace]);
    expect(saved.approvals[workspace]!.marker).toMatch(/^[0-9a-f]{64}$/);

    rmSync(marker);
    const later = await runHeadless();
    expect(later.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("ran");
    expect(later.stderr).not.toMatch(/MCP: /);
  });

  it("a changed entry is not started on the old yes: headless it is named as changed, at a terminal it is asked again", async () => {
    await runAtTerminal("y");
    rmSync(marker);
    writeConfig(markerEntry(marker, { args: [...markerEntry(marker).args, "--extra"] }));
    const headless = await runHeadless();
    expect(existsSync(marker)).toBe(false);
    expect(headless.stderr).toContain('kiln: MCP: server "marker" from .kilocode/mcp.json was not started (its entry changed since you allowed it)');
    expect(headless.stderr).toContain("--extra");

    const asked = await runAtTerminal("n");
    expect(asked.output).toContain('MCP server "marker" changed since you allowed it.');
    expect(asked.output).toMatch(/Start MCP server "marker" from \.kilocode\/mcp\.json: .*--extra`\? \[y\/N\]/);
    expect(asked.output).toContain('kiln: MCP: server "marker" from .kilocode/mcp.json was not started\r\n');
    expect(existsSync(marker)).toBe(false);
    expect(asked.prompt).not.toContain("## marker");
  });

  it("the same entry in another folder asks again, and an approvals file others can write is ignored", async () => {
    await runAtTerminal("y");
    const first = workspace;
    workspace = mkdtempSync(join(tmpdir(), "kiln-trust-ws-"));
    // The same text, so only the folder differs.
    mkdirSync(join(workspace, ".kilocode"));
    writeFileSync(join(workspace, ".kilocode", "mcp.json"), readFileSync(join(first, ".kilocode", "mcp.json"), "utf8"));
    rmSync(marker);
    expect((await runHeadless()).stderr).toContain("was not started (not allowed for this folder)");
    expect(existsSync(marker)).toBe(false);

    workspace = first;
    chmodSync(approvalsFile(), 0o666);
    const shared = await runHeadless();
    expect(shared.stderr).toContain("can be changed by other users, so its approvals are ignored");
    expect(existsSync(marker)).toBe(false);
  });
});
