import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

let server: FakeModelServer;
let cli: string;
let workspace: string;
let home: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-rules-ws-"));
  home = mkdtempSync(join(tmpdir(), "kiln-rules-home-"));
});

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const DONE = { text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" };
/** Anthropic's system prompt goes as text blocks (the last marked for prompt caching). */
const systemOf = (request: RecordedRequest) => (request.body.system as { text: string }[]).map((block) => block.text).join("");

/** One request to the fake Anthropic endpoint, with HOME pointing at a temp folder (the default global rules). */
async function run(args: string[]) {
  const before = server.requests.length;
  server.enqueue(DONE);
  const result = await runCli(cli, ["run", "--provider", "anthropic", "--base-url", server.anthropicBaseUrl, "--workspace", workspace, ...args, "Do it"], {
    ANTHROPIC_API_KEY: "sk-rules",
    HOME: home,
  });
  const requests = server.requests.slice(before);
  expect(requests).toHaveLength(1);
  return { ...result, system: systemOf(requests[0]!) };
}

describe("kiln run: rules", () => {
  it("sends the project's rules, AGENTS.md, the mode's folder and ~/.kilocode/rules in the system prompt", async () => {
    put(join(workspace, ".kilocode/rules/style.md"), "Use two spaces for indentation.\n");
    put(join(workspace, ".kilocode/rules-architect/plans.md"), "ARCHITECT ONLY");
    put(join(workspace, ".kilocode/rules-code/tests.md"), "Add a test with every fix.");
    put(join(workspace, "AGENTS.md"), "Run npm test before finishing.");
    put(join(home, ".kilocode/rules/global.md"), "Answer in English.");
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/kiln: /);
    const section = result.system.slice(result.system.indexOf("# User's custom instructions"));
    const headings = section.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      `## ${join(home, ".kilocode/rules/global.md")} (global)`,
      "## .kilocode/rules/style.md (project)",
      "## AGENTS.md (project)",
      "## .kilocode/rules-code/tests.md (project, code mode)",
    ]);
    expect(section).toContain("## .kilocode/rules/style.md (project)\n\nUse two spaces for indentation.");
    expect(section).toContain("Answer in English.");
    expect(section).not.toContain("ARCHITECT ONLY");
  });

  it("--mode picks that mode's rules; --global-rules names another global folder", async () => {
    put(join(workspace, ".kilocode/rules-architect/plans.md"), "ARCHITECT ONLY");
    put(join(home, ".kilocode/rules/global.md"), "DEFAULT GLOBAL");
    const other = join(home, "team", "rules");
    put(join(other, "team.md"), "TEAM RULE");
    put(join(home, "team", "rules-architect", "a.md"), "TEAM ARCHITECT RULE");
    const result = await run(["--mode", "architect", "--global-rules", other]);
    expect(result.code).toBe(0);
    expect(result.system).toContain("## .kilocode/rules-architect/plans.md (project, architect mode)\n\nARCHITECT ONLY");
    expect(result.system).toContain(`## ${join(other, "team.md")} (global)\n\nTEAM RULE`);
    expect(result.system).toContain(`## ${join(home, "team", "rules-architect", "a.md")} (global, architect mode)\n\nTEAM ARCHITECT RULE`);
    expect(result.system).not.toContain("DEFAULT GLOBAL");
  });

  it("without rule files the prompt has no rules section; a bad file is reported on stderr and the task still runs", async () => {
    expect((await run([])).system).not.toContain("# User's custom instructions");
    put(join(workspace, ".clinerules"), "\0binary\0");
    put(join(workspace, ".kilocoderules"), "LEGACY KILO RULE");
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`kiln: rules: ${join(workspace, ".clinerules")}: looks like a binary file, not a rule; left out`);
    expect(result.system).toContain("## .kilocoderules (project)\n\nLEGACY KILO RULE");
  });
});
