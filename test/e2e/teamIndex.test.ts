import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgliteServer, type PgliteServer } from "../fixtures/pgliteServer";
import { openWorkbench, runCommand, settingsFrame, shootSettingsSection, type Workbench } from "./workbench";

/** The settings page's "Codebase index" section with kiln.index.postgresUrl: the index on a team's server (PGlite with pgvector over the wire). */
let workbench: Workbench;
let settings: Frame;
let postgres: PgliteServer;

beforeAll(async () => {
  postgres = await startPgliteServer();
  const files: Record<string, string> = {
    // A clone of the team's repository: origin and branch are what the index is shared by.
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:acme/storefront-platform.git\n',
    ".git/objects/.keep": "",
    ".git/refs/heads/.keep": "",
  };
  for (let i = 0; i < 12; i++) files[`src/feature${i}/service.ts`] = `/** Feature ${i}'s service. */\nexport function startFeature${i}(): number {\n  return ${i};\n}\n`;
  workbench = await openWorkbench(
    { "kiln.provider.kind": "openai-compatible", "kiln.provider.baseUrl": "http://127.0.0.1:9/v1", "kiln.provider.model": "unused", "kiln.index.postgresUrl": postgres.url },
    files,
  );
  await runCommand(workbench.page, "Kiln: Open Settings");
  settings = await settingsFrame(workbench.page);
  await settings.$$eval('[data-testid="settings-nav"] a', (links) => (links.find((a) => a.textContent === "Codebase index") as HTMLElement).click());
}, 180_000);

afterAll(async () => {
  await workbench?.close();
  await postgres?.close();
});

describe("the settings page with a team codebase index", () => {
  it("says the index is on the team's server, for which repository and branch; Delete says the others keep it", async () => {
    await settings.waitForFunction(() => /^Ready: \d+ files, \d+ chunks$/.test((document.querySelector('[data-testid="index-state"]') as HTMLElement | null)?.innerText ?? ""), { timeout: 60_000 });
    await settings.waitForSelector('[data-testid="index-team"]', { timeout: 20_000 });
    expect(await settings.$eval('[data-testid="index-team"]', (e) => (e as HTMLElement).innerText)).toMatch(
      /^The team's server postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres: github\.com\/acme\/storefront-platform on branch main, shared by every clone of it$/,
    );
    expect(await settings.$('[data-testid="index-saved"]')).toBeNull();
    await settings.$eval('[data-testid="index-delete"]', (e) => (e as HTMLElement).click());
    await settings.waitForSelector('[data-testid="confirm-delete-index"]', { timeout: 10_000 });
    expect(await settings.$eval('[data-testid="confirm-delete-index"]', (e) => (e as HTMLElement).innerText)).toContain("It stays on the server for the others.");
    await shootSettingsSection(workbench, settings, "code-index-section", "e2e-team-index-settings");
  });
});
