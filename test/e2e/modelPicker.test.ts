import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { axeViolations, openWorkbench, resultsDir, runCommand, settingsFrame, useColorTheme, type Workbench } from "./workbench";

const KEY = "sk-or-e2e-picker";

/** An OpenRouter-sized list (about 500 models) in OpenRouter's shape: prices are strings of USD per token. */
function openRouterList(): unknown {
  const vendors = ["anthropic", "openai", "google", "meta-llama", "mistralai", "qwen", "deepseek", "x-ai", "moonshotai", "z-ai"];
  const data: unknown[] = [
    {
      id: "anthropic/claude-sonnet-4.5",
      name: "Anthropic: Claude Sonnet 4.5",
      context_length: 1_000_000,
      architecture: { input_modalities: ["text", "image"] },
      pricing: { prompt: "0.000003", completion: "0.000015" },
      top_provider: { max_completion_tokens: 64_000 },
      supported_parameters: ["tools", "max_tokens"],
    },
  ];
  for (let i = 0; i < 499; i++) {
    const vendor = vendors[i % vendors.length]!;
    data.push({
      id: `${vendor}/model-${i}`,
      name: `${vendor}: Model ${i}`,
      context_length: 32_768 * (1 + (i % 8)),
      architecture: { input_modalities: i % 3 === 0 ? ["text", "image"] : ["text"] },
      pricing: { prompt: String((i % 7) * 0.0000005), completion: String((i % 7) * 0.000002) },
      supported_parameters: i % 2 === 0 ? ["tools"] : [],
    });
  }
  return { data };
}

let server: FakeModelServer;
let workbench: Workbench;
let settings: Frame;

beforeAll(async () => {
  server = await new FakeModelServer({ apiKey: KEY, routes: { "/v1/models": openRouterList() } }).start();
  workbench = await openWorkbench({
    "kiln.provider.kind": "openai-compatible",
    "kiln.provider.baseUrl": server.openaiBaseUrl,
    "kiln.provider.model": "fake-picker",
    "kiln.profiles": [{ name: "Router", kind: "openrouter", baseUrl: server.openaiBaseUrl }],
  });
  await runCommand(workbench.page, "Kiln: Open Settings");
  settings = await settingsFrame(workbench.page);
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const routerRow = '[data-testid="profile"][data-name="Router"]';

describe("the profile editor's model picker", () => {
  it("shows the provider by its name, and takes the profile's key", async () => {
    expect(await settings.$eval(`${routerRow} .ks-muted`, (e) => (e as HTMLElement).innerText)).toMatch(/^OpenRouter/);
    await settings.click(`${routerRow} input[type="password"]`);
    await settings.type(`${routerRow} input[type="password"]`, KEY);
    await settings.$$eval(`${routerRow} button`, (buttons) => (buttons.find((b) => b.textContent === "Save key") as HTMLElement).click());
    await settings.waitForFunction((row) => document.querySelector(`${row} [data-testid="key-state"]`)?.textContent === "key set", { timeout: 20_000 }, routerRow);
  });

  it("fetches OpenRouter's list with windows and prices, searches it, and a click fills the model", async () => {
    await settings.$$eval(`${routerRow} button`, (buttons) => (buttons.find((b) => b.textContent === "Edit") as HTMLElement).click());
    await settings.waitForSelector('[data-testid="browse-models"]', { timeout: 10_000 });
    await settings.click('[data-testid="browse-models"]');
    await settings.waitForSelector('[data-testid="model-option"]', { timeout: 30_000 });
    expect(await settings.$eval('[data-testid="models-count"]', (e) => e.textContent)).toBe("500 models; prices are USD per million tokens, in / out");
    // A hundred drawn, the rest a search away.
    await settings.waitForFunction(() => document.querySelectorAll('[data-testid="model-option"]').length === 100, { timeout: 10_000 });

    await settings.type('[data-testid="model-search"]', "claude sonnet");
    await settings.waitForFunction(() => document.querySelectorAll('[data-testid="model-option"]').length === 1, { timeout: 10_000 });
    const row = await settings.$eval('[data-testid="model-option"]', (e) => (e as HTMLElement).innerText);
    expect(row).toContain("Anthropic: Claude Sonnet 4.5");
    expect(row).toContain("1M");
    expect(row).toContain("$3.00 / $15.00");
    expect(row).toContain("tools");
    expect(row).toContain("vision");
    await settings.$eval('[data-testid="model-search"]', (e) => (e as HTMLInputElement).select());
    await settings.type('[data-testid="model-search"]', "qwen");
    await settings.waitForFunction(() => document.querySelectorAll('[data-testid="model-option"]').length === 50, { timeout: 10_000 });
    await useColorTheme(workbench.page, "Light Modern");
    await settings.$eval('[data-testid="model-picker"]', (e) => e.scrollIntoView({ block: "center" }));
    expect(await axeViolations(settings)).toEqual([]);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-model-picker-light.png") });
    await useColorTheme(workbench.page, "Dark Modern");
    expect(await axeViolations(settings)).toEqual([]);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-model-picker-dark.png") });
    await useColorTheme(workbench.page, "Light Modern");

    await settings.$eval('[data-testid="model-search"]', (e) => (e as HTMLInputElement).select());
    await settings.type('[data-testid="model-search"]', "sonnet 4.5");
    await settings.waitForFunction(() => document.querySelectorAll('[data-testid="model-option"]').length === 1, { timeout: 10_000 });
    await settings.click('[data-testid="model-option"]');
    expect(await settings.$eval('[data-testid="field-model"]', (e) => (e as HTMLInputElement).value)).toBe("anthropic/claude-sonnet-4.5");
    await settings.click('[data-testid="save-profile"]');
    await settings.waitForFunction((r) => (document.querySelector(`${r} .ks-muted`) as HTMLElement | null)?.innerText.includes("anthropic/claude-sonnet-4.5"), { timeout: 20_000 }, routerRow);
  });

  it("gives the profile a thinking budget, kept in its settings and shown again when it is edited", async () => {
    const edit = () => settings.$$eval(`${routerRow} button`, (buttons) => (buttons.find((b) => b.textContent === "Edit") as HTMLElement).click());
    await edit();
    await settings.waitForSelector('[data-testid="field-reasoning"]', { timeout: 10_000 });
    await settings.select('[data-testid="field-reasoning"]', "budget");
    await settings.waitForSelector('[data-testid="field-thinkingBudget"]');
    await settings.type('[data-testid="field-thinkingBudget"]', "12000");
    await settings.$eval('[data-testid="field-reasoning"]', (e) => e.scrollIntoView({ block: "center" }));
    expect(await axeViolations(settings)).toEqual([]);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-profile-reasoning-light.png") });
    await useColorTheme(workbench.page, "Dark Modern");
    expect(await axeViolations(settings)).toEqual([]);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-profile-reasoning-dark.png") });
    await useColorTheme(workbench.page, "Light Modern");
    await settings.click('[data-testid="save-profile"]');
    await settings.waitForFunction((r) => (document.querySelector(`${r} .ks-muted`) as HTMLElement | null)?.innerText.includes("thinking 12,000 tokens"), { timeout: 20_000 }, routerRow);

    await edit();
    await settings.waitForSelector('[data-testid="field-thinkingBudget"]', { timeout: 10_000 });
    expect(await settings.$eval('[data-testid="field-reasoning"]', (e) => (e as HTMLSelectElement).value)).toBe("budget");
    expect(await settings.$eval('[data-testid="field-thinkingBudget"]', (e) => (e as HTMLInputElement).value)).toBe("12000");
  });
});
