import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRooStorage } from "../fixtures/rooStorage";
import { kilnFrame, openKilnView, openWorkbench, resultsDir, runCommand, settingsFrame, shootSettingsSection, shootSidebar, type Workbench } from "./workbench";

/** A user coming from Roo Code: its data beside Kiln's in the editor's storage, offered at first start and imported from the settings page. */
let workbench: Workbench;
/** A Roo "Export settings" file beside the user data, with a key that must not come over. */
let exportFile = "";
const KEY = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

beforeAll(async () => {
  workbench = await openWorkbench(
    { "kiln.provider.kind": "openai-compatible", "kiln.provider.baseUrl": "http://127.0.0.1:9/v1", "kiln.provider.model": "unused" },
    {},
    {
      userData: (dir) => {
        writeRooStorage(join(dir, "User"));
        exportFile = join(dir, "roo-code-settings.json");
        const apiConfigs = {
          Claude: { id: "c1", apiProvider: "anthropic", apiModelId: "claude-sonnet-4-5", apiKey: KEY },
          "Local Qwen": { id: "q1", apiProvider: "openai", openAiBaseUrl: "http://localhost:8000/v1", openAiModelId: "qwen3-coder" },
        };
        writeFileSync(exportFile, JSON.stringify({ providerProfiles: { currentApiConfigName: "Claude", apiConfigs, modeApiConfigs: {} }, globalSettings: {} }));
      },
    },
  );
}, 180_000);

afterAll(async () => {
  await workbench?.close();
});

const text = (frame: Frame, testId: string) => frame.$eval(`[data-testid="${testId}"]`, (e) => (e as HTMLElement).innerText);

describe("importing from Roo Code", () => {
  it("opening Kiln the first time offers it; Review import shows what would come over; Import brings it, and a second look finds it all here", async () => {
    const page = workbench.page;
    // A new user's first step: Kiln's icon in the activity bar, which starts the extension.
    await openKilnView(page);
    await page.waitForFunction(() => [...document.querySelectorAll(".notification-toast")].some((t) => (t as HTMLElement).innerText.includes("Kiln found Roo Code")), { timeout: 60_000 });
    await page.screenshot({ path: join(resultsDir, "e2e-import-offer.png") });
    const buttons = await page.$$(".notification-toast .monaco-button");
    const labels = await Promise.all(buttons.map((b) => b.evaluate((e) => (e as HTMLElement).innerText.trim())));
    await buttons[labels.indexOf("Review import")]!.click();

    const settings = await settingsFrame(page);
    await settings.waitForSelector('[data-testid="import-preview"]', { timeout: 30_000 });
    const preview = await text(settings, "import-preview");
    expect(preview).toContain("Modes: 2 to bring over, 1 left out");
    expect(preview).toContain("MCP servers: 2 to bring over, 1 left out");
    expect(preview).toContain("Tasks: 2 to bring over, 2 left out");
    await settings.$eval('[data-testid="import-preview"] details', (d) => ((d as HTMLDetailsElement).open = true));
    // Named inside the source's folder, with why.
    const opened = await text(settings, "import-preview");
    expect(opened).toContain('settings/custom_modes.yaml: mode "Broken Slug": slug: use letters, digits and dashes');
    expect(opened).toContain("tasks/0b8c1d2e-4444-4bbb-8ccc-000000000004: api_conversation_history.json is missing");
    expect(opened).not.toContain("user-data/User/globalStorage");

    await settings.$eval('[data-testid="import-run"]', (b) => (b as HTMLElement).click());
    await settings.waitForSelector('[data-testid="import-done"]', { timeout: 30_000 });
    const done = await text(settings, "import-done");
    expect(done).toContain("Modes: 2 brought over, 1 left out");
    expect(done).toContain("Tasks: 2 brought over, 2 left out");
    // The imported modes show in the Modes section at once.
    await settings.waitForSelector('[data-testid="mode"][data-slug="reviewer"][data-scope="global"]', { timeout: 10_000 });
    // Provider profiles from a settings export, picked in the editor's file dialog.
    await settings.$eval('[data-testid="import-profiles-run"]', (b) => (b as HTMLElement).click());
    const input = await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: 20_000 });
    // The dialog fills in a folder first; typing over it before then would be lost.
    await page.waitForFunction(() => ((document.querySelector(".quick-input-widget input") as HTMLInputElement | null)?.value ?? "").length > 0, { timeout: 20_000 });
    await input!.click({ clickCount: 3 });
    await input!.type(exportFile);
    await page.keyboard.press("Enter");
    await settings.waitForSelector('[data-testid="import-profiles-done"]', { timeout: 20_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: join(resultsDir, "e2e-import-profiles-failed.png") });
      throw new Error(`${String(err)}; the section shows: ${await text(settings, "import-profiles")}`);
    });
    const profiles = await text(settings, "import-profiles-done");
    expect(profiles).toContain("Profiles: 2 brought over");
    expect(profiles).toContain("Set a key in Providers for: Claude");
    expect(await settings.evaluate(() => document.body.innerText)).not.toContain("sk-ant-api03");
    await shootSettingsSection(workbench, settings, "import-section", "e2e-import-settings");
  });

  it("the history lists the imported tasks as from Roo Code; one opens with its messages, tool calls and completion", async () => {
    const page = workbench.page;
    await runCommand(page, "Kiln: Task History");
    const frame = await kilnFrame(page);
    await frame.waitForSelector('[data-testid="history-imported"]', { timeout: 30_000 });
    const entries = await frame.$$eval('[data-testid="history-entry"]', (all) => all.map((e) => (e as HTMLElement).innerText));
    const imported = entries.filter((e) => e.includes("from Roo Code"));
    expect(imported).toHaveLength(2);
    expect(imported.some((e) => e.startsWith("Add a greeting to the README"))).toBe(true);
    await shootSidebar(page, "e2e-import-history.png");

    const titles = await frame.$$('[data-testid="history-entry"] .history-title');
    const labels = await Promise.all(titles.map((t) => t.evaluate((e) => (e as HTMLElement).innerText)));
    await titles[labels.findIndex((l) => l.startsWith("Add a greeting to the README"))]!.click();
    await frame.waitForFunction(() => document.querySelector('[data-testid="message-completion"]')?.textContent?.includes("Added a greeting to the README."), { timeout: 30_000 });
    // textContent: cards scrolled out of view are not laid out, so innerText would skip them.
    const chat = await frame.evaluate(() => document.body.textContent ?? "");
    expect(chat).toContain("npm test");
    expect(chat).toContain("README.md");
    // Shot once the cards are laid out, not while the list is still being measured.
    await frame.waitForFunction(
      () =>
        (document.querySelector('[data-testid="message-completion"]')?.getBoundingClientRect().height ?? 0) > 0 &&
        (document.querySelector('[data-testid="message-user"]')?.getBoundingClientRect().height ?? 0) > 0,
      { timeout: 10_000 },
    );
    await frame.waitForSelector('[data-testid="message-completion"]', { visible: true, timeout: 10_000 });
    await shootSidebar(page, "e2e-import-task.png");
  });
});
