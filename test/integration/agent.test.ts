import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli, type CliRun } from "./cliProcess";

let server: FakeModelServer;
let cli: string;
let workspace: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-agent-ws-"));
  mkdirSync(join(workspace, "src"));
  writeFileSync(join(workspace, "src", "greet.ts"), "export const greet = (name: string) => `Hello, ${name}!`;\n");
});

function kiln(kind: "anthropic" | "openai", args: string[], onStart?: (child: ChildProcess) => void): Promise<CliRun> {
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const env = { [kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-agent" };
  return runCli(cli, ["run", "--provider", kind, "--base-url", baseUrl, "--workspace", workspace, ...args], env, { onStart });
}

type Call = { name: string; args: Record<string, string | number | boolean> };

/** The same scripted step in either protocol: XML in the text, or a native tool call. */
function step(protocol: "xml" | "native", text: string, call: Call): ScriptedTurn {
  if (protocol === "native") return { text, toolCalls: [{ id: `call_${call.name}_${Math.random().toString(36).slice(2, 7)}`, name: call.name, arguments: call.args }] };
  const params = Object.entries(call.args)
    .map(([k, v]) => `<${k}>${String(v)}</${k}>`)
    .join("\n");
  return { text: `${text}\n<${call.name}>\n${params}\n</${call.name}>` };
}

/** Everything the model was sent in one request, as text, to look for tool results in. */
function sent(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages);
}

describe.each([
  ["anthropic", "xml"],
  ["anthropic", "native"],
  ["openai", "xml"],
  ["openai", "native"],
] as const)("kiln run (%s, %s)", (kind, protocol) => {
  it("lists, reads, writes and completes: the workspace holds the new file", async () => {
    const before = server.requests.length;
    server.enqueue(
      step(protocol, "Let me look around.", { name: "list_files", args: { path: ".", recursive: true } }),
      step(protocol, "Reading the greeter.", { name: "read_file", args: { path: "src/greet.ts" } }),
      step(protocol, "Writing a test.", {
        name: "write_to_file",
        args: { path: "test/greet.test.ts", content: 'import { greet } from "../src/greet";\nconsole.assert(greet("Kiln") === "Hello, Kiln!");\n', line_count: 2 },
      }),
      step(protocol, "", { name: "attempt_completion", args: { result: "Added test/greet.test.ts." } }),
    );
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read,edit", "Add a test for greet"]);
    expect(result.stderr).not.toMatch(/kiln: /);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ Added test/greet.test.ts.");
    expect(readFileSync(join(workspace, "test", "greet.test.ts"), "utf8")).toContain('greet("Kiln")');
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(4);
    expect(sent(requests[1]!)).toContain("src/greet.ts");
    expect(sent(requests[2]!)).toContain("1 | export const greet");
    expect(sent(requests[3]!)).toContain("Created test/greet.test.ts (2 lines).");
    if (protocol === "native") {
      expect(requests[0]!.body.tools).toBeDefined();
      if (kind === "openai") expect(sent(requests[1]!)).toContain('"role":"tool"');
      else expect(sent(requests[1]!)).toContain('"type":"tool_result"');
    } else {
      expect(JSON.stringify(requests[0]!.body.system ?? requests[0]!.body.messages)).toContain("<read_file>");
      expect(requests[0]!.body.tools).toBeUndefined();
    }
  });

  it("a denied write changes nothing and the model hears about it", async () => {
    const before = server.requests.length;
    server.enqueue(
      step(protocol, "", { name: "write_to_file", args: { path: "src/greet.ts", content: "overwritten\n" } }),
      step(protocol, "", { name: "attempt_completion", args: { result: "Could not write: denied." } }),
    );
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read", "Overwrite greet"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(workspace, "src", "greet.ts"), "utf8")).toContain("Hello");
    expect(sent(server.requests[before + 1]!)).toContain("The user denied write_to_file");
  });

  it("a malformed call gets an error the model can act on, and the fixed call works", async () => {
    const before = server.requests.length;
    server.enqueue(
      step(protocol, "", { name: "read_file", args: { path: "src/greet.ts", start_line: "first" } }),
      step(protocol, "", { name: "read_file", args: { path: "src/greet.ts", start_line: 1 } }),
      step(protocol, "", { name: "attempt_completion", args: { result: "Read it." } }),
    );
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read", "Read greet"]);
    expect(result.code).toBe(0);
    expect(sent(server.requests[before + 1]!)).toContain('Parameter <start_line> must be a whole number; got \\"first\\"');
    expect(sent(server.requests[before + 2]!)).toContain("1 | export const greet");
  });
});

describe("kiln run recovers", () => {
  it("from a 429, waiting as asked, then finishes", async () => {
    server.enqueue({ fault: { type: "http", status: 429, retryAfter: "0" } }, step("xml", "", { name: "attempt_completion", args: { result: "Done after the wait." } }));
    const result = await kiln("anthropic", ["Quick task"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("retrying in 0.0 s (1 of 3)");
    expect(result.stdout).toContain("✓ Done after the wait.");
  });

  it("from a stream cut in the middle of a tool call, without running the half call", async () => {
    server.enqueue(
      { text: "<write_to_file><path>half.txt</path><content>one two three four five six", fault: { type: "cut", afterChunks: 4 } },
      step("native", "", { name: "attempt_completion", args: { result: "Recovered." } }),
    );
    const result = await kiln("openai", ["--approve", "all", "Write"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(workspace, "half.txt"))).toBe(false);
    expect(result.stdout).toContain("✓ Recovered.");
  });
});

describe("kiln run with a person at the terminal", () => {
  it("takes the answer to a question and a yes to a write from the terminal, then finishes", async () => {
    server.enqueue(
      { text: "<ask_followup_question><question>Which name?</question></ask_followup_question>" },
      step("xml", "", { name: "write_to_file", args: { path: "name.txt", content: "Ada\n", line_count: 1 } }),
      step("xml", "", { name: "attempt_completion", args: { result: "Saved the name." } }),
    );
    const before = server.requests.length;
    const command = [process.execPath, cli, "run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "Save a name"].map((a) => `'${a}'`).join(" ");
    // `script` gives the CLI a real terminal, as a person running it has.
    // History and checkpoints go to temp folders, never to the runner's home.
    const state = { KILN_HISTORY_DIR: mkdtempSync(join(tmpdir(), "kiln-tty-history-")), KILN_CHECKPOINT_DIR: mkdtempSync(join(tmpdir(), "kiln-tty-checkpoints-")) };
    const child = spawn("script", ["-qec", command, "/dev/null"], { env: { ...process.env, ...state, OPENAI_API_KEY: "sk-tty", TERM: "dumb" } });
    let output = "";
    const answered = new Set<string>();
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      if (output.includes("Your answer") && !answered.has("question")) {
        answered.add("question");
        child.stdin.write("Ada\n");
      }
      if (output.includes("Approve?") && !answered.has("write")) {
        answered.add("write");
        child.stdin.write("y\n");
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(output).toContain("✓ Saved the name.");
    expect(code).toBe(0);
    expect(readFileSync(join(workspace, "name.txt"), "utf8")).toBe("Ada\n");
    expect(sent(server.requests[before + 1]!)).toContain("<answer>\\nAda\\n</answer>");
  });
});

describe("kiln run with a custom mode from .kilocodemodes", () => {
  it("uses its role and instructions, and holds it to its fileRegex", async () => {
    writeFileSync(
      join(workspace, ".kilocodemodes"),
      "customModes:\n  - slug: docs\n    name: Docs\n    roleDefinition: You write docs.\n    customInstructions: Keep it short.\n    groups:\n      - read\n      - - edit\n        - fileRegex: \\.md$\n",
    );
    const before = server.requests.length;
    server.enqueue(
      step("xml", "", { name: "write_to_file", args: { path: "src/x.ts", content: "nope" } }),
      step("xml", "", { name: "write_to_file", args: { path: "GUIDE.md", content: "# Guide" } }),
      step("xml", "", { name: "attempt_completion", args: { result: "Wrote the guide." } }),
    );
    const result = await kiln("openai", ["--mode", "docs", "--approve", "read,edit", "Write a guide"]);
    expect(result.code).toBe(0);
    const system = JSON.stringify((server.requests[before]!.body.messages as unknown[])[0]);
    expect(system).toContain("You write docs.");
    expect(system).toContain("Keep it short.");
    expect(sent(server.requests[before + 1]!)).toContain("Docs mode may edit only files matching");
    expect(sent(server.requests[before + 1]!)).toContain("Modes that may: code, debug (switch_mode, or new_task for a subtask).");
    expect(existsSync(join(workspace, "src", "x.ts"))).toBe(false);
    expect(readFileSync(join(workspace, "GUIDE.md"), "utf8")).toBe("# Guide\n");
  });

  it("in XML, a call to a tool outside the mode is refused by name, not taken for plain text", async () => {
    rmSync(join(workspace, ".kilocodemodes"), { force: true });
    const before = server.requests.length;
    server.enqueue(step("xml", "", { name: "execute_command", args: { command: "echo hi" } }), step("xml", "", { name: "attempt_completion", args: { result: "Explained instead." } }));
    const result = await kiln("openai", ["--mode", "ask", "--approve", "read,command", "Run echo"]);
    expect(result.code).toBe(0);
    expect(sent(server.requests[before + 1]!)).toContain("execute_command (command group) is not available in Ask mode. Modes that may: code, debug");
  });

  it("a bad mode file is reported and the built-in modes still work", async () => {
    writeFileSync(join(workspace, ".kilocodemodes"), "customModes:\n  - slug: broken\n    name: Broken\n");
    server.enqueue(step("xml", "", { name: "attempt_completion", args: { result: "ok" } }));
    const result = await kiln("openai", ["--mode", "code", "Hi"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\.kilocodemodes: mode "broken": roleDefinition: /);
  });
});

describe("kiln run with the task tools", () => {
  it("keeps a todo list, runs a subtask in another mode, switches mode, and finishes", async () => {
    const before = server.requests.length;
    server.enqueue(
      step("native", "", { name: "update_todo_list", args: { todos: "- [-] write notes\n- [ ] review" } }),
      step("native", "", { name: "new_task", args: { mode: "code", message: "Write notes.md with one line: hello" } }),
      step("native", "", { name: "write_to_file", args: { path: "notes.md", content: "hello\n" } }),
      step("native", "", { name: "attempt_completion", args: { result: "notes.md written" } }),
      step("native", "", { name: "switch_mode", args: { mode_slug: "ask", reason: "only reviewing now" } }),
      step("native", "", { name: "update_todo_list", args: { todos: "- [x] write notes\n- [x] review" } }),
      step("native", "", { name: "attempt_completion", args: { result: "Notes written and reviewed." } }),
    );
    const result = await kiln("anthropic", ["--protocol", "native", "--mode", "orchestrator", "--approve", "read,edit", "Write and review notes"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("hello\n");
    expect(result.stderr).toContain("- [-] write notes\n- [ ] review");
    expect(result.stderr).toContain("[mode: ask]");
    const requests = server.requests.slice(before);
    expect(sent(requests[4]!)).toContain("The subtask (Code mode) completed with this result:\\nnotes.md written");
    const tools = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((t) => t.name);
    expect(tools(requests[0]!)).not.toContain("write_to_file");
    expect(tools(requests[2]!)).toContain("write_to_file");
    expect(tools(requests[5]!)).not.toContain("write_to_file");
    expect(result.stdout).toContain("✓ Notes written and reviewed.");
  });
});

describe("kiln run stops", () => {
  it("at the request limit, with exit code 3", async () => {
    server.enqueue(step("xml", "", { name: "list_files", args: { path: "." } }), step("xml", "", { name: "list_files", args: { path: "src" } }));
    const result = await kiln("openai", ["--approve", "read", "--max-requests", "2", "Explore"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("limit of 2 requests");
    expect(server.pending).toBe(0);
  });

  it("when a question needs a person and there is no terminal, printing the question", async () => {
    server.enqueue({ text: "<ask_followup_question><question>Which file?</question><follow_up><suggest>src/greet.ts</suggest><suggest>README.md</suggest></follow_up></ask_followup_question>" });
    const result = await kiln("anthropic", ["Fix the bug"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("? Which file?\n  - src/greet.ts\n  - README.md");
  });

  it("on Ctrl+C mid-stream, with nothing written", async () => {
    server.enqueue({ text: `Working on it. ${"thinking ".repeat(200)}<write_to_file><path>late.txt</path><content>x</content></write_to_file>`, chunkDelayMs: 20 });
    // Interrupted once the reply is streaming (its first words are out), however long the CLI took to start.
    const result = await kiln("openai", ["--approve", "all", "Slow task"], (child) => child.stdout!.once("data", () => child.kill("SIGINT")));
    expect(result.code).toBe(3);
    expect(existsSync(join(workspace, "late.txt"))).toBe(false);
  });

  it("when the same call repeats three times", async () => {
    const same = step("xml", "", { name: "list_files", args: { path: "src" } });
    server.enqueue(same, same, same);
    const result = await kiln("openai", ["--approve", "read", "Loop"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("was called 3 times in a row with the same parameters");
  });
});
