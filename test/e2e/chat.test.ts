import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import {
  dragSidebarEdge,
  kilnFrame,
  lastAssistantText,
  openKilnWithFakeModel,
  pickMode,
  resultsDir,
  runCommand,
  sendTask,
  settingsFrame,
  shownMode,
  shootSidebar,
  useColorTheme,
  type Workbench,
} from "./workbench";

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-e2e"));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const COMPLETE = "<attempt_completion>\n<result>Done.</result>\n</attempt_completion>";
const REPLY = "greet takes a name and returns a friendly greeting string built with a template literal.";

describe("Kiln in code-server, driven by Chromium", () => {
  it("shows the configured model and provider in the empty chat, and one toolbar: the view's title", async () => {
    await frame.waitForFunction(() => document.querySelector('[data-testid="empty-model"]')?.textContent === "Answers come from fake-e2e through openai-compatible.", { timeout: 20_000 });
    // New task, MCP servers, history and settings are the view title's icons, not a second row in the page.
    const titleActions = await workbench.page.$$eval(".part.sidebar .action-label", (all) => all.map((a) => a.getAttribute("aria-label")));
    expect(titleActions).toEqual(expect.arrayContaining(["New Task", "MCP Servers", "Task History"]));
    expect(await frame.$$("[data-testid=mcp-tab], [data-testid=history-tab]")).toHaveLength(0);
  });

  it("streams the reply to a typed task into the chat, piece by piece", async () => {
    server.enqueue({ text: `${REPLY}\n${COMPLETE}`, chunkDelayMs: 120 });
    await sendTask(frame, "Explain src/greet.ts");
    await frame.waitForSelector('[data-testid="message-user"]');
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    let last = await lastAssistantText(frame);
    while (Date.now() < deadline && (!last || last.partial)) {
      if (last?.text) seen.add(last.text);
      await new Promise((r) => setTimeout(r, 40));
      last = await lastAssistantText(frame);
    }
    expect(last && { text: last.text.trim(), partial: last.partial }).toEqual({ text: REPLY, partial: false });
    // The reply grew in the view while it streamed, not in one jump at the end.
    const partials = [...seen].filter((t) => t.trim() !== REPLY);
    expect(partials.length).toBeGreaterThanOrEqual(3);
    for (const partial of partials) expect(REPLY.startsWith(partial.trimEnd())).toBe(true);
    expect(server.requests.at(-1)!.body.messages).toContainEqual({ role: "user", content: "Explain src/greet.ts" });
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-chat-reply.png") });
  });

  it("shows a provider error with a Retry button that gets the reply", async () => {
    server.enqueue({ fault: { type: "http", status: 500, message: "the fake model fell over" } });
    await sendTask(frame, "Now add a test");
    const error = await frame.waitForSelector('[data-testid="message-error"]', { timeout: 20_000 });
    expect(await error!.evaluate((e) => (e as HTMLElement).innerText)).toMatch(/server error \(HTTP 500: the fake model fell over\)/);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-chat-error.png") });
    server.enqueue({ text: `Here is a test for greet.\n${COMPLETE}` });
    await frame.click('[data-testid="retry"]');
    await frame.waitForFunction(() => !document.querySelector('[data-testid="message-error"]'), { timeout: 20_000 });
    await frame.waitForFunction(
      () => {
        const all = document.querySelectorAll('[data-testid="message-assistant"]');
        return (all[all.length - 1] as HTMLElement | undefined)?.innerText.trim() === "Here is a test for greet.";
      },
      { timeout: 20_000 },
    );
  });

  it("runs a multi-step task: tool cards fill in, a write waits on its card with the diff, Enter approves, the file lands", async () => {
    server.enqueue(
      { text: "Let me read the greeter.\n<read_file>\n<path>src/greet.ts</path>\n</read_file>" },
      { text: 'Writing the test.\n<write_to_file>\n<path>test/greet.test.ts</path>\n<content>\nimport { greet } from "../src/greet";\n</content>\n<line_count>1</line_count>\n</write_to_file>' },
      { text: "<attempt_completion>\n<result>Added test/greet.test.ts.</result>\n</attempt_completion>" },
    );
    await sendTask(frame, "Write a test for greet");
    // Reads are auto-approved by default; the write waits on its card with the diff.
    const approval = await frame.waitForSelector('[data-testid="message-tool"][data-status="waiting"] [data-testid="approval"]', { timeout: 30_000 });
    expect(await approval!.evaluate((e) => (e as HTMLElement).innerText)).toContain("Write test/greet.test.ts (1 line)");
    // The diff editor shows the change: the card sums it up and keeps its diff folded until asked.
    expect(await frame.$eval('[data-testid="approval-diff-summary"] summary', (e) => (e as HTMLElement).innerText)).toBe("+1 −0, 1 change, open in the diff editor");
    expect(await frame.$('[data-testid="approval-diff"]')).toBeNull();
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-approval.png") });
    await frame.$eval('[data-testid="approval-diff-summary"] summary', (e) => (e as HTMLElement).click());
    expect(await frame.$eval('[data-testid="approval-diff"]', (e) => (e as HTMLElement).innerText)).toContain('+import { greet } from "../src/greet";');
    // Keyboard: Enter in the empty chat input approves the waiting call. The diff editor opening beside
    // the chat may take the window's focus for a moment; a user's click puts it back.
    const focused = await frame.evaluate(() => document.hasFocus() && (document.activeElement as HTMLElement | null)?.dataset.testid === "chat-input");
    if (!focused) await frame.click('[data-testid="chat-input"]');
    await workbench.page.keyboard.press("Enter");
    await frame
      .waitForFunction(() => [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes("Added test/greet.test.ts.")), {
        timeout: 30_000,
      })
      .catch(async (err: unknown) => {
        await workbench.page.screenshot({ path: join(resultsDir, "e2e-agent-task-failed.png") });
        throw new Error(`${String(err)}; input focused before Enter: ${focused}; the view shows: ${await frame.evaluate(() => document.body.innerText.slice(-1500))}`);
      });
    const cards = await frame.$$eval('[data-testid="message-tool"]', (all) => all.map((e) => [(e as HTMLElement).innerText.split("\n")[0], (e as HTMLElement).dataset.status]));
    expect(cards.slice(-2)).toEqual([
      ["Kiln read src/greet.ts done", "done"],
      ["Kiln wrote test/greet.test.ts done", "done"],
    ]);
    // One "Task completed" block: no attempt_completion card above it.
    expect(await frame.$$('[data-testid="message-tool"][data-tool="attempt_completion"]')).toEqual([]);
    expect(readFileSync(join(workbench.workspace!, "test", "greet.test.ts"), "utf8")).toBe('import { greet } from "../src/greet";\n');
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-agent-task.png") });
  });

  it("draws each kind of tool card in the narrow sidebar: files read, a checklist, a diff, a command", async () => {
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    server.enqueue(
      { text: "<read_file>\n<args>\n<file><path>src/greet.ts</path><line_range>1-3</line_range></file>\n<file><path>README.md</path></file>\n</args>\n</read_file>" },
      { text: "<update_todo_list>\n<todos>\n- [x] Read the greeter\n- [-] Make the greeting polite\n- [ ] Check it\n</todos>\n</update_todo_list>" },
      {
        text: "<apply_diff>\n<path>src/greet.ts</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:2\n-------\n  return `Hello, ${name}!`;\n=======\n  return `Good day, ${name}!`;\n>>>>>>> REPLACE\n</diff>\n</apply_diff>",
      },
      { text: "<execute_command>\n<command>grep -c 'Good day' src/greet.ts</command>\n</execute_command>" },
      { text: "<attempt_completion>\n<result>The greeting is polite now.</result>\n</attempt_completion>" },
    );
    await sendTask(frame, "Make greet polite");
    // The todo list, the edit and the command each wait for Approve; Enter gives it.
    for (let answered = 0; ; answered++) {
      const state = await frame
        .waitForFunction(
          () =>
            [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes("polite now"))
              ? "done"
              : document.querySelector('[data-testid="message-tool"][data-status="waiting"] [data-testid="approval"]')
                ? (document.querySelector('[data-testid="message-tool"][data-status="waiting"]') as HTMLElement).dataset.tool
                : false,
          { timeout: 30_000 },
        )
        .catch(async (err: unknown) => {
          await workbench.page.screenshot({ path: join(resultsDir, "e2e-tool-cards-failed.png") });
          const active = await workbench.page.evaluate(() => `${document.activeElement?.tagName}.${document.activeElement?.className}`);
          throw new Error(
            `${String(err)}; after ${answered} approvals, the page's focus: ${active}; the model was asked ${server.requests.length} times, ${server.pending} replies left; the last request ended: ${JSON.stringify(server.requests.at(-1)?.body).slice(-600)}; the view shows: ${await frame.evaluate(() => document.body.innerText.slice(-1500))}`,
          );
        });
      const what = await state.jsonValue();
      if (what === "done") break;
      expect(answered).toBeLessThan(3);
      if (what === "apply_diff") await workbench.page.screenshot({ path: join(resultsDir, "e2e-tool-cards-diff.png") });
      await workbench.page.keyboard.press("Enter");
      await frame.waitForFunction(
        (name) =>
          !document.querySelector(`[data-testid="message-tool"][data-status="waiting"] [data-testid="approval"]`) ||
          (document.querySelector('[data-testid="message-tool"][data-status="waiting"]') as HTMLElement).dataset.tool !== name,
        { timeout: 30_000 },
        what,
      );
    }
    const cards = await frame.$$eval('[data-testid="message-tool"]', (all) => all.map((e) => [(e as HTMLElement).innerText.split("\n")[0], (e as HTMLElement).dataset.status]));
    expect(cards).toEqual([
      ["Kiln read 2 files done", "done"],
      ["Kiln updated the todo list done", "done"],
      ["Kiln edited src/greet.ts done", "done"],
      ["Kiln ran grep -c 'Good day' src/greet.ts done", "done"],
    ]);
    // Each title starts with its icon, drawn from VS Code's icon font that the page ships.
    const iconFont = await frame.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.replace(/["']/g, "") === "codicon").map((f) => f.status);
    });
    expect(iconFont).toEqual(["loaded"]);
    expect(await frame.$$eval('[data-testid="message-tool"] .tool-icon', (all) => all.map((e) => e.getBoundingClientRect().width > 0))).toEqual([true, true, true, true]);
    // Diff since on the edit's checkpoint: VS Code's diff editor, the checkpoint's greet.ts against today's.
    await frame.$eval('[data-testid="checkpoint-diff"]', (e) => (e as HTMLElement).click());
    await workbench.page.waitForFunction(
      () => /greet\.ts \(checkpoint [0-9a-f]{8} ↔ now\)/.test((document.querySelector(".tabs-container .tab.active") as HTMLElement | null)?.getAttribute("aria-label") ?? ""),
      { timeout: 20_000 },
    );
    await workbench.page.waitForSelector(".monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert", { timeout: 20_000 });
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-diff-since.png") });
    // The edited file's path opens it in the editor.
    await runCommand(workbench.page, "View: Close All Editors");
    await workbench.page.waitForFunction(() => document.querySelectorAll(".tabs-container .tab").length === 0, { timeout: 20_000 });
    await frame.click('[data-testid="message-tool"][data-tool="apply_diff"] [data-testid="tool-link"]');
    await workbench.page.waitForFunction(() => (document.querySelector(".tabs-container .tab.active") as HTMLElement | null)?.innerText.includes("greet.ts"), { timeout: 20_000 });
    expect(await frame.$$eval(".tool-files li", (all) => all.map((e) => (e as HTMLElement).innerText))).toEqual(["src/greet.ts lines 1-3", "README.md"]);
    expect(await frame.$$eval('[data-testid="checklist"] li', (all) => all.map((e) => (e as HTMLElement).dataset.status))).toEqual(["completed", "in_progress", "pending"]);
    expect(await frame.$eval('[data-testid="diff-block"]', (e) => (e as HTMLElement).innerText)).toContain("+  return `Good day, ${name}!`;");
    expect(await frame.$eval('[data-testid="command-line"]', (e) => (e as HTMLElement).innerText)).toContain("grep -c 'Good day' src/greet.ts");
    expect(readFileSync(join(workbench.workspace!, "src", "greet.ts"), "utf8")).toContain("Good day");
    // The chat kept to the newest: the completion is in view at its bottom.
    const inView = (selector: string) =>
      frame.$eval(selector, (e) => {
        const box = e.getBoundingClientRect();
        const list = document.querySelector(".message-list")!.getBoundingClientRect();
        return box.bottom > list.top && box.top < list.bottom;
      });
    expect(await inView('[data-testid="message-completion"]')).toBe(true);
    // The cards from the top: the user turns the wheel over the chat, and the chat lets go of the newest.
    const list = (await (await frame.$(".message-list"))!.boundingBox())!;
    await workbench.page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    for (let i = 0; i < 10 && !(await inView('[data-testid="message-tool"]')); i++) await workbench.page.mouse.wheel({ deltaY: -400 });
    await frame.waitForFunction(() => (document.querySelector(".message-list [data-testid='message-tool']")?.getBoundingClientRect().top ?? -1) >= 0, { timeout: 10_000 });
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-tool-cards.png") });

    // Dark, then the narrowest sidebar VS Code allows: every card's status stays inside its card.
    await useColorTheme(workbench.page, "Dark Modern");
    await frame.waitForFunction(() => document.body.classList.contains("vscode-dark"), { timeout: 10_000 });
    // The new theme measures every row again; the chat stays where the user scrolled it.
    expect(await inView('[data-testid="message-tool"]')).toBe(true);
    await shootSidebar(workbench.page, "e2e-tool-cards-dark.png");
    await dragSidebarEdge(workbench.page, -200);
    await frame.waitForFunction(() => document.body.clientWidth < 200, { timeout: 10_000 });
    const badges = await frame.$$eval('[data-testid="message-tool"]', (all) =>
      all.map((card) => {
        const outer = card.getBoundingClientRect();
        const badge = card.querySelector('[data-testid="tool-status"]')?.getBoundingClientRect();
        return badge !== undefined && badge.width > 0 && badge.left >= outer.left && badge.right <= outer.right;
      }),
    );
    expect(badges).toEqual(badges.map(() => true));
    // The header's buttons wrap rather than run past the sidebar's edge, and nothing scrolls sideways.
    expect(await frame.$eval('[data-testid="condense-task"]', (e) => e.getBoundingClientRect().right <= document.body.clientWidth)).toBe(true);
    const wider = await frame.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}[${(e as HTMLElement).dataset.testid ?? ""}] ${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(wider, `wider than the sidebar (${await frame.evaluate(() => document.documentElement.clientWidth)} px)`).toEqual([]);
    // Under the input: the mode by its icon (named to a screen reader), the profile with the room, and
    // the auto-approve summary whole on a line of its own rather than cut to nothing beside the switch.
    const footer = await frame.evaluate(() => {
      const width = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().width;
      const text = document.querySelector(".approve-bar-text") as HTMLElement;
      return {
        modeName: width(".mode-button-name"),
        modeLabel: document.querySelector('[data-testid="mode-picker"]')!.getAttribute("aria-label"),
        // The profile keeps its name in sight, and the model takes the rest of the row beside the icon-sized mode button.
        profileShown: width('[data-testid="profile-picker"]') > 20,
        modelWider: width(".model-picker") > 1.5 * width('[data-testid="mode-picker"]'),
        modelToEdge: Math.abs(document.querySelector(".model-picker")!.getBoundingClientRect().right - document.querySelector(".approve-bar")!.getBoundingClientRect().right) < 2,
        summary: text.innerText,
        summaryWhole: text.getBoundingClientRect().width > 0 && text.scrollWidth <= text.clientWidth,
      };
    });
    expect(footer).toEqual({ modeName: 0, modeLabel: "Mode: Code", profileShown: true, modelWider: true, modelToEdge: true, summary: "read files", summaryWhole: true });
    await shootSidebar(workbench.page, "e2e-tool-cards-narrow.png");
    // The same narrow sidebar in the light theme: the links, badges and code keep their colours.
    await useColorTheme(workbench.page, "Light Modern");
    await frame.waitForFunction(() => document.body.classList.contains("vscode-light"), { timeout: 10_000 });
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await shootSidebar(workbench.page, "e2e-tool-cards-narrow-light.png");
    await dragSidebarEdge(workbench.page, 200);
    await frame.waitForFunction(() => document.body.clientWidth > 250, { timeout: 10_000 });
  });

  it("Ctrl+. with the focus in the chat input cycles the mode, and the picker follows", async () => {
    const mode = () => shownMode(frame);
    const input = await frame.waitForSelector('[data-testid="chat-input"]');
    await input!.click();
    const seen = [await mode()];
    for (let i = 0; i < 2; i++) {
      await workbench.page.keyboard.down("Control");
      await workbench.page.keyboard.press(".");
      await workbench.page.keyboard.up("Control");
      await frame.waitForFunction((before) => (document.querySelector('[data-testid="mode-picker"]') as HTMLElement).dataset.mode !== before, { timeout: 10_000 }, seen.at(-1)!);
      seen.push(await mode());
    }
    expect(seen).toEqual(["code", "architect", "ask"]);
    // The keys went to the command, not into the input.
    expect(await frame.$eval('[data-testid="chat-input"]', (e) => (e as HTMLTextAreaElement).value)).toBe("");
    await pickMode(frame, "code");
  });

  it("the mode picker lists each mode with what it is for; arrows and Enter pick; Edit modes… opens the settings at the modes", async () => {
    // A real click, as a user opens it: the list then has the keyboard (a script's click cannot move
    // the focus into the webview's frame). The list opens above the button, away from the pointer:
    // a mode under the pointer would be the one the arrows move from.
    await frame.click('[data-testid="mode-picker"]');
    await frame.waitForSelector('[data-testid="mode-popover"]', { visible: true, timeout: 10_000 });
    const listed = await frame.$$eval('[data-testid="mode-option"]', (all) =>
      all.map((o) => [(o.querySelector(".mode-option-name") as HTMLElement).innerText, (o.querySelector(".mode-option-description") as HTMLElement | null)?.innerText ?? ""]),
    );
    expect(listed.map(([name]) => name)).toEqual(["Code", "Architect", "Ask", "Debug", "Orchestrator"]);
    expect(listed.every(([, description]) => (description ?? "").length > 10)).toBe(true);
    // The list stays inside the narrow sidebar.
    const overflow = await frame.$eval('[data-testid="mode-popover"]', (e) => e.getBoundingClientRect().right - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shootSidebar(workbench.page, "e2e-mode-popover.png");
    await workbench.page.keyboard.press("ArrowDown");
    await workbench.page.keyboard.press("Enter");
    await frame.waitForFunction(() => (document.querySelector('[data-testid="mode-picker"]') as HTMLElement).dataset.mode === "architect", { timeout: 10_000 });
    expect(await frame.$('[data-testid="mode-popover"]')).toBeNull();

    await frame.$eval('[data-testid="mode-picker"]', (e) => (e as HTMLElement).click());
    await frame.$eval('[data-testid="edit-modes"]', (e) => (e as HTMLElement).click());
    const settings = await settingsFrame(workbench.page);
    await settings.waitForFunction(() => document.activeElement?.id === "ks-modes", { timeout: 10_000 });
    // In view below the sticky navigation (the page may be too short to bring it to the very top).
    const seen = await settings.$eval("#ks-modes", (e) => {
      const box = e.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, height: window.innerHeight, nav: document.querySelector('[data-testid="settings-nav"]')!.getBoundingClientRect().bottom };
    });
    expect(seen.top).toBeGreaterThanOrEqual(seen.nav);
    expect(seen.bottom).toBeLessThanOrEqual(seen.height);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-settings-at-modes.png") });
    await runCommand(workbench.page, "View: Close Editor");
    frame = await kilnFrame(workbench.page);
    await pickMode(frame, "code");
  });

  it("the auto-approve bar above the input: the categories are toggles, the summary and the setting follow", async () => {
    const summary = () => frame.$eval('[data-testid="approve-summary"]', (e) => (e as HTMLElement).innerText.trim());
    await frame.waitForSelector('[data-testid="approve-summary"]', { timeout: 30_000 });
    expect(await summary()).toBe("read files");
    await frame.$eval('[data-testid="approve-summary"]', (e) => (e as HTMLElement).click());
    await frame.$eval('[data-testid="approve-words"] input[data-word="edit"]', (e) => (e as HTMLElement).click());
    await frame.waitForFunction(() => document.querySelector('[data-testid="approve-summary"]')?.textContent?.includes("edit files"), { timeout: 10_000 });
    expect(await summary()).toBe("read files, edit files");
    await shootSidebar(workbench.page, "e2e-approve-bar.png");
    await useColorTheme(workbench.page, "Dark Modern");
    frame = await kilnFrame(workbench.page);
    await shootSidebar(workbench.page, "e2e-approve-bar-dark.png");
    await useColorTheme(workbench.page, "Light Modern");
    frame = await kilnFrame(workbench.page);

    // The switch: every call asks, the categories kept for when it is on again.
    await frame.$eval('[data-testid="approve-switch"]', (e) => (e as HTMLElement).click());
    await frame.waitForFunction(() => document.querySelector('[data-testid="approve-summary"]')?.textContent?.startsWith("Off"), { timeout: 10_000 });
    await frame.$eval('[data-testid="approve-switch"]', (e) => (e as HTMLElement).click());
    await frame.waitForFunction(() => document.querySelector('[data-testid="approve-summary"]')?.textContent?.includes("edit files"), { timeout: 10_000 });
    await frame.$eval('[data-testid="approve-words"] input[data-word="edit"]', (e) => (e as HTMLElement).click());
    await frame.waitForFunction(() => document.querySelector('[data-testid="approve-summary"]')?.textContent?.trim() === "read files", { timeout: 10_000 });
    await frame.$eval('[data-testid="approve-summary"]', (e) => (e as HTMLElement).click());
  });

  it("codebase_search: the card names the query; its result shows the matching function as path:lines with its code", async () => {
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    server.enqueue({ text: "<codebase_search>\n<query>greeting for a name</query>\n</codebase_search>" }, { text: COMPLETE });
    await sendTask(frame, "Where is the greeting built?");
    const card = '[data-testid="message-tool"][data-tool="codebase_search"]';
    await frame.waitForFunction((sel) => (document.querySelector(sel) as HTMLElement | null)?.dataset.status === "done", { timeout: 30_000 }, card);
    expect(await frame.$eval(card, (e) => (e as HTMLElement).innerText.split("\n")[0])).toBe("Kiln searched the codebase for greeting for a name done");
    await frame.$eval(`${card} [data-testid="tool-result"] summary`, (e) => (e as HTMLElement).click());
    const result = await frame.$eval(`${card} [data-testid="tool-result"] pre`, (e) => (e as HTMLElement).innerText);
    expect(result).toMatch(/^# src\/greet\.ts\n## src\/greet\.ts:1-\d+ score 1\.00 \(greet\)\n1 \| export function greet/m);
    await shootSidebar(workbench.page, "e2e-codebase-search.png");
    // The status bar says the index is built, and how much of the workspace it holds.
    const status = await workbench.page.waitForFunction(
      () => [...document.querySelectorAll(".statusbar-item")].map((e) => (e as HTMLElement).innerText.trim()).find((t) => /^\d+ files indexed$/.test(t)),
      { timeout: 20_000 },
    );
    expect(await status.jsonValue()).toMatch(/^\d+ files indexed$/);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-codebase-index-status.png") });
  });

  it("go_to_definition and find_references: the cards name the symbol; the TypeScript server's answers show the code", async () => {
    writeFileSync(join(workbench.workspace!, "src", "hello.ts"), 'import { greet } from "./greet";\n\nexport const hello = greet("e2e");\n');
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    server.enqueue(
      { text: "<go_to_definition>\n<path>src/hello.ts</path>\n<line>3</line>\n<symbol>greet</symbol>\n</go_to_definition>" },
      { text: "<find_references>\n<path>src/hello.ts</path>\n<line>3</line>\n<symbol>greet</symbol>\n</find_references>" },
      { text: COMPLETE },
    );
    await sendTask(frame, "Where is greet defined, and who uses it?");
    const definition = '[data-testid="message-tool"][data-tool="go_to_definition"]';
    const references = '[data-testid="message-tool"][data-tool="find_references"]';
    // The TypeScript server may still be starting: the first answer waits for it.
    await frame.waitForFunction((sel) => (document.querySelector(sel) as HTMLElement | null)?.dataset.status === "done", { timeout: 60_000 }, references);
    expect(await frame.$eval(definition, (e) => (e as HTMLElement).innerText.split("\n")[0])).toBe("Kiln found the definition of greet done");
    expect(await frame.$eval(references, (e) => (e as HTMLElement).innerText.split("\n")[0])).toBe("Kiln found the references to greet done");
    await frame.$eval(`${definition} [data-testid="tool-result"] summary`, (e) => (e as HTMLElement).click());
    expect(await frame.$eval(`${definition} [data-testid="tool-result"] pre`, (e) => (e as HTMLElement).innerText)).toMatch(/^## src\/greet\.ts:1\n1 \| export function greet\(name: string\)/m);
    await frame.$eval(`${references} [data-testid="tool-result"] summary`, (e) => (e as HTMLElement).click());
    const used = await frame.$eval(`${references} [data-testid="tool-result"] pre`, (e) => (e as HTMLElement).innerText);
    expect(used).toContain('# src/hello.ts\n1 | import { greet } from "./greet";\n3 | export const hello = greet("e2e");');
    expect(used).toMatch(/# src\/greet\.ts\n1 \| export function greet/);
    await shootSidebar(workbench.page, "e2e-code-intelligence.png");
  });

  it("rename_symbol: each file's change opens in the diff editor beside its card and is approved there, file by file", async () => {
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    server.enqueue({ text: "<rename_symbol>\n<path>src/hello.ts</path>\n<line>3</line>\n<symbol>greet</symbol>\n<new_name>salute</new_name>\n</rename_symbol>" }, { text: COMPLETE });
    await sendTask(frame, "Call greet salute");
    const card = '[data-testid="message-tool"][data-tool="rename_symbol"]';
    // The file it was asked in first, then the others; edits are not auto-approved here, so each asks.
    for (const [i, name] of ["hello.ts", "greet.ts", "greet.test.ts"].entries()) {
      await workbench.page.waitForFunction((n) => (document.querySelector(".tabs-container .tab.active") as HTMLElement | null)?.innerText.includes(n), { timeout: 30_000 }, name);
      await frame.waitForSelector(`${card}[data-status="waiting"] [data-testid="approve"]`, { timeout: 30_000 });
      if (i === 0) {
        expect(await frame.$eval(card, (e) => (e as HTMLElement).innerText.split("\n")[0])).toBe("Kiln wants to rename greet waiting");
        await workbench.page.screenshot({ path: join(resultsDir, "e2e-rename-review.png") });
      }
      await frame.click(`${card} [data-testid="approve"]`);
    }
    await frame.waitForFunction((sel) => (document.querySelector(sel) as HTMLElement | null)?.dataset.status === "done", { timeout: 30_000 }, card);
    expect(readFileSync(join(workbench.workspace!, "src", "hello.ts"), "utf8")).toBe('import { salute } from "./greet";\n\nexport const hello = salute("e2e");\n');
    expect(readFileSync(join(workbench.workspace!, "src", "greet.ts"), "utf8")).toMatch(/^export function salute\(name: string\)/);
    expect(readFileSync(join(workbench.workspace!, "test", "greet.test.ts"), "utf8")).toBe('import { salute } from "../src/greet";\n');
    await frame.waitForSelector('[data-testid="message-completion"]', { timeout: 30_000 });
    await shootSidebar(workbench.page, "e2e-rename-done.png");
  });

  it("uses the theme's colours", async () => {
    const colours = await frame.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--vscode-foreground)";
      document.body.appendChild(probe);
      const expected = getComputedStyle(probe).color;
      probe.remove();
      return { variable: getComputedStyle(document.documentElement).getPropertyValue("--vscode-foreground").trim(), body: getComputedStyle(document.body).color, expected };
    });
    expect(colours.variable).not.toBe("");
    expect(colours.body).toBe(colours.expected);
  });
});
