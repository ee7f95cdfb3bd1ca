import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWorkbench, runCommand, settingsFrame, shootSettingsSection, type Workbench } from "./workbench";

/** The settings page's Skills section: the workspace's SKILL.md folders from Kiln's, Claude's and Roo's places. */
let workbench: Workbench;
let settings: Frame;

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nSteps for ${name}.\n`;

beforeAll(async () => {
  workbench = await openWorkbench(
    { "kiln.provider.kind": "openai-compatible", "kiln.provider.baseUrl": "http://127.0.0.1:9/v1", "kiln.provider.model": "unused" },
    {
      ".kilocode/skills/release-notes/SKILL.md": skill("release-notes", "Write the release notes for a version from CHANGELOG.md, grouped by Added, Fixed and Removed"),
      ".kilocode/skills/release-notes/template.md": "# Release\n",
      ".claude/skills/pdf-forms/SKILL.md": skill("pdf-forms", "Fill PDF forms with the bundled script"),
      ".roo/skills/db-migrations/SKILL.md": skill("db-migrations", "Write a reversible database migration"),
      ".roo/skills/broken/SKILL.md": "# A skill without front matter\n",
    },
  );
  await runCommand(workbench.page, "Kiln: Open Settings");
  settings = await settingsFrame(workbench.page);
  await settings.$$eval('[data-testid="settings-nav"] a', (links) => (links.find((a) => a.textContent === "Skills") as HTMLElement).click());
}, 180_000);

afterAll(async () => {
  await workbench?.close();
});

const rows = () =>
  settings.$$eval('[data-testid="skill"]', (trs) =>
    trs.map((tr) => [tr.getAttribute("data-id"), tr.getAttribute("data-enabled"), (tr.querySelector(".ks-skill-name") as HTMLElement | null)?.innerText]),
  );

describe("the settings page's skills", () => {
  it("lists each skill with its description and folder, says why a SKILL.md was not loaded, and turns a skill off", async () => {
    await settings.waitForSelector('[data-testid="skill"]', { timeout: 20_000 });
    expect(await rows()).toEqual([
      ["project:.kilocode/skills/release-notes", "true", "/release-notes"],
      ["project:.claude/skills/pdf-forms", "true", "/pdf-forms"],
      ["project:.roo/skills/db-migrations", "true", "/db-migrations"],
    ]);
    expect(await settings.$eval('[data-testid="skills-errors"]', (e) => (e as HTMLElement).innerText)).toMatch(
      /^\.roo\/skills\/broken\/SKILL\.md: not loaded as a skill: it does not start with --- front matter holding name and description/,
    );
    await settings.$eval('[data-id="project:.claude/skills/pdf-forms"] input[type="checkbox"]', (e) => (e as HTMLElement).click());
    await settings.waitForSelector('[data-id="project:.claude/skills/pdf-forms"][data-enabled="false"]', { timeout: 10_000 });
    await shootSettingsSection(workbench, settings, "skills-section", "e2e-skills-settings");
  });
});
