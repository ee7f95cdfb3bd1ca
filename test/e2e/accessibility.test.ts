import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { join } from "node:path";
import { axeViolations, kilnFrame, openKilnWithFakeModel, resultsDir, settingsFrame, shootSidebar, runCommand, sendTask, useColorTheme, type Workbench } from "./workbench";

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

/** The serious and critical WCAG 2.1 AA findings in the Kiln view as it is now. */
async function violations(): Promise<string[]> {
  frame = await kilnFrame(workbench.page);
  return axeViolations(frame);
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

  it("the empty chat and the input's bars in the high-contrast themes", async () => {
    for (const [theme, shot] of [
      ["Dark High Contrast", "e2e-a11y-high-contrast-dark.png"],
      ["Light High Contrast", "e2e-a11y-high-contrast-light.png"],
    ] as const) {
      await useColorTheme(workbench.page, theme);
      expect(await violations(), `the empty chat in ${theme}`).toEqual([]);
      await shootSidebar(workbench.page, shot);
    }
    await useColorTheme(workbench.page, "Light Modern");
  });

  it("the settings page, with its sections' navigation", async () => {
    // The gear in the Kiln view's title bar, as a user opens it.
    await workbench.page.$eval('.part.sidebar a.action-label[aria-label="Open Settings"]', (e) => (e as HTMLElement).click());
    for (const theme of ["Light Modern", "Dark Modern", "Dark High Contrast"]) {
      await settingsFrame(workbench.page);
      // The keyboard back to the workbench: keys typed in a webview do not reach the command palette.
      await workbench.page.click(".part.sidebar .composite.title");
      await useColorTheme(workbench.page, theme);
      const settings = await settingsFrame(workbench.page);
      expect(await axeViolations(settings), `the settings page in ${theme}`).toEqual([]);
      // axe passes text in the colour of its own background; a person sees nothing there.
      const code = await settings.$eval(".ks-prefix code", (e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]);
      expect(code[0], `the allowed commands' text in ${theme}`).not.toBe(code[1]);
    }
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-settings-high-contrast.png") });
    await useColorTheme(workbench.page, "Light Modern");
    await runCommand(workbench.page, "View: Close Editor");
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
