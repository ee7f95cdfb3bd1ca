import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli, type CliRun } from "./cliProcess";

const GREET = "export function greet(name: string): string {\n    return `Hello, ${name}!`;\n}\n";

let server: FakeModelServer;
let cli: string;
let workspace: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-apply-diff-ws-"));
  mkdirSync(join(workspace, "src"));
  writeFileSync(join(workspace, "src", "greet.ts"), GREET);
});

function kiln(kind: "anthropic" | "openai", args: string[]): Promise<CliRun> {
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const env = { [kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-apply-diff" };
  return runCli(cli, ["run", "--provider", kind, "--base-url", baseUrl, "--workspace", workspace, ...args], env);
}

/** One scripted step in either protocol: XML in the reply's text, or a native tool call. */
function step(protocol: "xml" | "native", name: string, args: Record<string, string>): ScriptedTurn {
  if (protocol === "native") return { text: "", toolCalls: [{ id: `call_${name}_${Math.random().toString(36).slice(2, 7)}`, name, arguments: args }] };
  const params = Object.entries(args)
    .map(([k, v]) => `<${k}>\n${v}\n</${k}>`)
    .join("\n");
  return { text: `<${name}>\n${params}\n</${name}>` };
}

const sent = (request: RecordedRequest) => JSON.stringify(request.body.messages);

const diff = (search: string, replace: string) => `<<<<<<< SEARCH\n:start_line:2\n-------\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

describe.each([
  ["anthropic", "xml"],
  ["openai", "xml"],
  ["anthropic", "native"],
  ["openai", "native"],
] as const)("apply_diff through kiln run (%s, %s)", (kind, protocol) => {
  it("reads the file, applies the diff and completes: the file is changed on disk", async () => {
    const before = server.requests.length;
    server.enqueue(
      step(protocol, "read_file", { path: "src/greet.ts" }),
      step(protocol, "apply_diff", { path: "src/greet.ts", diff: diff("    return `Hello, ${name}!`;", "    const text = `Hello, ${name}!`;\n    return text.trim();") }),
      step(protocol, "attempt_completion", { result: "Greeting trimmed." }),
    );
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read,edit", "Trim the greeting"]);
    expect(result.stderr).not.toMatch(/kiln: /);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ Greeting trimmed.");
    expect(readFileSync(join(workspace, "src", "greet.ts"), "utf8")).toBe(GREET.replace("    return `Hello, ${name}!`;", "    const text = `Hello, ${name}!`;\n    return text.trim();"));
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(3);
    expect(sent(requests[1]!)).toContain("2 |     return `Hello, ${name}!`;");
    expect(sent(requests[2]!)).toContain("Applied 1 block to src/greet.ts.");
  });

  it("a diff that does not match leaves the file, and the next request carries the details", async () => {
    const before = server.requests.length;
    server.enqueue(
      step(protocol, "apply_diff", { path: "src/greet.ts", diff: diff("    return `Helo, ${name}!`;", "    return `Hi, ${name}!`;") }),
      step(protocol, "attempt_completion", { result: "Could not apply." }),
    );
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read,edit", "Shorten the greeting"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(workspace, "src", "greet.ts"), "utf8")).toBe(GREET);
    const next = sent(server.requests[before + 1]!);
    expect(next).toContain("Error: src/greet.ts was not changed: the block could not be applied");
    expect(next).toContain("SEARCH was not found in the file. Closest: line 2,");
    expect(next).toContain("line 2: a few characters differ (a typo?)");
  });
});

describe("apply_diff's similarity threshold", () => {
  it("--fuzzy-threshold lets a typo match, and the model is told the match was not exact", async () => {
    const before = server.requests.length;
    server.enqueue(
      step("xml", "apply_diff", { path: "src/greet.ts", diff: diff("    return `Helo, ${name}!`;", "    return `Hi, ${name}!`;") }),
      step("xml", "attempt_completion", { result: "Shortened." }),
    );
    const result = await kiln("openai", ["--fuzzy-threshold", "0.9", "--approve", "read,edit", "Shorten the greeting"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(workspace, "src", "greet.ts"), "utf8")).toBe(GREET.replace("Hello", "Hi"));
    expect(sent(server.requests[before + 1]!)).toMatch(/Block 1 matched .* at 9\d(\.\d)?% similarity, not exactly\./);
  });

  it("refuses a threshold outside 0.8 to 1", async () => {
    const result = await kiln("openai", ["--fuzzy-threshold", "0.5", "Anything"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--fuzzy-threshold must be a number from 0.8 to 1");
  });
});
