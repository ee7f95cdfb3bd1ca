import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { kilnFrame, openKilnWithFakeModel, runCommand, sendTask, useColorTheme, type Workbench } from "./workbench";

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-a11y"));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's WCAG 2.1 A and AA rules on the Kiln view as it is now: the serious and critical findings, one line each. */
async function violations(): Promise<string[]> {
  frame = await kilnFrame(workbench.page);
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} at ${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`));
  });
}

/** The same state in the light and the dark theme: no serious or critical violation in either. */
async function inBothThemes(what: string): Promise<void> {
  for (const theme of ["Light Modern", "Dark Modern"]) {
    await useColorTheme(workbench.page, theme);
    expect(await violations(), `${what} in ${theme}`).toEqual([]);
  }
  await useColorTheme(workbench.page, "Light Modern");
}

describe("the Kiln view meets WCAG 2.1 AA (axe-core: no serious or critical violations)", () => {
  it("the empty chat", async () => {
    await frame.waitForSelector('[data-testid="empty-chat"]', { timeout: 30_000 });
    await inBothThemes("the empty chat");
  });

  it("a reply while it streams", async () => {
    server.enqueue({ text: `${"A long answer that keeps coming. ".repeat(8)}\n<attempt_completion>\n<result>Done.</result>\n</attempt_completion>`, chunkDelayMs: 150 });
    await sendTask(frame, "Explain the project");
    await frame.waitForSelector('[data-testid="message-assistant"][data-partial="true"]', { timeout: 30_000 });
    expect(await violations(), "a streaming reply").toEqual([]);
    await frame.waitForSelector('[data-testid="message-completion"]', { timeout: 60_000 });
  });

  it("a tool card waiting for approval, with its diff", async () => {
    server.enqueue({ text: "<write_to_file>\n<path>notes.md</path>\n<content>\n# Notes\n</content>\n<line_count>1</line_count>\n</write_to_file>" });
    await sendTask(frame, "Write notes");
    await frame.waitForSelector('[data-testid="approval"]', { timeout: 30_000 });
    await inBothThemes("a waiting card");
  });

  it("the MCP and history views", async () => {
    await runCommand(workbench.page, "Kiln: MCP Servers");
    frame = await kilnFrame(workbench.page);
    await frame.waitForSelector('[data-testid="mcp-view"]', { timeout: 30_000 });
    await inBothThemes("the MCP view");
    await runCommand(workbench.page, "Kiln: Task History");
    frame = await kilnFrame(workbench.page);
    await frame.waitForSelector('[data-testid="history-view"]', { timeout: 30_000 });
    await inBothThemes("the history view");
  });
});
