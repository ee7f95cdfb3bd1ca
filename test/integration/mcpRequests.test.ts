import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpHub } from "../../src/core/mcp/McpHub";
import type { McpProgress } from "../../src/core/mcp/types";
import { McpRequestRefused, type ElicitationAnswer, type ElicitationRequest, type McpClientRequests, type SamplingAnswer, type SamplingRequest } from "../../src/core/mcp/requests";
import type { McpServerConfig } from "../../src/core/mcp/types";
import { silentLogger } from "../fixtures/silentLogger";
import { eventually, everythingMain, serverEntry, startEverythingHttp } from "./mcpEverything";

const root = mkdtempSync(join(tmpdir(), "kiln-mcp-requests-"));

/** Answers as a host would, and keeps what the server asked. */
class ScriptedUser implements McpClientRequests {
  readonly samples: SamplingRequest[] = [];
  readonly forms: ElicitationRequest[] = [];
  readonly signals: AbortSignal[] = [];
  onSample: (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingAnswer> = async () => ({ text: "The answer is four.", model: "fake-model", stopReason: "endTurn" });
  onForm: (request: ElicitationRequest) => Promise<ElicitationAnswer> = async () => ({ action: "decline" });

  sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingAnswer> {
    this.samples.push(request);
    this.signals.push(signal);
    return this.onSample(request, signal);
  }

  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    this.forms.push(request);
    this.signals.push(signal);
    return this.onForm(request);
  }
}

let hub: McpHub | undefined;
let user: ScriptedUser;

/** null: a hub nobody answers requests for (the CLI's). */
async function connect(entry: McpServerConfig, requests: McpClientRequests | null = user): Promise<McpHub> {
  hub = new McpHub({ logger: silentLogger, roots: () => [root], clientInfo: { name: "kiln-test", version: "0.0.0" }, ...(requests ? { requests } : {}) });
  await hub.update([entry]);
  const h = hub;
  await eventually(`${entry.name} to connect`, () => h.servers().find((s) => s.name === entry.name && s.state === "connected"));
  return hub;
}

const toolNames = (h: McpHub, server: string) =>
  h
    .servers()
    .find((s) => s.name === server)
    ?.tools.map((t) => t.name) ?? [];
const stdio = (over: Partial<McpServerConfig> = {}) => serverEntry("everything", { command: process.execPath, args: [everythingMain, "stdio"], ...over });

let http: { child: ChildProcess; url: string };

beforeAll(async () => {
  http = await startEverythingHttp();
});

afterAll(() => {
  http.child.kill();
});

afterEach(async () => {
  await hub?.dispose();
  hub = undefined;
  user = new ScriptedUser();
});
user = new ScriptedUser();

const transports: [string, () => McpServerConfig][] = [
  ["stdio", () => stdio()],
  ["streamable-http", () => serverEntry("everything", { transport: "streamable-http", url: http.url })],
];

describe.each(transports)("sampling and elicitation with server-everything (%s)", (_name, entry) => {
  it("answers the server's sampling request: the callback sees its prompt, the tool result carries the answer", async () => {
    const h = await connect(entry());
    expect(toolNames(h, "everything")).toContain("trigger-sampling-request");
    const result = await h.callTool("everything", "trigger-sampling-request", { prompt: "What is 2+2?", maxTokens: 50 });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("The answer is four.");
    expect(result.text).toContain('"model": "fake-model"');
    const asked = user.samples[0]!;
    expect(asked.server).toBe("everything");
    expect(asked.systemPrompt).toBe("You are a helpful test server.");
    expect(asked.maxTokens).toBe(50);
    expect(asked.messages).toEqual([{ role: "user", parts: [{ type: "text", text: "Resource trigger-sampling-request context: What is 2+2?" }] }]);
  }, 30_000);

  it("a declined sampling request comes back as the tool's error, saying so", async () => {
    user.onSample = async () => {
      throw new McpRequestRefused("The user declined the sampling request.");
    };
    const h = await connect(entry());
    const result = await h.callTool("everything", "trigger-sampling-request", { prompt: "Anything" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("The user declined the sampling request.");
  }, 30_000);

  it("answers the server's form with the user's values, and a declined form as declined", async () => {
    user.onForm = async () => ({ action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7 } });
    const h = await connect(entry());
    const accepted = await h.callTool("everything", "trigger-elicitation-request", {});
    expect(accepted.text).toContain("- Name: Ada Lovelace");
    expect(accepted.text).toContain("- Agreed to terms: true");
    expect(accepted.text).toContain("- Favorite Integer: 7");
    // The whole of server-everything's form is one Kiln can show.
    const form = user.forms[0]!;
    expect(form.message).toBe("Please provide inputs for the following fields:");
    expect(form.fields.find((f) => f.name === "name")).toMatchObject({ kind: "text", required: true, title: "String" });
    expect(form.fields.find((f) => f.name === "titledMultipleSelectEnum")).toMatchObject({
      kind: "multiselect",
      options: [
        { value: "fish-1", label: "Tuna" },
        { value: "fish-2", label: "Salmon" },
        { value: "fish-3", label: "Trout" },
      ],
    });

    user.onForm = async () => ({ action: "decline" });
    const declined = await h.callTool("everything", "trigger-elicitation-request", {});
    expect(declined.text).toContain("User declined to provide the requested information.");
  }, 30_000);
});

describe("roots, progress and capabilities with server-everything over stdio", () => {
  it("answers roots/list with the workspace folders", async () => {
    const h = await connect(stdio());
    const result = await h.callTool("everything", "get-roots-list", {});
    expect(result.text).toContain(pathToFileURL(root).href);
  }, 30_000);

  it("reports a long operation's progress in order, and the call still ends with its result", async () => {
    const h = await connect(stdio());
    const seen: McpProgress[] = [];
    const result = await h.callTool("everything", "trigger-long-running-operation", { duration: 0.3, steps: 3 }, undefined, { onProgress: (p) => seen.push(p) });
    // The SDK handles a notification a tick after a response that arrived with it, so the last
    // step's progress can land after the result; every earlier one comes, in order.
    const expected = [
      [1, 3],
      [2, 3],
      [3, 3],
    ];
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => [p.progress, p.total])).toEqual(expected.slice(0, seen.length));
    expect(result.text).toContain("Long running operation completed");
  }, 30_000);

  it("without anyone to answer, the client declares neither capability: the server offers no sampling or form tools", async () => {
    const h = await connect(stdio(), null);
    const tools = toolNames(h, "everything");
    expect(tools).toContain("get-roots-list");
    expect(tools).not.toContain("trigger-sampling-request");
    expect(tools).not.toContain("trigger-elicitation-request");
    // A host that sets its answers later gets them declared: the server reconnects with them.
    await h.setRequests(user);
    await eventually("the sampling tool after reconnecting", () => toolNames(h, "everything").includes("trigger-sampling-request"));
  }, 30_000);

  it("a request nobody answers is withdrawn when the server's timeout passes, and the call ends", async () => {
    user.onSample = (_request, signal) => new Promise((_ok, fail) => signal.addEventListener("abort", () => fail(signal.reason)));
    const h = await connect(stdio({ timeoutSeconds: 1 }));
    const outcome = await h.callTool("everything", "trigger-sampling-request", { prompt: "Anyone there?" }).then(
      (result) => result.text,
      (err: Error) => err.message,
    );
    expect(outcome).toMatch(/no answer within 1 s|Nobody answered/);
    // Whichever ends first, the call's timeout or the request's own, the card asking the user goes.
    await eventually("the waiting request to be withdrawn", () => user.signals[0]?.aborted);
    expect(String(user.signals[0]!.reason)).toMatch(/Nobody answered the sampling request within 1 s|The call of "trigger-sampling-request" that made the request has ended/);
  }, 30_000);

  it("a request waiting for the user ends with the call that made it, when that call is cancelled", async () => {
    user.onSample = (_request, signal) => new Promise((_ok, fail) => signal.addEventListener("abort", () => fail(signal.reason)));
    const h = await connect(stdio());
    const cancel = new AbortController();
    const call = h.callTool("everything", "trigger-sampling-request", { prompt: "Anyone there?" }, cancel.signal).catch((err: Error) => err.message);
    await eventually("the sampling request", () => user.signals[0]);
    cancel.abort();
    expect(await call).toMatch(/cancelled; the server was told to stop/);
    await eventually("the waiting request to be withdrawn", () => user.signals[0]?.aborted);
    expect(String(user.signals[0]!.reason)).toMatch(/The call of "trigger-sampling-request" that made the request has ended/);
  }, 30_000);
});
