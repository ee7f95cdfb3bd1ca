import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { axeViolations, dragSidebarEdge, kilnFrame, openKilnView, openWorkbench, runCommand, sendTask, settingsFrame, shootSidebar, useColorTheme, type Workbench } from "./workbench";

const KEY = "sk-or-e2e-chat-picker";
/** A long id, as OpenRouter's are: the button must end it in an ellipsis, not push the row wider. */
const LONG_ID = "meta-llama/llama-3.3-70b-instruct-turbo-with-a-long-suffix:free";
const SONNET = "anthropic/claude-sonnet-4.5";
const COMPLETE = "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>";

/** OpenRouter's list in its own shape (prices are USD per token), long enough to scroll. */
function openRouterList(): unknown {
  const data: unknown[] = [
    {
      id: SONNET,
      name: "Anthropic: Claude Sonnet 4.5",
      context_length: 1_000_000,
      architecture: { input_modalities: ["text", "image"] },
      pricing: { prompt: "0.000003", completion: "0.000015" },
      supported_parameters: ["tools"],
    },
    { id: LONG_ID, name: "Meta: Llama 3.3 70B Instruct Turbo (free)", context_length: 131_072, pricing: { prompt: "0", completion: "0" }, supported_parameters: ["tools"] },
  ];
  for (let i = 0; i < 40; i++) {
    data.push({ id: `vendor/model-${i}`, name: `Vendor: Model ${i}`, context_length: 32_768 * (1 + (i % 4)), pricing: { prompt: String((i % 5) * 0.000001), completion: String((i % 5) * 0.000004) } });
  }
  return { data };
}

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  server = await new FakeModelServer({ apiKey: KEY, routes: { "/v1/models": openRouterList() } }).start();
  // OpenRouter, with no key yet: the picker's first answer is the reason it cannot list.
  workbench = await openWorkbench({
    "kiln.provider.kind": "openrouter",
    "kiln.provider.baseUrl": server.openaiBaseUrl,
    "kiln.provider.model": LONG_ID,
    "kiln.provider.retries": 0,
  });
  frame = await openKilnView(workbench.page);
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const BUTTON = '[data-testid="chat-model-picker"]';
const POPOVER = '[data-testid="chat-model-popover"]';

/** Where the popover and the button sit in the chat's page, and whether anything in them is wider than its box. */
function layout(): Promise<{
  width: number;
  /** How far the page could scroll sideways: something wider than the sidebar. */
  sideways: number;
  popover?: { left: number; right: number; top: number; overflows: boolean };
  button: { right: number; truncated: boolean; nameWidth: number };
}> {
  return frame.evaluate(
    (popoverSelector, buttonSelector) => {
      const popover = document.querySelector(popoverSelector);
      const button = document.querySelector(buttonSelector)!;
      const name = button.querySelector(".model-button-name")!;
      const box = popover?.getBoundingClientRect();
      return {
        width: document.documentElement.clientWidth,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ...(popover &&
          box && {
            popover: {
              left: box.left,
              right: box.right,
              top: box.top,
              overflows: [popover, ...popover.querySelectorAll("*")].some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible"),
            },
          }),
        button: { right: button.getBoundingClientRect().right, truncated: name.scrollWidth > name.clientWidth, nameWidth: name.clientWidth },
      };
    },
    POPOVER,
    BUTTON,
  );
}

/** The popover open with the list narrowed to `query`, whatever the theme change did to the page. */
async function openWith(query: string, rows: number): Promise<void> {
  frame = await kilnFrame(workbench.page);
  if (!(await frame.$(POPOVER))) await frame.click(BUTTON);
  await frame.waitForSelector('[data-testid="model-option"]', { timeout: 30_000 });
  await frame.click('[data-testid="model-search"]', { count: 3 });
  await workbench.page.keyboard.type(query);
  await frame.waitForFunction((n) => document.querySelectorAll('[data-testid="model-option"]').length === n, { timeout: 10_000 }, rows);
}

describe("the model picker under the chat input", () => {
  it("shows the model in use in the narrow sidebar, its long id cut with an ellipsis and whole in the title", async () => {
    // A 300-pixel sidebar, the narrow one people keep beside the editor.
    const sidebar = await workbench.page.$eval(".part.sidebar", (e) => e.getBoundingClientRect().width);
    await dragSidebarEdge(workbench.page, 300 - sidebar);
    expect(Math.abs((await workbench.page.$eval(".part.sidebar", (e) => e.getBoundingClientRect().width)) - 300)).toBeLessThan(5);
    await frame.waitForSelector(BUTTON, { timeout: 30_000 });
    expect(await frame.$eval(BUTTON, (e) => [(e as HTMLElement).dataset.model, e.getAttribute("title")])).toEqual([LONG_ID, `Model: ${LONG_ID} (openrouter)`]);
    const seen = await layout();
    expect(seen.button.truncated).toBe(true);
    // Some words of the model's name (the id after its vendor), not only the button's icons.
    expect(await frame.$eval(`${BUTTON} .model-button-name`, (e) => e.textContent)).toBe("llama-3.3-70b-instruct-turbo-with-a-long-suffix:free");
    expect(seen.button.nameWidth).toBeGreaterThanOrEqual(60);
    expect(seen.button.right).toBeLessThanOrEqual(seen.width);
    expect(seen.sideways).toBe(0);
  });

  it("opens above the input with the search focused; without a key it says why, and Refresh lists once the key is set", async () => {
    // A real click, as a user opens it: the search box then has the keyboard.
    await frame.click(BUTTON);
    await frame.waitForSelector(POPOVER, { visible: true, timeout: 10_000 });
    expect(await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe("model-search");
    const error = await frame.waitForSelector('[data-testid="models-error"]', { timeout: 30_000 });
    expect(await error!.evaluate((e) => [e.getAttribute("role"), (e as HTMLElement).innerText])).toEqual(["alert", expect.stringMatching(/API key/)]);

    // The key goes in the settings, as a user would set it; the open list asks again on Refresh.
    await runCommand(workbench.page, "Kiln: Open Settings");
    const settings = await settingsFrame(workbench.page);
    const row = '[data-testid="profile"][data-name="default"]';
    await settings.click(`${row} input[type="password"]`);
    await settings.type(`${row} input[type="password"]`, KEY);
    await settings.$$eval(`${row} button`, (buttons) => (buttons.find((b) => b.textContent === "Save key") as HTMLElement).click());
    await settings.waitForFunction((r) => document.querySelector(`${r} [data-testid="key-state"]`)?.textContent === "key set", { timeout: 20_000 }, row);
    await runCommand(workbench.page, "View: Close Editor");
    frame = await kilnFrame(workbench.page);
    if (!(await frame.$(POPOVER))) await frame.click(BUTTON);
    await frame.click('[data-testid="refresh-models"]');
    await frame.waitForSelector('[data-testid="model-option"]', { timeout: 30_000 });
    expect(await frame.$eval('[data-testid="models-count"]', (e) => e.textContent)).toBe("42 models; prices are USD per million tokens, in / out");
    expect(await frame.$eval(`[data-testid="model-option"][aria-selected="true"]`, (e) => (e as HTMLElement).dataset.model)).toBe(LONG_ID);
  });

  it("searches the list; light and dark, it stays inside the sidebar, nothing wider than its box, with no axe findings", async () => {
    await openWith("sonnet", 1);
    const row = await frame.$eval('[data-testid="model-option"]', (e) => (e as HTMLElement).innerText);
    expect(row).toContain("Anthropic: Claude Sonnet 4.5");
    expect(row).toContain(SONNET);
    expect(row).toContain("1M");
    expect(row).toContain("$3.00 / $15.00");
    expect(row).toContain("tools");
    expect(row).toContain("vision");
    // A wider list for the pictures: the rows, the scroll bar and the marked row.
    await frame.click('[data-testid="model-search"]', { count: 3 });
    await workbench.page.keyboard.press("Backspace");
    await workbench.page.keyboard.type("model");
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="model-option"]').length === 40, { timeout: 10_000 });
    await workbench.page.keyboard.press("ArrowDown");

    for (const [theme, shot] of [
      ["Light Modern", "e2e-chat-model-picker-light.png"],
      ["Dark Modern", "e2e-chat-model-picker-dark.png"],
    ] as const) {
      await useColorTheme(workbench.page, theme);
      frame = await kilnFrame(workbench.page);
      await frame.waitForSelector(POPOVER, { visible: true, timeout: 10_000 });
      await shootSidebar(workbench.page, shot);
      const seen = await layout();
      expect(seen.popover!.left).toBeGreaterThanOrEqual(0);
      expect(seen.popover!.right).toBeLessThanOrEqual(seen.width);
      expect(seen.popover!.top).toBeGreaterThanOrEqual(0);
      expect(seen.popover!.overflows).toBe(false);
      expect(seen.sideways).toBe(0);
      expect(await axeViolations(frame)).toEqual([]);
    }
  });

  it("Enter picks the match; the button shows it and the chat's next request uses it", async () => {
    await openWith("sonnet", 1);
    await workbench.page.keyboard.press("Enter");
    await frame.waitForFunction((id) => (document.querySelector('[data-testid="chat-model-picker"]') as HTMLElement | null)?.dataset.model === id, { timeout: 20_000 }, SONNET);
    // Closed once the host says the pick is saved (the new model may show a moment before).
    await frame.waitForFunction((popover) => !document.querySelector(popover), { timeout: 20_000 }, POPOVER);
    expect(await frame.$eval(BUTTON, (e) => e.getAttribute("title"))).toBe(`Model: ${SONNET} (openrouter)`);

    server.enqueue({ text: COMPLETE });
    await sendTask(frame, "Which model answers?");
    const deadline = Date.now() + 30_000;
    while (!server.requests.some((r) => r.path.endsWith("/chat/completions")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(server.requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) => r.body.model)).toEqual([SONNET]);
  });
});
