import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { buildCli, runCli, type CliRun } from "./cliProcess";

let server: FakeModelServer;
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  server = await new FakeModelServer({ apiKey: "sk-cli" }).start();
});
afterAll(() => server.close());

const run = (args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun> => runCli(cli, args, env, { stdin });

describe("headless CLI", () => {
  it("streams the reply of the same agent core to stdout", async () => {
    server.enqueue({ text: "Files look fine to me." });
    const result = await run(["chat", "--provider", "openai", "--base-url", server.openaiBaseUrl, "check the files"], { OPENAI_API_KEY: "sk-cli" });
    expect(result).toMatchObject({ code: 0, stdout: "Files look fine to me.\n" });
    expect(server.requests.at(-1)!.body.messages).toContainEqual({ role: "user", content: "check the files" });
  });

  it("reads the prompt from stdin and prints JSON events, one a line", async () => {
    server.enqueue({ text: "from stdin" });
    const result = await run(["chat", "--provider", "anthropic", "--base-url", server.anthropicBaseUrl, "--json"], { ANTHROPIC_API_KEY: "sk-cli" }, "question on stdin");
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; item?: { role: string; text?: string } });
    expect(events.filter((e) => e.type === "appended").map((e) => e.item)).toMatchObject([
      { role: "user", text: "question on stdin" },
      { role: "assistant", text: expect.stringMatching(/^from/) },
    ]);
    expect(events.some((e) => e.type === "textDelta")).toBe(true);
  });

  it("exits 1 with a readable message when the key is missing or wrong", async () => {
    const none = await run(["chat", "--provider", "openai", "--base-url", server.openaiBaseUrl, "hi"], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No OpenAI API key is set/);
    const wrong = await run(["chat", "--provider", "openai", "--base-url", server.openaiBaseUrl, "hi"], { OPENAI_API_KEY: "sk-bad" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/rejected the API key/);
    expect(wrong.stderr).not.toContain("sk-bad");
  });

  it("exits 2 with usage on bad arguments", async () => {
    const result = await run(["chat", "--provider", "palm", "hi"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--provider must be one of/);
  });
});
