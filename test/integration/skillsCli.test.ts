import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer, type RecordedRequest } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

let server: FakeModelServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const systemOf = (request: RecordedRequest) => (request.body.system as { text: string }[]).map((block) => block.text).join("");

describe("kiln run: skills", () => {
  it("lists the project's and ~/.kilocode/skills' skills by description, and use_skill gives the model the body and files", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "kiln-skills-ws-"));
    const home = mkdtempSync(join(tmpdir(), "kiln-skills-home-"));
    put(
      join(workspace, ".kilocode/skills/release-notes/SKILL.md"),
      "---\nname: release-notes\ndescription: Write release notes from CHANGELOG.md\n---\n\nGroup the entries by Added, Fixed, Removed.\n",
    );
    put(join(workspace, ".kilocode/skills/release-notes/template.md"), "# Release {version}\n");
    put(join(home, ".kilocode/skills/commit-style/SKILL.md"), "---\nname: commit-style\ndescription: Commit messages in the team's style\n---\n\nGLOBAL BODY\n");
    put(join(workspace, ".claude/skills/broken/SKILL.md"), "no front matter\n");
    const before = server.requests.length;
    server.enqueue({ text: "<use_skill>\n<name>release-notes</name>\n</use_skill>" });
    server.enqueue({ text: "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" });
    const result = await runCli(cli, ["run", "--provider", "anthropic", "--base-url", server.anthropicBaseUrl, "--workspace", workspace, "--mode", "ask", "Write the release notes"], {
      ANTHROPIC_API_KEY: "sk-skills",
      HOME: home,
    });
    expect(result.code).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(2);
    const system = systemOf(requests[0]!);
    expect(system).toContain("- commit-style: Commit messages in the team's style\n- release-notes: Write release notes from CHANGELOG.md");
    expect(system).not.toMatch(/GLOBAL BODY|Group the entries/);
    const second = JSON.stringify(requests[1]!.body.messages);
    expect(second).toContain("Group the entries by Added, Fixed, Removed.");
    expect(second).toContain("- .kilocode/skills/release-notes/template.md");
    // A broken skill is said once on stderr, naming the file and why; the run goes on.
    expect(result.stderr.match(/skills: .*broken\/SKILL\.md: not loaded as a skill: it does not start with --- front matter/g)).toHaveLength(1);
  });
});
