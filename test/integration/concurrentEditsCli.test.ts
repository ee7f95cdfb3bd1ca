import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { buildCli, runCli, xmlTurn } from "./cliProcess";

/**
 * Two `kiln run` processes editing one file at the same moment, each its own line: every trial must
 * end with both edits in the file, or with the one that could not be applied reported as such —
 * never both reporting success while one edit is gone.
 */
const TRIALS = 8;
const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);

let cli: string;
const servers: FakeModelServer[] = [];

beforeAll(async () => {
  cli = await buildCli();
  for (let i = 0; i < 2 * TRIALS; i++) servers.push(await new FakeModelServer().start());
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function editTask(server: FakeModelServer, workspace: string, search: string, replace: string) {
  server.enqueue(xmlTurn("search_and_replace", { path: "shared.txt", search, replace }), xmlTurn("attempt_completion", { result: "Done." }));
  return runCli(cli, ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "--approve", "read,edit", "--json", `Change ${search}`], {
    OPENAI_API_KEY: "sk-race",
  });
}

/** What the model was told about its edit: the tool result after its search_and_replace. */
function toldModel(server: FakeModelServer): string {
  const messages = (server.requests.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
}

describe.runIf(process.platform !== "win32")("two kiln run tasks editing one file", () => {
  it(`keeps both edits in ${TRIALS} trials run at once`, async () => {
    const trials = Array.from({ length: TRIALS }, async (_, t) => {
      const workspace = mkdtempSync(join(tmpdir(), "kiln-race-"));
      writeFileSync(join(workspace, "shared.txt"), `${LINES.join("\n")}\n`);
      const [first, second] = [servers[2 * t]!, servers[2 * t + 1]!];
      const results = await Promise.all([editTask(first, workspace, "line 5", "LINE FIVE"), editTask(second, workspace, "line 35", "LINE THIRTY-FIVE")]);
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const text = readFileSync(join(workspace, "shared.txt"), "utf8");
      // Whatever happened, the model of a task whose edit is not in the file must not have been told it was made.
      const outcome = [
        { made: text.includes("LINE FIVE\n"), told: toldModel(first) },
        { made: text.includes("LINE THIRTY-FIVE\n"), told: toldModel(second) },
      ];
      for (const { made, told } of outcome) if (!made) expect(told).not.toMatch(/Replaced 1 occurrence/);
      return outcome.every((o) => o.made);
    });
    const bothKept = await Promise.all(trials);
    // One file, two lines apart: re-applied to the new content, both edits land every time.
    expect(bothKept).toEqual(Array.from({ length: TRIALS }, () => true));
  }, 120_000);
});
