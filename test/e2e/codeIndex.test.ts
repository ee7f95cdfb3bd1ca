import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeEmbeddingServer } from "../fixtures/fakeEmbeddingServer";
import { openWorkbench, resultsDir, runCommand, settingsFrame, shootSettingsSection, type Workbench } from "./workbench";

/** The settings page's "Codebase index" section, in a real VS Code (code-server) and Chromium, with an embedder (a local one speaking OpenAI's /v1/embeddings). */
let workbench: Workbench;
let settings: Frame;
let embeddings: FakeEmbeddingServer;

const stateText = () => settings.$eval('[data-testid="index-state"]', (e) => (e as HTMLElement).innerText);
const waitForState = (pattern: string) =>
  settings.waitForFunction((want) => new RegExp(want).test((document.querySelector('[data-testid="index-state"]') as HTMLElement | null)?.innerText ?? ""), { timeout: 60_000 }, pattern);

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`src/feature${i}/service.ts`] = `/** Feature ${i}'s service. */\nexport function startFeature${i}(): number {\n  return ${i};\n}\n`;
  embeddings = await new FakeEmbeddingServer().start();
  workbench = await openWorkbench(
    {
      "kiln.provider.kind": "openai-compatible",
      "kiln.provider.baseUrl": "http://127.0.0.1:9/v1",
      "kiln.provider.model": "unused",
      "kiln.index.embedder": "openai-compatible",
      "kiln.index.embedderModel": "text-embedding-3-small",
      "kiln.index.embedderBaseUrl": embeddings.openaiBaseUrl,
    },
    files,
  );
  await runCommand(workbench.page, "Kiln: Open Settings");
  settings = await settingsFrame(workbench.page);
  await settings.$$eval('[data-testid="settings-nav"] a', (links) => (links.find((a) => a.textContent === "Codebase index") as HTMLElement).click());
});

afterAll(async () => {
  await workbench?.close();
  await embeddings?.close();
});

describe("the settings page's codebase index", () => {
  it("shows the index built when the folder opened: files, chunks, ranking and what is saved", async () => {
    await waitForState("^Ready: \\d+ files, \\d+ chunks$");
    const files = Number((await stateText()).match(/Ready: (\d+) files/)![1]);
    expect(files).toBeGreaterThanOrEqual(40);
    await settings.waitForFunction(() => /^[\d.]+ KB, /.test((document.querySelector('[data-testid="index-saved"]') as HTMLElement | null)?.innerText ?? ""), { timeout: 20_000 });
    // Every chunk has its vector: the page is refreshed as the index changes.
    await settings.waitForFunction(() => /\((\d+) of \1 chunks have one\)$/.test((document.querySelector('[data-testid="index-ranking"]') as HTMLElement | null)?.innerText ?? ""), {
      timeout: 30_000,
    });
    expect(await settings.$eval('[data-testid="index-ranking"]', (e) => (e as HTMLElement).innerText)).toMatch(
      /^Words and meaning: full text \(BM25\) merged with the vectors of openai-compatible:text-embedding-3-small@http:\/\/127\.0\.0\.1:\d+\/v1 \(\d+ of \d+ chunks have one\)$/,
    );
    expect(await settings.$eval('[data-testid="index-enabled"]', (e) => (e as HTMLInputElement).checked)).toBe(true);
    // A narrow window too: the facts stack under their labels and the long embedder name wraps.
    await shootSettingsSection(workbench, settings, "code-index-section", "e2e-code-index-settings");
  });

  it("Rebuild reads every file again and says so; the status bar shows the count", async () => {
    await settings.click('[data-testid="index-rebuild"]');
    await settings.waitForFunction(() => document.querySelector('[data-testid="settings-status"]')?.textContent === "Indexing the workspace again, from nothing.", { timeout: 20_000 });
    await waitForState("^Ready: \\d+ files");
    // The status bar and the webview are updated by separate messages from the extension host, so
    // the item may show the count a moment after the settings page does.
    const statusItem = () => [...document.querySelectorAll(".part.statusbar .statusbar-item")].map((i) => (i as HTMLElement).innerText.trim()).find((t) => /files indexed/.test(t)) ?? "";
    await workbench.page.waitForFunction(statusItem, { timeout: 20_000 });
    expect(await workbench.page.evaluate(statusItem)).toMatch(/^\d+ files indexed$/);
  });

  it("Delete asks first, then removes what is saved and turns indexing off; the switch turns it on again", async () => {
    await settings.click('[data-testid="index-delete"]');
    await settings.waitForSelector('[data-testid="confirm-delete-index"]');
    expect(await settings.$eval('[data-testid="confirm-delete-index"]', (e) => (e as HTMLElement).innerText)).toContain("Delete the saved index and stop indexing this workspace?");
    await settings.$$eval('[data-testid="confirm-delete-index"] button', (buttons) => (buttons.find((b) => b.textContent === "Delete") as HTMLElement).click());
    await waitForState("^Off for this workspace$");
    await settings.waitForFunction(() => document.querySelector('[data-testid="index-saved"]')?.textContent === "Nothing saved yet", { timeout: 20_000 });
    expect(await settings.$eval('[data-testid="index-rebuild"]', (e) => (e as HTMLButtonElement).disabled)).toBe(true);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-code-index-settings-off.png") });
    await settings.click('[data-testid="index-enabled"]');
    await waitForState("^Ready: \\d+ files");
  });

  it("the embedder form shows the settings, names a missing key under its field, and turning the embedder off ranks by words", async () => {
    const value = (id: string) => settings.$eval(`[data-testid="${id}"]`, (e) => (e as HTMLInputElement | HTMLSelectElement).value);
    await settings.waitForSelector('[data-testid="embedder-form"]');
    expect([await value("embedder-kind"), await value("embedder-model"), await value("embedder-baseUrl")]).toEqual(["openai-compatible", "text-embedding-3-small", embeddings.openaiBaseUrl]);
    // Mistral needs a key: the host refuses the form and nothing is saved.
    await settings.select('[data-testid="embedder-kind"]', "mistral");
    expect(await settings.$eval('[data-testid="embedder-model"]', (e) => (e as HTMLInputElement).placeholder)).toBe("codestral-embed");
    await settings.click('[data-testid="embedder-save"]');
    await settings.waitForSelector('[data-testid="embedder-error-key"]', { timeout: 10_000 });
    expect(await settings.$eval('[data-testid="embedder-error-key"]', (e) => (e as HTMLElement).innerText)).toBe("The mistral embedder needs an API key (from console.mistral.ai).");
    await shootSettingsSection(workbench, settings, "embedder-form", "e2e-code-index-embedder-form");
    expect(await settings.$eval('[data-testid="index-ranking"]', (e) => (e as HTMLElement).innerText)).toMatch(/^Words and meaning/);

    await settings.select('[data-testid="embedder-kind"]', "none");
    await settings.click('[data-testid="embedder-save"]');
    await settings.waitForFunction(() => (document.querySelector('[data-testid="embedder-saved"]') as HTMLElement | null)?.innerText === "The codebase index ranks by words alone.", {
      timeout: 10_000,
    });
    await settings.waitForFunction(() => /^Full text \(BM25/.test((document.querySelector('[data-testid="index-ranking"]') as HTMLElement | null)?.innerText ?? ""), { timeout: 20_000 });
    expect(await value("embedder-kind")).toBe("none");
  });
});
