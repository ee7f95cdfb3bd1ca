import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

let server: FakeModelServer;
let cli: string;
let workspace: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-search-ws-"));
  mkdirSync(join(workspace, "src"));
  mkdirSync(join(workspace, "dist"));
  writeFileSync(join(workspace, ".gitignore"), "dist/\n");
  writeFileSync(join(workspace, ".kilocodeignore"), "src/secret.ts\n");
  writeFileSync(join(workspace, "src", "greet.ts"), "export class Greeter {\n  greet(name: string) {\n    return `Hello, ${name}!`;\n  }\n}\n");
  writeFileSync(join(workspace, "src", "util.py"), "def greet_all(names):\n    return [n for n in names]\n");
  writeFileSync(join(workspace, "src", "secret.ts"), "export function greetSecret() {}\n");
  writeFileSync(join(workspace, "dist", "greet.js"), "function greet() {}\n");
});

type Call = { name: string; args: Record<string, string | number | boolean> };

function step(protocol: "xml" | "native", call: Call): ScriptedTurn {
  if (protocol === "native") return { text: "", toolCalls: [{ id: `call_${call.name}`, name: call.name, arguments: call.args }] };
  const params = Object.entries(call.args)
    .map(([k, v]) => `<${k}>${String(v)}</${k}>`)
    .join("\n");
  return { text: `<${call.name}>\n${params}\n</${call.name}>` };
}

const sent = (request: RecordedRequest): string => JSON.stringify(request.body.messages);

describe("the bundled CLI", () => {
  it("carries rg and the tree-sitter wasm files beside its bundle", () => {
    const folder = dirname(cli);
    expect(existsSync(join(folder, "bin", process.platform === "win32" ? "rg.exe" : "rg"))).toBe(true);
    for (const wasm of ["web-tree-sitter.wasm", "tree-sitter-typescript.wasm", "tree-sitter-python.wasm"]) expect(existsSync(join(folder, "wasm", wasm))).toBe(true);
  });

  describe.each([
    ["anthropic", "xml"],
    ["openai", "native"],
  ] as const)("kiln run (%s, %s)", (kind, protocol) => {
    it("searches, lists definitions, reads instructions and completes", async () => {
      const before = server.requests.length;
      server.enqueue(
        step(protocol, { name: "search_files", args: { path: ".", regex: "greet\\w*" } }),
        step(protocol, { name: "list_code_definition_names", args: { path: "src" } }),
        step(protocol, { name: "fetch_instructions", args: { task: "create_mode" } }),
        step(protocol, { name: "attempt_completion", args: { result: "Mapped the greeters." } }),
      );
      const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
      const env = { [kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-search" };
      const result = await runCli(cli, ["run", "--provider", kind, "--base-url", baseUrl, "--workspace", workspace, "--protocol", protocol, "--approve", "read", "Map the greeters"], env);
      expect(result.stderr).not.toMatch(/kiln: /);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("✓ Mapped the greeters.");
      const requests = server.requests.slice(before);
      expect(requests).toHaveLength(4);
      const searched = sent(requests[1]!);
      expect(searched).toContain("# src/greet.ts");
      expect(searched).toContain("2:  greet(name: string) {");
      expect(searched).toContain("# src/util.py");
      expect(searched).not.toContain("dist/greet.js");
      expect(searched).not.toContain("greetSecret");
      const defined = sent(requests[2]!);
      expect(defined).toContain("src/greet.ts\\n1 | export class Greeter {\\n2 |   greet(name: string) {");
      expect(defined).toContain("src/util.py\\n1 | def greet_all(names):");
      expect(defined).not.toContain("secret.ts");
      expect(sent(requests[3]!)).toContain("roleDefinition");
    });
  });
});
