import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { kilnFrame, openKilnWithFakeModel, resultsDir, runCommand, sendTask, shootSidebar, useColorTheme, type Workbench } from "./workbench";

const COMPLETE = "<attempt_completion>\n<result>The joke was told.</result>\n</attempt_completion>";

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-history"));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

describe("task history in code-server, driven by Chromium", () => {
  it("a finished task survives a reload of the window and reopens from the History tab", async () => {
    server.enqueue({ text: `Here it comes.\n${COMPLETE}` });
    await sendTask(frame, "Tell me a joke worth keeping");
    await frame.waitForSelector('[data-testid="message-completion"]', { timeout: 60_000 });

    // A reload starts a new extension host: only what was saved to disk can come back.
    await workbench.page.reload();
    await workbench.page.waitForSelector(".activitybar", { timeout: 120_000 });
    // The command opens the view (or keeps it open, where the workbench restored it) on its History tab.
    await runCommand(workbench.page, "Kiln: Task History");
    frame = await kilnFrame(workbench.page);
    expect(await frame.$$('[data-testid="message-user"]')).toHaveLength(0);
    const entry = await frame.waitForSelector('[data-testid="history-entry"]', { timeout: 30_000 }).catch(async (err: unknown) => {
      throw new Error(`${String(err)}; the view shows: ${await frame.evaluate(() => document.body.innerText)}`);
    });
    expect(await entry!.evaluate((e) => (e as HTMLElement).innerText)).toContain("Tell me a joke worth keeping");
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-history.png") });

    await frame.click('[data-testid="history-entry"] .history-title');
    // The list opens at its end, with the completion; the header carries the task's first message.
    await frame
      .waitForFunction(() => document.querySelector('[data-testid="message-completion"]')?.textContent?.includes("The joke was told."), { timeout: 30_000 })
      .catch(async (err: unknown) => {
        await workbench.page.screenshot({ path: join(resultsDir, "e2e-history-failed.png") });
        throw new Error(`${String(err)}; the view shows: ${await frame.evaluate(() => document.body.innerText)}`);
      });
    expect(await frame.$eval('[data-testid="task-title"]', (e) => (e as HTMLElement).innerText)).toContain("Tell me a joke worth keeping");
  });

  it("a new task's empty chat names the model, lists the recent tasks to reopen, and gives tips", async () => {
    await frame.$eval('[data-testid="new-task"]', (e) => (e as HTMLElement).click());
    const recent = await frame.waitForSelector('[data-testid="recent-task"]', { timeout: 30_000 }).catch(async (err: unknown) => {
      await workbench.page.screenshot({ path: join(resultsDir, "e2e-empty-chat-failed.png") });
      throw new Error(`${String(err)}; the view shows: ${await frame.evaluate(() => document.body.innerText)}`);
    });
    expect(await recent!.evaluate((e) => (e as HTMLElement).innerText)).toMatch(/^Tell me a joke worth keeping\s+(just now|\d+ min ago)$/);
    expect(await frame.$eval('[data-testid="empty-model"]', (e) => (e as HTMLElement).innerText)).toBe("Answers come from fake-history through openai-compatible.");
    expect(await frame.$$eval('[data-testid="tips"] li', (all) => all.length)).toBe(3);
    await shootSidebar(workbench.page, "e2e-empty-chat.png");
    await useColorTheme(workbench.page, "Dark Modern");
    await shootSidebar(workbench.page, "e2e-empty-chat-dark.png");
    await useColorTheme(workbench.page, "Light Modern");

    await recent!.evaluate((e) => (e as HTMLElement).click());
    await frame.waitForFunction(() => document.querySelector('[data-testid="message-completion"]')?.textContent?.includes("The joke was told."), { timeout: 30_000 });
    expect(await frame.$$('[data-testid="empty-chat"]')).toHaveLength(0);
  });
});
