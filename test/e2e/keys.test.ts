import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnView, openWorkbench, resultsDir, sendTask, shootSidebar, type Workbench } from "./workbench";

const KEY = "sk-ant-e2e-right";
let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  // The fake Anthropic endpoint answers only with this key; Kiln starts with none.
  server = await new FakeModelServer({ apiKey: KEY }).start();
  workbench = await openWorkbench({
    "kiln.provider.kind": "anthropic",
    "kiln.provider.baseUrl": server.anthropicBaseUrl,
    "kiln.provider.model": "claude-e2e",
    "kiln.provider.retries": 0,
  });
  frame = await openKilnView(workbench.page);
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

/** The newest error in the chat once it is of `kind`: its text and its buttons. */
async function errorOf(kind: string): Promise<{ text: string; buttons: string[] }> {
  await frame.waitForFunction((want) => [...document.querySelectorAll('[data-testid="message-error"]')].at(-1)?.getAttribute("data-kind") === want, { timeout: 30_000 }, kind);
  return frame.$$eval('[data-testid="message-error"]', (all) => {
    const last = all.at(-1) as HTMLElement;
    return { text: (last.querySelector(".error-text") as HTMLElement).innerText, buttons: [...last.querySelectorAll("button")].map((b) => b.innerText) };
  });
}

/** Set API key on the newest error, then the key typed into VS Code's input box, as a user does. */
async function setKey(key: string): Promise<void> {
  await frame.$$eval('[data-testid="set-api-key"]', (all) => (all.at(-1) as HTMLElement).click());
  const input = await workbench.page.waitForSelector(".quick-input-widget input[type=password]", { visible: true, timeout: 20_000 });
  expect(await workbench.page.$eval(".quick-input-widget .quick-input-title", (e) => (e as HTMLElement).innerText)).toContain("API key for");
  await input!.type(key);
  await workbench.page.keyboard.press("Enter");
}

describe("a chat error about the key offers to fix it", () => {
  it("no key: Set API key asks for it, keeps it, and the request goes again; a wrong one says so and can be fixed the same way", async () => {
    await sendTask(frame, "Say hello");
    const missing = await errorOf("no_key");
    expect(missing.buttons).toEqual(["Set API key", "Open settings", "Retry"]);
    await shootSidebar(workbench.page, "e2e-key-missing.png");
    expect(server.requests).toHaveLength(0);

    // A wrong key: the provider refuses it, and the chat says so with the same way out.
    await setKey("sk-ant-e2e-wrong");
    const refused = await errorOf("auth");
    expect(refused.text).toMatch(/rejected the API key \(HTTP 401/);
    expect(refused.buttons).toEqual(expect.arrayContaining(["Set API key", "Open settings"]));
    expect(server.requests.at(-1)?.headers["x-api-key"] ?? server.requests.at(-1)?.headers.authorization).toMatch(/sk-ant-e2e-wrong/);
    await shootSidebar(workbench.page, "e2e-key-refused.png");

    // The reply ends the task, so no further request (which the empty queue would answer with HTTP
    // 500) follows it and brings a new error into the chat.
    server.enqueue({ text: "Hello from the right key.\n<attempt_completion>\n<result>Said hello.</result>\n</attempt_completion>" });
    await setKey(KEY);
    await frame.waitForFunction(() => [...document.querySelectorAll('[data-testid="message-assistant"]')].some((e) => (e as HTMLElement).innerText.includes("Hello from the right key.")), {
      timeout: 30_000,
    });
    await frame.waitForFunction(() => [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes("Said hello.")), { timeout: 30_000 });
    // The failed attempts leave the chat: one message, one reply. (The reply and the errors' removal
    // may reach the page in separate renders, so the errors are waited for, not read once.)
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-error"]').length === 0, { timeout: 10_000 });
    expect(await frame.$$('[data-testid="message-error"]')).toHaveLength(0);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-key-fixed.png") });
  });

  it("Open settings opens Kiln's settings", async () => {
    server.enqueue({ fault: { type: "http", status: 401, message: "invalid x-api-key" } });
    await sendTask(frame, "Again");
    await errorOf("auth");
    await frame.$$eval('[data-testid="open-settings"]', (all) => (all.at(-1) as HTMLElement).click());
    await workbench.page.waitForFunction(() => [...document.querySelectorAll(".tabs-container .tab")].some((t) => (t as HTMLElement).innerText.includes("Kiln Settings")), { timeout: 20_000 });
  });
});
