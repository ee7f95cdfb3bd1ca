import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ElementHandle, Frame, Page } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnWithFakeModel, resultsDir, type Workbench } from "./workbench";

/*
 * Kiln from the code editor, as a user meets it: the editor's right-click menu sends a selection to
 * the chat, and a proposed edit is reviewed change by change in VS Code's diff editor.
 */
let server: FakeModelServer;
let workbench: Workbench;
let page: Page;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-editor", { "kiln.autoApprove": [] }));
  page = workbench.page;
});

// A test that failed halfway leaves no scripted turns for the next.
beforeEach(() => server.clearQueue());

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const shot = (name: string) => page.screenshot({ path: join(resultsDir, `e2e-editor-${name}.png`) });

/** Opens a workspace file in the editor with Quick Open, as a user would. */
async function quickOpen(name: string): Promise<void> {
  await page.keyboard.down("Control");
  await page.keyboard.press("p");
  await page.keyboard.up("Control");
  const input = await page.waitForSelector(".quick-input-widget:not([style*='display: none']) input", { visible: true, timeout: 20_000 });
  await input!.type(name);
  // The file's entry is listed once the search has found it.
  await page.waitForFunction(
    (want) => [...document.querySelectorAll(".quick-input-list .monaco-list-row")].some((row) => (row as HTMLElement).innerText.includes(want)),
    { timeout: 20_000 },
    name.split("/").at(-1)!,
  );
  await page.keyboard.press("Enter");
}

/**
 * The open context menu's item with this label. The workbench draws its menus as DOM, in a shadow
 * root, so the search goes through shadow roots; only visible items count.
 */
async function menuItem(label: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (want) => {
      const roots: (Document | ShadowRoot)[] = [document];
      for (let i = 0; i < roots.length; i++) {
        for (const el of roots[i]!.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
      }
      for (const root of roots) {
        for (const item of root.querySelectorAll(".monaco-menu .action-item")) {
          const text = (item.querySelector(".action-label") as HTMLElement | null)?.innerText.trim();
          if (text === want && (item as HTMLElement).offsetParent !== null) return item;
        }
      }
      return null;
    },
    { timeout: 20_000 },
    label,
  );
  return handle as ElementHandle<Element>;
}

/** A tool card that waits for the user, once its approval box is up; returns its id. */
async function waitingCard(title: string): Promise<string> {
  const card = await frame.waitForFunction(
    (want) =>
      [...document.querySelectorAll('[data-testid="message-tool"][data-status="waiting"]')].find((c) => c.querySelector('[data-testid="approval"]') && (c as HTMLElement).innerText.includes(want)) ??
      null,
    { timeout: 30_000 },
    title,
  );
  return (card as ElementHandle<HTMLElement>).evaluate((c) => c.dataset.card ?? "");
}

async function waitForCompletion(text: string): Promise<void> {
  await frame.waitForFunction((want) => [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes(want)), { timeout: 30_000 }, text);
}

/** The CodeLens entries on the diff editor's right side (the proposal), in order from the top. */
function proposalLenses(): Promise<string[]> {
  return page.$$eval(".monaco-diff-editor .editor.modified .codelens-decoration", (all) =>
    all
      .map((e) => ({ top: e.getBoundingClientRect().top, text: (e as HTMLElement).innerText.replace(/\s+/g, " ").trim() }))
      .sort((a, b) => a.top - b.top)
      .map((e) => e.text),
  );
}

describe("Kiln from the code editor", () => {
  it("right-click → Kiln → Explain Code sends the selected lines of src/greet.ts to a new chat task", async () => {
    server.enqueue({ text: "greet builds a greeting for the name it is given.\n<attempt_completion>\n<result>Explained greet.</result>\n</attempt_completion>" });
    await quickOpen("src/greet.ts");
    const lines = await page.waitForSelector('.editor-instance .monaco-editor[data-uri$="/src/greet.ts"] .view-lines', { timeout: 30_000 });
    // The editor draws spaces as no-break spaces.
    await page.waitForFunction((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, " ").includes("export function greet"), { timeout: 20_000 }, lines);
    // Lines 1 and 2 with the keyboard: from the top, two lines down (the selection ends at the start of line 3).
    await lines!.click();
    await page.keyboard.down("Control");
    await page.keyboard.press("Home");
    await page.keyboard.up("Control");
    await page.keyboard.down("Shift");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.up("Shift");
    await page.waitForSelector('.monaco-editor[data-uri$="/src/greet.ts"] .selected-text', { timeout: 10_000 });

    // A right-click inside the selection keeps it.
    // Where the line is drawn, read in one go: the editor redraws its lines as the selection changes,
    // so a handle to one may be gone by the time its box is asked for.
    const box = (await (
      await page.waitForFunction(
        (el) => {
          const line = [...(el as HTMLElement).querySelectorAll(".view-line")].find((l) => (l as HTMLElement).innerText.replace(/\u00a0/g, " ").includes("export function greet"));
          const rect = line?.getBoundingClientRect();
          return rect && rect.height > 0 ? { x: rect.x, y: rect.y, height: rect.height } : null;
        },
        {},
        lines,
      )
    ).jsonValue())!;
    await page.mouse.click(box.x + 60, box.y + box.height / 2, { button: "right" });
    const kiln = await menuItem("Kiln");
    await kiln.hover();
    const explain = await menuItem("Explain Code");
    await shot("1-context-menu");
    await explain.click();

    // The chat shows the new task with the file, the line range and the code.
    const user = await frame.waitForFunction(() => [...document.querySelectorAll('[data-testid="message-user"]')].find((m) => (m as HTMLElement).innerText.includes("src/greet.ts")) ?? null, {
      timeout: 30_000,
    });
    const text = await (user as ElementHandle<HTMLElement>).evaluate((m) => m.innerText);
    expect(text).toContain("Explain the following code from src/greet.ts:1-2");
    expect(text).toContain("export function greet(name: string): string {\n  return `Hello, ${name}!`;");
    expect(text).not.toContain("\n}");
    await waitForCompletion("Explained greet.");
    // The model got the same task.
    const sent = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    const task = JSON.stringify(sent.filter((m) => m.role === "user"));
    expect(task).toContain("src/greet.ts:1-2");
    expect(task).toContain(JSON.stringify("export function greet(name: string): string {\n  return `Hello, ${name}!`;").slice(1, -1));
    await shot("2-explain-chat");
  });

  it("a proposed edit with two changes: Discard on the second one in the diff editor, approve, only the first lands", async () => {
    const original = [
      "export const first = 'Ada';",
      "export const second = 'Grace';",
      "export const third = 'Linus';",
      "export const fourth = 'Barbara';",
      "export const fifth = 'Margaret';",
      "export const sixth = 'Ken';",
      "export const seventh = 'Dennis';",
      "",
    ].join("\n");
    writeFileSync(join(workbench.workspace!, "src", "names.ts"), original);
    const proposal = original.replace("'Ada'", "'Ada Lovelace'").replace("'Dennis'", "'Dennis Ritchie'");
    server.enqueue(
      { text: `Full names.\n<write_to_file>\n<path>src/names.ts</path>\n<content>\n${proposal}\n</content>\n<line_count>7</line_count>\n</write_to_file>` },
      { text: "<attempt_completion>\n<result>Ada has her full name.</result>\n</attempt_completion>" },
    );
    // A fresh task, whatever the chat held before.
    if (await frame.$('[data-testid="new-task"]')) await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"], [data-testid="message-user"]').length === 0, { timeout: 10_000 });
    const input = await frame.waitForSelector('[data-testid="chat-input"]');
    await input!.type("Use full names in src/names.ts");
    await input!.press("Enter");

    const card = await waitingCard("Kiln wants to write src/names.ts");
    // The diff editor opened on the proposal, with a Discard entry above each of the two changes.
    await page.waitForFunction(() => [...document.querySelectorAll(".tabs-container .tab")].some((t) => (t as HTMLElement).innerText.includes("Kiln's proposal")), { timeout: 30_000 });
    await page
      .waitForFunction(
        () => [...document.querySelectorAll(".monaco-diff-editor .editor.modified .codelens-decoration a")].filter((a) => (a as HTMLElement).innerText.includes("Discard this change")).length === 2,
        { timeout: 30_000 },
      )
      .catch(async (err: Error) => {
        await shot("3-proposal-two-changes");
        throw new Error(`the diff editor's proposal side shows no "Discard this change" above its two changes: ${err.message}`);
      });
    expect(await proposalLenses()).toEqual([expect.stringMatching(/Change 1 of 2.*Discard this change/), expect.stringMatching(/Change 2 of 2.*Discard this change/)]);
    await shot("3-proposal-two-changes");

    // The lenses are drawn again as the proposal settles: the lower Discard is found at the moment of the click.
    const at = await page.evaluate(() => {
      const links = [...document.querySelectorAll(".monaco-diff-editor .editor.modified .codelens-decoration a")].filter((a) => (a as HTMLElement).innerText.includes("Discard this change"));
      const box = links.map((a) => a.getBoundingClientRect()).sort((x, y) => x.top - y.top)[1]!;
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    });
    await page.mouse.click(at.x, at.y);
    // The second change is gone from the proposal; the first is still offered.
    await page.waitForFunction(
      () => {
        const lenses = [...document.querySelectorAll(".monaco-diff-editor .editor.modified .codelens-decoration")].map((e) => (e as HTMLElement).innerText);
        return lenses.length === 1 && lenses[0]!.includes("Change 1 of 1");
      },
      { timeout: 20_000 },
    );
    const right = await page.$eval(".monaco-diff-editor .editor.modified .view-lines", (e) => (e as HTMLElement).innerText.replace(/\u00a0/g, " "));
    expect(right).toContain("export const first = 'Ada Lovelace';");
    expect(right).toContain("export const seventh = 'Dennis';");
    await shot("4-second-change-discarded");

    await frame.click(`[data-card="${card}"] [data-testid="approve"]`);
    await waitForCompletion("Ada has her full name.");
    expect(readFileSync(join(workbench.workspace!, "src", "names.ts"), "utf8")).toBe(original.replace("'Ada'", "'Ada Lovelace'"));
    // The request after the write told the model which change the user discarded.
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("The user discarded this change of your proposal: line 7 of the proposal (1 removed, 1 added); the rest was saved.");
    await shot("5-approved");
  });
});
