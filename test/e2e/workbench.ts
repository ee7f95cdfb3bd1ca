import { createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser, ElementHandle, Frame, Page } from "puppeteer-core";
import { expect } from "vitest";
import { installExtension, launchChromium, makeProfile, root, startCodeServer, writeUserSettings } from "../../scripts/lib/codeServer.mjs";
import { FakeModelServer } from "../fixtures/fakeModelServer";

export const resultsDir = join(root, "test-results");

export interface Workbench {
  page: Page;
  /** The folder the workbench has open, when the test chose it. */
  workspace?: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * code-server with the packaged vsix installed (as a user would), opened in Chromium. `files` (paths
 * relative to the workspace) are written into the workspace before it opens. workspaceTrust: the
 * folder opens untrusted (Restricted Mode), as a freshly cloned one does. locale: the display
 * language; installed(dir) sees the installed extension's folder before code-server starts;
 * alsoInstall: other extensions' vsix files (a language pack).
 */
export async function openWorkbench(
  settings: Record<string, unknown>,
  files: Record<string, string> = {},
  options: { workspaceTrust?: boolean; locale?: string; installed?: (extensionDir: string) => void; alsoInstall?: readonly string[]; userData?: (userDataDir: string) => void } = {},
): Promise<Workbench> {
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const vsix = join(root, `kiln-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package first`);
  mkdirSync(resultsDir, { recursive: true });
  const profile = makeProfile("kiln-e2e-");
  installExtension(profile, vsix);
  for (const other of options.alsoInstall ?? []) installExtension(profile, other);
  options.installed?.(
    join(
      profile.extensionsDir,
      readdirSync(profile.extensionsDir).find((name) => name.startsWith("kiln.kiln-"))!,
    ),
  );
  writeUserSettings(profile, settings);
  // Other extensions' data beside Kiln's (what a user coming from another agent has).
  options.userData?.(profile.userDataDir);
  const workspace = join(mkdtempSync(join(tmpdir(), "kiln-e2e-ws-")), "workspace");
  cpSync(join(root, "test", "fixtures", "workspace"), workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const server = await startCodeServer({ profile, workspaceTrust: options.workspaceTrust === true, ...(options.locale && { locale: options.locale }) });
  const opened = await openInChromium(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
  return {
    ...opened,
    workspace,
    async close() {
      await opened.close();
      await server.stop();
    },
  };
}

/** Opens a workbench URL in headless Chromium and waits for the workbench to be up. */
export async function openInChromium(url: string): Promise<Workbench> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector(".activitybar", { timeout: 120_000 });
  return { page, browser, close: () => browser.close() };
}

/**
 * Clicks the Kiln activity-bar entry (unless its view is open) and returns the chat webview's inner
 * frame. `name`: the entry's name in the display language.
 */
export async function openKilnView(page: Page, name = "Kiln"): Promise<Frame> {
  const entry = await page.waitForSelector(`.activitybar a.action-label[aria-label^="${name}"]`, { timeout: 60_000 });
  const open = await entry!.evaluate((e) => e.closest(".action-item")?.classList.contains("checked") ?? false);
  if (!open) await entry!.click();
  return kilnFrame(page);
}

/** The Kiln chat webview's inner frame, once its page has loaded. */
export async function kilnFrame(page: Page): Promise<Frame> {
  // Webview frames live in a workbench overlay, not inside the sidebar's DOM. A view restored by a
  // reload has no purpose= in its URL, so only the extension is matched.
  const outer = await page.waitForSelector('iframe.webview.ready[src*="extensionId=kiln.kiln"]', { timeout: 60_000 });
  const outerFrame = await outer!.contentFrame();
  const inner = await outerFrame.waitForSelector("iframe#active-frame", { timeout: 30_000 });
  const frame = await inner!.contentFrame();
  await frame.waitForSelector('[data-testid="chat-input"]', { timeout: 30_000 });
  return frame;
}

const PALETTE_INPUT = ".quick-input-widget:not([style*='display: none']) input";

/**
 * Ctrl+Shift+P, as a user opens it; the palette's input once it shows. Pressed again if the palette
 * does not show: a key pressed while the workbench moves focus (a view opening) can be lost, as a
 * user would find and press it again.
 */
async function openCommandPalette(page: Page): Promise<ElementHandle<HTMLInputElement>> {
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.down("Control");
    await page.keyboard.down("Shift");
    await page.keyboard.press("p");
    await page.keyboard.up("Shift");
    await page.keyboard.up("Control");
    const input = await page.waitForSelector(PALETTE_INPUT, { visible: true, timeout: 10_000 }).catch((err: unknown) => {
      if (attempt === 2) throw err;
      return null;
    });
    if (input) return input as ElementHandle<HTMLInputElement>;
  }
}

/** Runs a command from the command palette by its title, as a user would. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const listed = (timeout: number) =>
    page
      .waitForFunction((want) => [...document.querySelectorAll(".quick-input-list .monaco-list-row")].some((row) => (row as HTMLElement).innerText.includes(want)), { timeout }, title)
      .then(() => true)
      .catch(() => false);
  for (let attempt = 0; ; attempt++) {
    await openCommandPalette(page);
    // The whole text, `>` included: right after a reload the first keys can land before the palette
    // has its `>`, which turns it into file search. The input is found again here: the palette may
    // redraw it between showing and typing, which leaves a handle to the old one unclickable.
    await page.evaluate((selector) => {
      const input = document.querySelector<HTMLInputElement>(selector);
      input?.focus();
      input?.select();
    }, PALETTE_INPUT);
    await page.keyboard.type(`>${title}`);
    if (await listed(attempt === 0 ? 20_000 : 60_000)) break;
    if (attempt === 1)
      throw new Error(
        `the command palette does not list "${title}"; it shows: ${await page.evaluate(() => (document.querySelector(".quick-input-widget") as HTMLElement | null)?.innerText ?? "(no palette)")}`,
      );
    await page.keyboard.press("Escape");
  }
  await page.keyboard.press("Enter");
}

/**
 * Picks a colour theme as a user does: Preferences: Color Theme, then its name ("Dark Modern",
 * "Light Modern"). The command is clicked by its exact name: Enter could take a neighbour, such as
 * the marketplace search, which has no network here.
 */
export async function useColorTheme(page: Page, label: string): Promise<void> {
  const rows = ".quick-input-list .monaco-list-row";
  const rowNamed = (name: string) =>
    page.waitForFunction(
      (sel, want) => [...document.querySelectorAll(sel)].find((r) => (r.querySelector(".label-name") as HTMLElement | null)?.innerText === want) ?? false,
      { timeout: 20_000 },
      rows,
      name,
    );
  const input = await openCommandPalette(page);
  await input!.type("Preferences: Color Theme");
  // The list redraws while the last keys filter it, which can leave the row found a moment ago
  // detached: it is found again and clicked anew.
  for (let attempt = 0; ; attempt++) {
    const command = (await rowNamed("Preferences: Color Theme")).asElement() as ElementHandle<Element> | null;
    try {
      await command!.click();
      break;
    } catch (err) {
      if (attempt === 2) throw err;
    }
  }
  // The themes' list is drawn a screenful at a time: typing the name brings a theme further down into view.
  await page.waitForSelector(rows, { timeout: 20_000 });
  await page.keyboard.type(label);
  await rowNamed(label);
  await page.waitForFunction((sel, want) => (document.querySelector(`${sel}.focused .label-name`) as HTMLElement | null)?.innerText === want, { timeout: 20_000 }, rows, label);
  await page.keyboard.press("Enter");
  // The workbench's class for the theme's kind: vs, vs-dark, hc-black (dark high contrast) or hc-light.
  const kind = label.includes("High Contrast") ? (label.includes("Light") ? "hc-light" : "hc-black") : label.includes("Dark") ? "vs-dark" : "vs";
  await page.waitForFunction((cls) => document.querySelector(".monaco-workbench")?.classList.contains(cls), { timeout: 20_000 }, kind);
}

export async function sendTask(frame: Frame, text: string): Promise<void> {
  const input = await frame.waitForSelector('[data-testid="chat-input"]');
  await input!.click();
  await input!.type(text);
  await input!.press("Enter");
}

export function lastAssistantText(frame: Frame): Promise<{ text: string; partial: boolean } | null> {
  return frame.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message-assistant"]');
    const last = all[all.length - 1] as HTMLElement | undefined;
    return last ? { text: last.innerText, partial: last.dataset.partial === "true" } : null;
  });
}

/**
 * The fake model server and a workbench whose Kiln talks to it (OpenAI-compatible, no retries),
 * with the chat view open. `settings` adds to or overrides those; `files` go into the workspace.
 */
export async function openKilnWithFakeModel(
  model: string,
  settings: Record<string, unknown> = {},
  files: Record<string, string> = {},
): Promise<{ server: FakeModelServer; workbench: Workbench; frame: Frame }> {
  const server = await new FakeModelServer().start();
  const workbench = await openWorkbench(
    {
      "kiln.provider.kind": "openai-compatible",
      "kiln.provider.baseUrl": server.openaiBaseUrl,
      "kiln.provider.model": model,
      "kiln.provider.retries": 0,
      ...settings,
    },
    files,
  );
  return { server, workbench, frame: await openKilnView(workbench.page) };
}

/** The sidebar alone, where Kiln's view is: the narrow column a user reads it in. */
export async function shootSidebar(page: Page, name: string): Promise<void> {
  const sidebar = await page.$(".part.sidebar");
  const box = await sidebar!.boundingBox();
  // Within the viewport: capturing beyond it resizes the page, and the workbench then lays the sidebar out anew.
  await page.screenshot({ path: join(resultsDir, name), clip: box!, captureBeyondViewport: false });
}

/** Drags the sidebar's edge by dx pixels, as a user resizes it (VS Code keeps it at least 170 wide). */
export async function dragSidebarEdge(page: Page, dx: number): Promise<void> {
  const box = (await (await page.$(".part.sidebar"))!.boundingBox())!;
  const edge = { x: box.x + box.width, y: box.y + box.height / 2 };
  await page.mouse.move(edge.x, edge.y);
  await page.mouse.down();
  await page.mouse.move(edge.x + dx, edge.y, { steps: 10 });
  await page.mouse.up();
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's WCAG 2.1 A and AA rules on a page as it is now: the serious and critical findings, one line each. */
export async function axeViolations(frame: Frame): Promise<string[]> {
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

/** Picks a mode as a user does: opens the mode picker under the input and clicks the mode. */
export async function pickMode(frame: Frame, slug: string): Promise<void> {
  await frame.$eval('[data-testid="mode-picker"]', (e) => (e as HTMLElement).click());
  await frame.waitForSelector(`[data-testid="mode-option"][data-mode="${slug}"]`, { timeout: 10_000 });
  await frame.$eval(`[data-testid="mode-option"][data-mode="${slug}"]`, (e) => (e as HTMLElement).click());
}

/** The mode the chat input's picker shows. */
export function shownMode(frame: Frame): Promise<string | undefined> {
  return frame.$eval('[data-testid="mode-picker"]', (e) => (e as HTMLElement).dataset.mode);
}

/** The Kiln Settings page's inner frame, once it has drawn its sections. */
export async function settingsFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    // Each webview is an outer frame around an inner one; the chat's and the settings' alike.
    for (const outer of await page.$$('iframe.webview.ready[src*="extensionId=kiln.kiln"]')) {
      const inner = await (await outer.contentFrame())?.$("iframe#active-frame");
      const frame = await inner?.contentFrame();
      if (frame && (await frame.$('[data-testid="settings-nav"]'))) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the Kiln Settings page did not show");
}

/**
 * A settings page section as a user sees it, checked by axe and shot in light, dark and a narrow
 * window (where nothing may stick out sideways): `<name>-light.png`, `-dark.png`, `-narrow.png`.
 */
export async function shootSettingsSection(workbench: Workbench, settings: Frame, testId: string, name: string): Promise<void> {
  const page = workbench.page;
  const show = () => settings.$eval(`[data-testid="${testId}"]`, (e) => e.scrollIntoView({ block: "start" }));
  await show();
  expect(await axeViolations(settings)).toEqual([]);
  await page.screenshot({ path: join(resultsDir, `${name}-light.png`) });
  await page.click(".part.sidebar .composite.title");
  await useColorTheme(page, "Dark Modern");
  expect(await axeViolations(settings)).toEqual([]);
  await page.screenshot({ path: join(resultsDir, `${name}-dark.png`) });
  await page.click(".part.sidebar .composite.title");
  await useColorTheme(page, "Light Modern");
  const viewport = page.viewport();
  await page.setViewport({ width: 720, height: viewport?.height ?? 800 });
  try {
    await show();
    expect(await settings.$eval(`[data-testid="${testId}"]`, (section) => section.scrollWidth - section.clientWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(resultsDir, `${name}-narrow.png`) });
  } finally {
    if (viewport) await page.setViewport(viewport);
  }
}
