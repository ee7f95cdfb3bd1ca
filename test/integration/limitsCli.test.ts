import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli } from "./cliProcess";

let server: FakeModelServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer().start();
});
afterAll(() => server.close());

function xml(name: string, args: Record<string, string | number>): ScriptedTurn {
  return {
    text: `Next.\n<${name}>\n${Object.entries(args)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join("\n")}\n</${name}>`,
  };
}

describe.runIf(process.platform !== "win32")("kiln run with limit flags", () => {
  it("--read-max-lines and --output-max-chars limit what the model is sent", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "kiln-limits-ws-"));
    writeFileSync(join(workspace, "ten.txt"), Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join("\n"));
    const before = server.requests.length;
    server.enqueue(xml("read_file", { path: "ten.txt" }), xml("execute_command", { command: "seq 1 3000" }), xml("attempt_completion", { result: "Done." }));
    const result = await runCli(
      cli,
      ["run", "--provider", "openai", "--base-url", server.openaiBaseUrl, "--workspace", workspace, "--approve", "read,command", "--read-max-lines", "3", "--output-max-chars", "2000", "Look"],
      { OPENAI_API_KEY: "sk-limits" },
    );
    expect(result.code, result.stderr).toBe(0);
    const afterRead = JSON.stringify(server.requests[before + 1]!.body.messages);
    expect(afterRead).toContain("3 | row 3\\n[Showing lines 1-3 of 10. Read on with start_line 4.]");
    expect(afterRead).not.toContain("row 4");
    const afterCommand = JSON.stringify(server.requests[before + 2]!.body.messages).slice(afterRead.length - 20);
    expect(afterCommand).toMatch(/characters cut from the middle of the output/);
    expect(afterCommand).toContain("\\n3000");
    expect(afterCommand).not.toContain("\\n1500\\n");
  });

  it("refuses a limit out of its bounds with a usage error (exit 2)", async () => {
    const result = await runCli(cli, ["run", "--result-max-chars", "5", "task"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--result-max-chars must be a whole number from 1000 to 10000000 (got "5")');
  });
});
