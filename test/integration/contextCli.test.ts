import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

const FILES = 6;
const TASK = `Read big1.txt to big${FILES}.txt, one at a time.`;
const SUMMARY = "SUMMARY: the first files were read; each holds rows of marked text.";

type Message = { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };
const messagesOf = (request: RecordedRequest) => request.body.messages as Message[];
const isSummary = (request: RecordedRequest) => String(messagesOf(request)[0]?.content).startsWith("You summarise a coding agent's conversation");

/**
 * A model that reads the files one by one, then completes; and writes a summary when asked for one.
 * The reply depends on the request, not on a queue, since when Kiln condenses is for it to decide.
 */
let protocol: "xml" | "native" = "xml";
let step = 0;
let usage: ScriptedTurn["usage"];
function play(request: RecordedRequest): ScriptedTurn {
  if (isSummary(request)) return { text: SUMMARY };
  step++;
  if (step > FILES) {
    return protocol === "xml"
      ? { text: "<attempt_completion>\n<result>Read all six.</result>\n</attempt_completion>", usage }
      : { toolCalls: [{ id: "call_done", name: "attempt_completion", arguments: { result: "Read all six." } }], usage };
  }
  const path = `big${step}.txt`;
  return protocol === "xml" ? { text: `Next.\n<read_file>\n<path>${path}</path>\n</read_file>`, usage } : { toolCalls: [{ id: `call_${step}`, name: "read_file", arguments: { path } }], usage };
}

let server: FakeModelServer;
let cli: string;
let workspace: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer({ fallback: play }).start();
  workspace = mkdtempSync(join(tmpdir(), "kiln-context-ws-"));
  // About 1,400 tokens each: four fit in the small window beside the system prompt, six do not.
  for (let i = 1; i <= FILES; i++) {
    writeFileSync(join(workspace, `big${i}.txt`), Array.from({ length: 60 }, (_, j) => `MARK${i} row ${j}: the quick brown fox jumps over the lazy dog again and again`).join("\n"));
  }
});
afterAll(() => server.close());
beforeEach(() => {
  step = 0;
  usage = undefined;
});

async function kiln(flags: string[], modelInfo = { contextWindow: 12_000, maxOutputTokens: 1_000 }) {
  const before = server.requests.length;
  const result = await runCli(
    cli,
    [
      "run",
      "--provider",
      "openai",
      "--base-url",
      server.openaiBaseUrl,
      "--workspace",
      workspace,
      "--approve",
      "read",
      "--protocol",
      protocol,
      "--model-info",
      JSON.stringify(modelInfo),
      "--no-history",
      "--no-checkpoints",
      ...flags,
      TASK,
    ],
    { OPENAI_API_KEY: "sk-context" },
  );
  return { ...result, requests: server.requests.slice(before) };
}

describe.runIf(process.platform !== "win32")("kiln run with a small context window", () => {
  it("condenses the older turns when the window fills: the next request carries the summary, not the old turns", async () => {
    protocol = "xml";
    const { code, stderr, stdout, requests } = await kiln([]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("✓ Read all six.");
    expect(stderr).toContain("[Kiln is condensing the conversation: automatic: the conversation reached");
    const at = requests.findIndex(isSummary);
    expect(at).toBeGreaterThan(2);
    expect(requests.filter(isSummary)).toHaveLength(1);
    expect(JSON.stringify(messagesOf(requests[at]!))).toContain("MARK1 row 0");
    const after = JSON.stringify(messagesOf(requests[at + 1]!));
    expect(after).toContain(TASK);
    expect(after).toContain(`<conversation_summary>\\n${SUMMARY}\\n</conversation_summary>`);
    expect(after).not.toContain("MARK1 row");
    // The request before the condense still had everything.
    expect(JSON.stringify(messagesOf(requests[at - 1]!))).toContain("MARK1 row");
  });

  it("with --condense-percent 0 hides the oldest turns instead: the task stays, every tool result keeps its call", async () => {
    protocol = "native";
    const { code, stderr, requests } = await kiln(["--condense-percent", "0"]);
    expect(code, stderr).toBe(0);
    expect(requests.some(isSummary)).toBe(false);
    const last = messagesOf(requests.at(-1)!);
    expect(last[1]).toMatchObject({ role: "user", content: TASK });
    expect(last[2]!.role).toBe("assistant");
    expect(JSON.stringify(last)).not.toContain("MARK1 row");
    expect(JSON.stringify(last)).toContain(`MARK${FILES} row`);
    for (const request of requests) {
      const messages = messagesOf(request);
      messages.forEach((m, i) => {
        if (m.role !== "tool") return;
        const call = messages
          .slice(0, i)
          .reverse()
          .find((p) => p.role === "assistant");
        expect(call?.tool_calls?.map((c) => c.id)).toContain(m.tool_call_id);
      });
    }
  });

  it("--max-tokens stops the task before the request that would cross it, says why, and exits 3", async () => {
    protocol = "xml";
    usage = { input: 3_000, output: 3_000 };
    const { code, stderr, requests } = await kiln(["--max-tokens", "14000"], { contextWindow: 100_000, maxOutputTokens: 1_000 });
    expect(code).toBe(3);
    expect(requests).toHaveLength(2);
    expect(stderr).toMatch(/kiln: The task has used 12,000 tokens; the next request could take up to [\d,]+ more, over its budget of 14,000\. Raise the budget to go on\./);
  });

  it("refuses a budget or model info that makes no sense, with a usage error", async () => {
    const bad = await runCli(cli, ["run", "--max-tokens", "lots", "task"], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-tokens must be a whole number of at least 1 (got "lots")');
    const info = await runCli(cli, ["run", "--model-info", '{"contextWindow":-5}', "task"], {});
    expect(info.code).toBe(2);
    expect(info.stderr).toContain("contextWindow: must be a positive whole number of tokens");
  });
});
