/**
 * Nothing waits forever, nothing grows without bound: `kiln run` against a provider that stalls,
 * floods and nests (the fake model server's faults). Each test runs the real CLI and checks what a
 * user notices: the task ends or goes on with a clear message, the model is told, and the process's
 * peak memory stays under a bound.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { peakMemoryProbe, runMeasured } from "../fixtures/measuredRun";
import { buildCli, runCli, type CliRun } from "./cliProcess";

/** The target for a CLI handling a 50 MB reply or 100,000 tool calls. */
const PEAK_MB = 300;
const MB = 1024 * 1024;

let server: FakeModelServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterEach(() => server.clearQueue());
afterAll(() => server.close());

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-stream-limits-ws-"));
  for (let i = 0; i < 7; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  return dir;
}

type Protocol = "openai" | "anthropic";

/** `kiln run` on a fresh workspace against the fake server; reads run unasked. */
async function run(protocol: Protocol, toolProtocol: "xml" | "native", flags: string[] = []): Promise<CliRun & { peakMb: number | undefined }> {
  const probe = peakMemoryProbe();
  const baseUrl = protocol === "openai" ? server.openaiBaseUrl : server.anthropicBaseUrl;
  const key = protocol === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
  const result = await runCli(
    cli,
    ["run", "--provider", protocol, "--base-url", baseUrl, "--workspace", workspace(), "--approve", "read", "--protocol", toolProtocol, "--no-checkpoints", ...flags, "Look at the files"],
    { [key]: "sk-stream-limits", ...probe.env },
  );
  return { ...result, peakMb: probe.peakMb() };
}

const completeXml: ScriptedTurn = { text: "<attempt_completion><result>Done.</result></attempt_completion>" };
const completeNative: ScriptedTurn = { toolCalls: [{ name: "attempt_completion", arguments: { result: "Done." } }] };

function* repeated(piece: string, times: number): Generator<string> {
  for (let i = 0; i < times; i++) yield piece;
}

/** The task a run saved in `historyDir` (its id is on stderr). */
function savedTask(historyDir: string, stderr: string): { entry: { status: string }; api: { role: string; content: unknown }[]; ui: { role: string; status?: string }[] } {
  const id = /\[task ([\w-]+):/.exec(stderr)?.[1];
  if (!id) throw new Error(`no task id on stderr: ${stderr.slice(0, 500)}`);
  const read = (file: string) => JSON.parse(readFileSync(join(historyDir, id, file), "utf8")) as never;
  return { entry: read("task_metadata.json"), api: read("api_conversation_history.json"), ui: read("ui_messages.json") };
}

/** Everything the model was sent in a request, as one string to search. */
function sent(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body.messages ?? []);
}

describe.runIf(process.platform !== "win32")("a provider that stops answering", () => {
  it("fails the request with 'No reply from … in N s' when nothing comes, retries it, and goes on", async () => {
    const before = server.requests.length;
    server.enqueue({ fault: { type: "stall" } }, completeXml);
    const result = await run("openai", "xml", ["--first-reply-timeout", "2", "--retries", "1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("No reply from OpenAI in 2 s: the connection is open but nothing came");
    expect(result.stderr).toMatch(/retrying in [\d.]+ s \(1 of 1\)/);
    expect(server.requests.length - before).toBe(2);
  });

  it("fails a reply that goes silent midway (the idle timeout), and ends the task with that message when retries run out", async () => {
    server.enqueue({ text: "Let me look at the first file and then", fault: { type: "stall", afterChunks: 4 } });
    const result = await run("anthropic", "xml", ["--idle-timeout", "2", "--retries", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No reply from Anthropic in 2 s: the reply had begun, then nothing more came");
  });

  it("stops at Ctrl+C while the provider is silent", async () => {
    const before = server.requests.length;
    server.enqueue({ fault: { type: "stall" } });
    const result = await runCli(
      cli,
      ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace(), "--no-checkpoints", "Look at the files"],
      { OPENAI_API_KEY: "sk-stream-limits" },
      {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (server.requests.length > before) {
              clearInterval(poll);
              child.kill("SIGINT");
            }
          }, 50);
        },
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("Cancelled");
  });
});

describe.runIf(process.platform !== "win32")("replies past the limits are stopped, the model is told, the task goes on", () => {
  it("a 50 MB text reply: stopped at the reply limit, in bounded memory", async () => {
    const before = server.requests.length;
    server.enqueue({ chunks: repeated("x".repeat(64 * 1024), 800) }, completeXml);
    const result = await run("openai", "xml");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("The model's reply passed 1,000,000 characters, the limit for one reply");
    const next = server.requests[before + 1];
    expect(sent(next)).toContain("[Kiln stopped reading your reply at 1,000,000 characters, the limit for one reply");
    // What the model is sent back is the reply up to the limit, not 50 MB.
    expect(sent(next).length).toBeLessThan(1.2 * MB);
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("a 50 MB argument to an unknown native tool: the call is refused at the argument limit", async () => {
    const before = server.requests.length;
    const huge = { toolCalls: [{ id: "call_huge", name: "not_a_tool", arguments: JSON.stringify({ data: "z".repeat(50 * MB) }) }] };
    server.enqueue(huge, completeNative);
    const result = await run("openai", "native");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("The model's call to not_a_tool went past a limit on tool arguments");
    const messages = server.requests[before + 1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[];
    expect(messages.find((m) => m.role === "tool" && m.tool_call_id === "call_huge")?.content).toMatch(/The arguments of not_a_tool passed 400000 characters, the limit for one tool call/);
    expect(sent(server.requests[before + 1])).toContain("[Kiln stopped reading your reply at the call to not_a_tool");
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("an endless stream of native tool-call argument deltas: stopped, in bounded memory", async () => {
    const before = server.requests.length;
    server.enqueue({ text: "Writing it.", fault: { type: "flood", of: "toolArgs" } }, completeNative);
    const result = await run("anthropic", "native");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("The model's call to write_to_file went past a limit on tool arguments");
    expect(sent(server.requests[before + 1])).toMatch(/The arguments of write_to_file passed 400000 characters/);
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("an endless stream of text: stopped at the reply limit", async () => {
    const before = server.requests.length;
    server.enqueue({ fault: { type: "flood", of: "text" } }, completeXml);
    const result = await run("anthropic", "xml");
    expect(result.code, result.stderr).toBe(0);
    expect(sent(server.requests[before + 1])).toContain("[Kiln stopped reading your reply at 1,000,000 characters");
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("100,000 tool calls in one reply: the first 100 run, the rest are dropped", async () => {
    const before = server.requests.length;
    const calls = Array.from({ length: 1000 }, (_, i) => `<read_file><path>f${i % 7}.txt</path></read_file>\n`).join("");
    server.enqueue({ chunks: repeated(calls, 100) }, completeXml);
    const result = await run("openai", "xml");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("The model's reply had more than 100 tool calls, the limit for one reply");
    const next = sent(server.requests[before + 1]);
    expect(next.split("[read_file] Result:").length - 1).toBe(100);
    expect(next).toContain("[Kiln stopped reading your reply after 100 tool calls, the limit for one reply");
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("native tool calls past --max-tool-calls: those within it run, each gets its one result, the rest are not read", async () => {
    const before = server.requests.length;
    server.enqueue({ toolCalls: Array.from({ length: 1000 }, (_, i) => ({ id: `toolu_${i}`, name: "read_file", arguments: { path: `f${i % 7}.txt` } })) }, completeNative);
    const result = await run("anthropic", "native", ["--max-tool-calls", "10"]);
    expect(result.code, result.stderr).toBe(0);
    const results = (server.requests[before + 1]!.body.messages as { role: string; content: { type: string; text?: string }[] | string }[]).at(-1)!.content as { type: string; text?: string }[];
    expect(results.filter((b) => b.type === "tool_result").length).toBe(10);
    expect(results.find((b) => b.type === "text")?.text).toBe("[Kiln stopped reading your reply after 10 tool calls, the limit for one reply; the calls after those were not read or run.]");
  });

  it("100,000 native tool calls with the limit raised: every call gets its result, and the task is saved", async () => {
    const history = mkdtempSync(join(tmpdir(), "kiln-stream-limits-history-"));
    // Unknown tools: what this exercises is the stream, the cards, the results and the save, not reading files.
    server.enqueue({ toolCalls: Array.from({ length: 100_000 }, (_, i) => ({ id: `c${i}`, name: "not_a_tool", arguments: { n: i } })) });
    const result = await run("openai", "native", ["--max-tool-calls", "1000000", "--reply-max-chars", "100000000", "--history-dir", history]);
    // Three failed calls in a row stop the task; the calls after them are answered as skipped.
    expect(result.code, result.stderr).toBe(3);
    const api = savedTask(history, result.stderr).api;
    const results = api.at(-1)!.content as { type: string }[];
    expect(results.filter((b) => b.type === "tool_result").length).toBe(100_000);
  }, 120_000);

  it("JSON arguments nested a million deep: refused at the depth limit with a clear error", async () => {
    const before = server.requests.length;
    server.enqueue({ toolCalls: [{ id: "call_deep", name: "read_file", arguments: `{"path":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}` }] }, completeNative);
    const result = await run("openai", "native");
    expect(result.code, result.stderr).toBe(0);
    const messages = server.requests[before + 1]!.body.messages as { role: string; tool_call_id?: string; content?: string }[];
    expect(messages.find((m) => m.tool_call_id === "call_deep")?.content).toMatch(/The arguments of read_file are nested more than 64 levels deep, the limit for JSON arguments/);
    expect(result.peakMb).toBeLessThan(PEAK_MB);
  });

  it("a reply streamed in 100,000 small pieces shows in full", async () => {
    const before = server.requests.length;
    server.enqueue({ chunks: repeated("word word ", 90_000) }, completeXml);
    const result = await run("openai", "xml");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("word").length - 1).toBe(180_000);
    expect(server.requests.length - before).toBe(2);
  });
});

describe.runIf(process.platform !== "win32")("a long task", () => {
  it("runs 2,000 reads of one reply with 256 file handles, and saves the task", async () => {
    const history = mkdtempSync(join(tmpdir(), "kiln-stream-limits-history-"));
    const calls = Array.from({ length: 2000 }, (_, i) => `<read_file><path>f${i % 7}.txt</path></read_file>\n`).join("");
    server.enqueue({ text: calls }, completeXml);
    const result = await runMeasured(
      cli,
      [
        "run",
        "--provider",
        "openai",
        "--base-url",
        server.openaiBaseUrl,
        "--workspace",
        workspace(),
        "--approve",
        "read",
        "--no-checkpoints",
        "--max-tool-calls",
        "5000",
        "--history-dir",
        history,
        "Read them all",
      ],
      {
        fileLimit: 256,
        env: { OPENAI_API_KEY: "sk-stream-limits" },
      },
    );
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(result.stderr).not.toContain("EMFILE");
    expect(result.stderr.match(/\[Kiln read f\d\.txt: done\]/g)?.length).toBe(2000);
    const saved = savedTask(history, result.stderr);
    expect(saved.entry.status).toBe("completed");
    // Every read's card is saved, and the completion as its one block (its card gives way to it).
    expect(saved.ui.filter((item) => item.role === "tool" && item.status === "done").length).toBe(2000);
    expect(saved.ui.filter((item) => item.role === "completion").length).toBe(1);
  }, 60_000);

  it("runs 30 requests without piling up abort listeners (no MaxListenersExceededWarning)", async () => {
    server.enqueue(...Array.from({ length: 30 }, (_, i): ScriptedTurn => ({ text: `<read_file><path>f${i % 7}.txt</path></read_file>` })), completeXml);
    const result = await run("openai", "xml", ["--max-requests", "40"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("MaxListenersExceededWarning");
    expect(result.stderr.match(/\[Kiln read f\d\.txt: done\]/g)?.length).toBe(30);
  });
});
