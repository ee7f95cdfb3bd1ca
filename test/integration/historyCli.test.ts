import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliWithModelServer, runCli, xmlTurn } from "./cliProcess";

const ctx = cliWithModelServer();
const xml = xmlTurn;

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(process.platform !== "win32")("task history in the CLI", () => {
  const provider = () => ["--provider", "openai", "--base-url", ctx.server.openaiBaseUrl];

  it("a task killed mid-command is resumed from history: the conversation goes on and nothing runs twice", { timeout: 60_000 }, async () => {
    const workspace = mkdtempSync(join(tmpdir(), "kiln-resume-ws-"));
    const historyDir = mkdtempSync(join(tmpdir(), "kiln-resume-history-"));
    // The command leaves a mark, then hangs until the process is killed.
    const command = `echo ran >> marks.txt && node -e "setTimeout(() => {}, 60000)"`;
    ctx.server.clearQueue();
    ctx.server.enqueue(xml("write_to_file", { path: "notes.md", content: "first draft" }), xml("execute_command", { command }));
    let stderr = "";
    let child: ChildProcess | undefined;
    const run = runCli(
      ctx.cli,
      ["run", ...provider(), "--workspace", workspace, "--approve", "edit,command", "--history-dir", historyDir, "Draft the notes, then run the slow step"],
      { OPENAI_API_KEY: "sk-h" },
      {
        onStart: (started) => {
          child = started;
          started.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
        },
      },
    );
    const id = await until("the task id", () => /\[task ([^:\s]+)/.exec(stderr)?.[1]);
    // Killed, as a crash would, once the command runs and history has saved its card as running.
    const uiFile = join(historyDir, id, "ui_messages.json");
    await until("the running command in the history", () => {
      if (!existsSync(join(workspace, "marks.txt")) || !existsSync(uiFile)) return undefined;
      const ui = JSON.parse(readFileSync(uiFile, "utf8")) as { role: string; name?: string; status?: string }[];
      return ui.some((i) => i.role === "tool" && i.name === "execute_command" && i.status === "running") ? true : undefined;
    });
    child!.kill("SIGKILL");
    await run;

    const listed = await runCli(ctx.cli, ["history", "--history-dir", historyDir], {});
    expect(listed.stdout).toContain(`${id}  `);
    expect(listed.stdout, listed.stdout).toMatch(/interrupted\s+code\s+\d+ tokens( \$[\d.]+)?\s+Draft the notes, then run the slow step/);

    const before = ctx.server.requests.length;
    ctx.server.enqueue(xml("attempt_completion", { result: "Resumed and done." }));
    const resumed = await runCli(ctx.cli, ["resume", id, ...provider(), "--history-dir", historyDir, "--approve", "edit,command"], { OPENAI_API_KEY: "sk-h" });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Resumed and done.");
    const sent = JSON.stringify(ctx.server.requests[before]!.body.messages);
    // The whole earlier conversation, the interrupted call answered, and the resume note.
    expect(sent).toMatch(/Draft the notes, then run the slow step[\s\S]*write_to_file[\s\S]*execute_command[\s\S]*resumed the task after it stopped/);
    expect(readFileSync(join(workspace, "marks.txt"), "utf8")).toBe("ran\n");
    expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("first draft\n");
    const after = await runCli(ctx.cli, ["history", "--json", "--history-dir", historyDir], {});
    const entries = JSON.parse(after.stdout) as { id: string; status: string }[];
    expect(entries.find((e) => e.id === id)?.status).toBe("completed");
  });

  it("refuses to resume a task that is not there, and a task that needs an answer without one", async () => {
    const historyDir = mkdtempSync(join(tmpdir(), "kiln-resume-history-"));
    const missing = await runCli(ctx.cli, ["resume", "no-such-task", ...provider(), "--history-dir", historyDir], { OPENAI_API_KEY: "sk-h" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot resume no-such-task: .*no-such-task.*cannot be read/);

    const workspace = mkdtempSync(join(tmpdir(), "kiln-resume-ws-"));
    writeFileSync(join(workspace, "a.txt"), "a");
    ctx.server.clearQueue();
    ctx.server.enqueue(xml("ask_followup_question", { question: "Which file?" }));
    let stderr = "";
    await runCli(
      ctx.cli,
      ["run", ...provider(), "--workspace", workspace, "--history-dir", historyDir, "Fix a file"],
      { OPENAI_API_KEY: "sk-h" },
      { onStart: (c) => c.stderr!.on("data", (d: Buffer) => (stderr += d.toString())) },
    );
    const id = /\[task ([^:\s]+)/.exec(stderr)![1]!;
    const noAnswer = await runCli(ctx.cli, ["resume", id, ...provider(), "--history-dir", historyDir], { OPENAI_API_KEY: "sk-h" });
    expect(noAnswer.code).toBe(2);
    expect(noAnswer.stderr).toContain("the task is waiting for an answer; give a message to go on with it");

    const before = ctx.server.requests.length;
    ctx.server.enqueue(xml("attempt_completion", { result: "Fixed a.txt." }));
    const answered = await runCli(ctx.cli, ["resume", id, ...provider(), "--history-dir", historyDir, "a.txt"], { OPENAI_API_KEY: "sk-h" });
    expect(answered.code, answered.stderr).toBe(0);
    expect(JSON.stringify(ctx.server.requests[before]!.body.messages)).toMatch(/Which file\?[\s\S]*<answer>\\na\.txt\\n<\/answer>/);
  });
});
