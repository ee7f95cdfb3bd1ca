import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { dragSidebarEdge, openKilnWithFakeModel, pickMode, resultsDir, sendTask, shownMode, shootSidebar, useColorTheme, type Workbench } from "./workbench";

/*
 * The scripted task, one user's session from start to end: nothing is auto-approved, so
 * every call waits on its card. A screenshot is saved at each state.
 */
let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-scenario", { "kiln.autoApprove": [] }));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const shot = (name: string) => workbench.page.screenshot({ path: join(resultsDir, `e2e-scenario-${name}.png`) });

/** The newest tool card that waits for the user, once its approval box is up. */
async function waitingCard(title: string): Promise<string> {
  await frame.waitForFunction(
    (want) =>
      [...document.querySelectorAll('[data-testid="message-tool"][data-status="waiting"]')].some(
        (card) => card.querySelector('[data-testid="approval"]') && (card as HTMLElement).innerText.includes(want),
      ),
    { timeout: 30_000 },
    title,
  );
  return frame.$eval('[data-testid="message-tool"][data-status="waiting"]', (card) => (card as HTMLElement).dataset.card ?? "");
}

function cardStatus(id: string): Promise<string | undefined> {
  return frame.$eval(`[data-card="${id}"]`, (card) => (card as HTMLElement).dataset.status);
}

async function waitForStatus(id: string, status: string): Promise<void> {
  await frame.waitForFunction((sel, want) => (document.querySelector(sel) as HTMLElement | null)?.dataset.status === want, { timeout: 30_000 }, `[data-card="${id}"]`, status);
}

async function waitForCompletion(text: string): Promise<void> {
  await frame.waitForFunction((want) => [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes(want)), { timeout: 30_000 }, text);
}

/** What the model was sent in its latest request, as text. */
const lastRequest = () => JSON.stringify(server.requests.at(-1)?.body.messages ?? []);

describe("a scripted task in the chat: approve, reject with feedback, switch mode", () => {
  it("the user approves a read, rejects a write with feedback, and the model adapts", async () => {
    server.enqueue(
      { text: "First the greeter.\n<read_file>\n<path>src/greet.ts</path>\n</read_file>" },
      {
        text: "A new file for it.\n<write_to_file>\n<path>src/farewell.ts</path>\n<content>\nexport const farewell = (name: string) => `Bye, ${name}!`;\n</content>\n<line_count>1</line_count>\n</write_to_file>",
      },
      {
        text: "Understood, in greet.ts then.\n<write_to_file>\n<path>src/greet.ts</path>\n<content>\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport function farewell(name: string): string {\n  return `Bye, ${name}!`;\n}\n</content>\n<line_count>7</line_count>\n</write_to_file>",
      },
      { text: "<attempt_completion>\n<result>Added farewell to src/greet.ts.</result>\n</attempt_completion>" },
    );
    await sendTask(frame, "Add a farewell function");

    const read = await waitingCard("Kiln wants to read src/greet.ts");
    await shot("1-read-waiting");
    await frame.click(`[data-card="${read}"] [data-testid="approve"]`);
    await waitForStatus(read, "done");

    const write = await waitingCard("Kiln wants to write src/farewell.ts");
    await frame.$eval(`[data-card="${write}"] [data-testid="approval-diff-summary"] summary`, (e) => (e as HTMLElement).click());
    expect(await frame.$eval(`[data-card="${write}"] [data-testid="approval-diff"]`, (e) => (e as HTMLElement).innerText)).toContain("+export const farewell");
    await frame.type(`[data-card="${write}"] [data-testid="feedback"]`, "Keep it in src/greet.ts, no new file");
    await shot("2-write-feedback");
    await frame.click(`[data-card="${write}"] [data-testid="reject"]`);
    await waitForStatus(write, "denied");
    expect(existsSync(join(workbench.workspace!, "src", "farewell.ts"))).toBe(false);
    // The feedback shows as the user's own message under the card, not folded inside it.
    const said = await frame.waitForFunction(
      (card: string) => {
        // Virtuoso numbers its rows: the message is the row after the card's.
        const index = Number(document.querySelector(`[data-card="${card}"]`)?.closest("[data-index]")?.getAttribute("data-index"));
        const next = document.querySelector(`[data-index="${index + 1}"] [data-testid="message-user"]`) as HTMLElement | null;
        return next?.innerText.includes("Keep it in src/greet.ts, no new file") ? next.innerText : undefined;
      },
      { timeout: 10_000 },
      write,
    );
    expect(await said.jsonValue()).toContain("Keep it in src/greet.ts");
    await shot("2-write-rejected-feedback-shown");

    // The model heard the feedback and proposes the edit where the user asked.
    const adapted = await waitingCard("Kiln wants to write src/greet.ts");
    expect(lastRequest()).toContain("Keep it in src/greet.ts, no new file");
    await shot("3-adapted-write");
    await frame.click(`[data-card="${adapted}"] [data-testid="approve"]`);
    await waitForCompletion("Added farewell to src/greet.ts.");
    expect(readFileSync(join(workbench.workspace!, "src", "greet.ts"), "utf8")).toContain("export function farewell(name: string)");
    await shot("4-completed");
  });

  it("in architect mode, picked in the chat input, the model's .ts edit is refused and the file is untouched", async () => {
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    await pickMode(frame, "architect");
    await frame.waitForFunction(() => (document.querySelector('[data-testid="mode-picker"]') as HTMLElement | null)?.dataset.mode === "architect", { timeout: 10_000 });
    const before = readFileSync(join(workbench.workspace!, "src", "greet.ts"), "utf8");
    server.enqueue(
      { text: "<write_to_file>\n<path>src/greet.ts</path>\n<content>\nexport const greet = 1;\n</content>\n<line_count>1</line_count>\n</write_to_file>" },
      { text: "<attempt_completion>\n<result>Planned instead of editing.</result>\n</attempt_completion>" },
    );
    await sendTask(frame, "Rename greet");
    await waitForCompletion("Planned instead of editing.");
    // The request went out with architect's role in its system prompt.
    expect(JSON.stringify(server.requests.at(-2)?.body.messages)).toContain("a technical lead who plans before building");
    const refused = await frame.$$eval('[data-testid="message-tool"]', (cards) =>
      cards.map((c) => ({ title: (c as HTMLElement).innerText.split("\n")[0], status: (c as HTMLElement).dataset.status })),
    );
    expect(refused[0]).toEqual({ title: expect.stringMatching(/^Kiln (could not|was not allowed to) write src\/greet\.ts /), status: expect.stringMatching(/denied|error/) });
    // No approval was asked for: the mode refused it, and told the model which mode may.
    expect(lastRequest()).toContain("Architect mode may edit only Markdown files; src/greet.ts is not one. Modes that may: code, debug");
    // The card says why in a sentence, with the way out; the model's longer text stays folded.
    const card = await frame.$eval('[data-testid="message-tool"]', (c) => ({
      note: (c.querySelector('[data-testid="tool-note"]') as HTMLElement | null)?.innerText,
      folded: !(c.querySelector('[data-testid="tool-result"]') as HTMLDetailsElement | null)?.open,
      shown: (c as HTMLElement).innerText,
    }));
    expect(card.note).toBe("Architect mode may edit only Markdown files; src/greet.ts is not one. Switch to code or debug mode for this.");
    expect(card.folded).toBe(true);
    expect(card.shown).not.toContain("Tools available in this mode");
    expect(readFileSync(join(workbench.workspace!, "src", "greet.ts"), "utf8")).toBe(before);
    await shot("5-architect-refused");
    // Dark, then the narrowest sidebar: the reason wraps inside its card, and the badge stays in view.
    await useColorTheme(workbench.page, "Dark Modern");
    await frame.waitForFunction(() => document.body.classList.contains("vscode-dark"), { timeout: 10_000 });
    await shootSidebar(workbench.page, "e2e-scenario-5-architect-refused-dark.png");
    await dragSidebarEdge(workbench.page, -200);
    await frame.waitForFunction(() => document.body.clientWidth < 200, { timeout: 10_000 });
    const inside = await frame.$eval('[data-testid="message-tool"]', (c) => {
      const outer = c.getBoundingClientRect();
      return ['[data-testid="tool-note"]', '[data-testid="tool-status"]'].map((sel) => {
        const r = c.querySelector(sel)!.getBoundingClientRect();
        return r.width > 0 && r.left >= outer.left && r.right <= outer.right;
      });
    });
    expect(inside).toEqual([true, true]);
    await shootSidebar(workbench.page, "e2e-scenario-5-architect-refused-narrow.png");
    await dragSidebarEdge(workbench.page, 200);
    await frame.waitForFunction(() => document.body.clientWidth > 250, { timeout: 10_000 });
    await useColorTheme(workbench.page, "Light Modern");
  });

  it("a suggested answer that names a mode switches the chat to that mode, and the model goes on in it", async () => {
    await frame.click('[data-testid="new-task"]');
    await pickMode(frame, "code");
    server.enqueue(
      {
        text: '<ask_followup_question>\n<question>Shall I plan this before changing code?</question>\n<follow_up>\n<suggest mode="architect">Plan it first</suggest>\n<suggest>Just change it</suggest>\n</follow_up>\n</ask_followup_question>',
      },
      { text: "<attempt_completion>\n<result>Here is the plan.</result>\n</attempt_completion>" },
    );
    await sendTask(frame, "Add a farewell function");
    await frame.waitForSelector('[data-testid="suggestion"]:not([disabled])', { timeout: 30_000 });
    await shot("7-suggestion-with-mode");
    const [planFirst] = await frame.$$('[data-testid="suggestion"]');
    expect(await planFirst!.evaluate((b) => (b as HTMLElement).innerText)).toBe("Plan it first (switch to Architect)");
    await planFirst!.click();
    await waitForCompletion("Here is the plan.");
    expect(await shownMode(frame)).toBe("architect");
    // The answer went out in architect mode: its role is in the system prompt of that request.
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain("a technical lead who plans before building");
    expect(lastRequest()).toContain("Plan it first");
    await shot("8-switched-to-architect");
  });

  it("keyboard only: Escape moves to the feedback box, typing and Enter reject with that feedback", async () => {
    await frame.click('[data-testid="new-task"]');
    await pickMode(frame, "code");
    server.enqueue({ text: "<read_file>\n<path>README.md</path>\n</read_file>" }, { text: "<attempt_completion>\n<result>Skipped the README.</result>\n</attempt_completion>" });
    await sendTask(frame, "Read the readme");
    const card = await waitingCard("Kiln wants to read README.md");
    // The input had focus (sendTask typed there): the card did not take it, and Enter with an empty input approves...
    // but here the user goes to the feedback box instead, with Escape, and answers with the keyboard alone.
    await workbench.page.keyboard.press("Escape");
    expect(await frame.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe("feedback");
    await workbench.page.keyboard.type("Not now");
    await shot("6-keyboard-feedback");
    await workbench.page.keyboard.press("Enter");
    await waitForStatus(card, "denied");
    await waitForCompletion("Skipped the README.");
    expect(lastRequest()).toContain("Not now");
    expect(await cardStatus(card)).toBe("denied");
  });
});
