import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { makeDocx, makePdf } from "../fixtures/files/documents";
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
  workspace = mkdtempSync(join(tmpdir(), "kiln-file-tools-ws-"));
  mkdirSync(join(workspace, "docs"));
  writeFileSync(join(workspace, "docs", "spec.pdf"), makePdf([["Requirement: greet politely"], ["Appendix: none"]]));
  writeFileSync(join(workspace, "docs", "notes.docx"), makeDocx(["Owner: Ada", "Status: draft"]));
  writeFileSync(join(workspace, "greet.ts"), 'export function greet(name: string) {\r\n  return "Hi " + name;\r\n}\r\n');
  writeFileSync(join(workspace, "obsolete.txt"), "remove me\n");
});

type Protocol = "xml" | "native";
type Call = { name: string; args: Record<string, string | number | boolean> };

function step(protocol: Protocol, call: Call): ScriptedTurn {
  if (protocol === "native") return { toolCalls: [{ id: `call_${call.name}_${Math.random().toString(36).slice(2, 7)}`, name: call.name, arguments: call.args }] };
  const params = Object.entries(call.args)
    .map(([k, v]) => `<${k}>${String(v)}</${k}>`)
    .join("\n");
  return { text: `<${call.name}>\n${params}\n</${call.name}>` };
}

const sent = (request: RecordedRequest) => JSON.stringify(request.body.messages);

function kiln(kind: "anthropic" | "openai", args: string[]): Promise<CliRun> {
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const env = { [kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-files" };
  return runCli(cli, ["run", "--provider", kind, "--base-url", baseUrl, "--workspace", workspace, ...args], env);
}

function script(protocol: Protocol): ScriptedTurn[] {
  return [
    step(protocol, { name: "read_file", args: { path: "docs/spec.pdf" } }),
    step(protocol, { name: "read_file", args: { path: "docs/notes.docx" } }),
    step(protocol, { name: "insert_content", args: { path: "greet.ts", line: 1, content: "// Greets politely, as the spec asks.\n" } }),
    step(protocol, { name: "search_and_replace", args: { path: "greet.ts", search: '"Hi "', replace: '"Hello, "' } }),
    step(protocol, { name: "delete_file", args: { path: "obsolete.txt" } }),
    step(protocol, { name: "attempt_completion", args: { result: "Greeter updated." } }),
  ];
}

describe.each([
  ["anthropic", "xml"],
  ["openai", "native"],
] as const)("kiln run with the file tools (%s, %s)", (kind, protocol) => {
  it("reads a PDF and a DOCX, inserts and replaces; the delete is denied without its category", async () => {
    const before = server.requests.length;
    server.enqueue(...script(protocol));
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read,edit", "Make greet polite"]);
    expect(result.stderr).not.toMatch(/kiln: /);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ Greeter updated.");

    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(6);
    expect(sent(requests[1]!)).toContain("1 | --- page 1 ---\\n2 | Requirement: greet politely\\n3 | --- page 2 ---\\n4 | Appendix: none");
    expect(sent(requests[2]!)).toContain("1 | Owner: Ada\\n2 | \\n3 | Status: draft");
    expect(sent(requests[3]!)).toContain("Inserted 1 line into greet.ts before line 1");
    expect(sent(requests[4]!)).toContain("Replaced 1 occurrence in greet.ts.");
    // Edits are auto-approved, deletes are not: in a run without a terminal that is a denial.
    expect(sent(requests[5]!)).toContain("The user denied delete_file");
    expect(result.stderr).toContain("[Kiln was not allowed to delete obsolete.txt: denied]");

    expect(readFileSync(join(workspace, "greet.ts"), "utf8")).toBe('// Greets politely, as the spec asks.\r\nexport function greet(name: string) {\r\n  return "Hello, " + name;\r\n}\r\n');
    expect(readFileSync(join(workspace, "obsolete.txt"), "utf8")).toBe("remove me\n");
  });
});

describe("kiln run --approve with delete", () => {
  it("lets delete_file run without asking", async () => {
    const before = server.requests.length;
    server.enqueue(step("xml", { name: "delete_file", args: { path: "obsolete.txt" } }), step("xml", { name: "attempt_completion", args: { result: "Cleaned up." } }));
    const result = await kiln("anthropic", ["--approve", "read,edit,delete", "Clean up"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(workspace, "obsolete.txt"))).toBe(false);
    expect(sent(server.requests[before + 1]!)).toContain("Deleted obsolete.txt.");
  });

  it("rejects an unknown --approve word, naming delete among the choices", async () => {
    const result = await kiln("anthropic", ["--approve", "read,remove", "x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown group "remove"');
    expect(result.stderr).toContain("read,edit,command,browser,mcp,delete");
  });
});
