import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/codeServer.mjs";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnView, openWorkbench, sendTask, shootSidebar, type Workbench } from "./workbench";

/*
 * A translation is data: the pseudo-locale that VS Code's tools make from the shipped English
 * (bundle.l10n.json, package.nls.json) is dropped into the installed extension, as a language
 * pack's translation would be, and code-server runs in that language. Every word of Kiln's own
 * then reads in it: the view's name from the manifest, and the chat's words from the same bundle
 * the host hands the page.
 */
const PSEUDO = "qps-ploc";
let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;
let pseudoName = "";
/** The pseudo translation the installed extension carries, by English message. */
let pseudoBundle: Record<string, string> = {};

function pseudoTranslate(extensionDir: string): void {
  const cli = join(root, "node_modules", "@vscode", "l10n-dev", "dist", "cli.js");
  execFileSync(process.execPath, [cli, "generate-pseudo", "-o", join(extensionDir, "l10n"), join(extensionDir, "l10n", "bundle.l10n.json")], { stdio: "pipe" });
  execFileSync(process.execPath, [cli, "generate-pseudo", "-o", extensionDir, join(extensionDir, "package.nls.json")], { stdio: "pipe" });
  // The record VS Code keeps of installed language packs, which the server reads as it starts.
  // Installing from the command line does not write it (the server writes it when it installs one).
  const extensions = dirname(extensionDir);
  const pack = readdirSync(extensions).find((name) => name.startsWith("kiln-tests.kiln-test-pseudo-language-pack-"))!;
  const languagePacks = {
    [PSEUDO]: {
      hash: "kiln-test-pseudo",
      extensions: [{ extensionIdentifier: { id: "kiln-tests.kiln-test-pseudo-language-pack" }, version: "0.0.1" }],
      translations: { vscode: join(extensions, pack, "translations", "main.i18n.json") },
      label: "Pseudo Language",
    },
  };
  writeFileSync(join(dirname(extensions), "user-data", "languagepacks.json"), JSON.stringify(languagePacks));
  pseudoBundle = JSON.parse(readFileSync(join(extensionDir, "l10n", `bundle.l10n.${PSEUDO}.json`), "utf8")) as Record<string, string>;
  pseudoName = (JSON.parse(readFileSync(join(extensionDir, `package.nls.${PSEUDO}.json`), "utf8")) as Record<string, string>)["viewsContainer.kiln.title"]!;
}

/**
 * A language pack for the pseudo-language, as a user installs one for theirs: it makes qps-ploc a
 * display language VS Code accepts (its own words stay English: the pack translates none of them).
 */
function pseudoLanguagePack(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-language-pack-"));
  const manifest = {
    name: "kiln-test-pseudo-language-pack",
    displayName: "Pseudo language pack (Kiln tests)",
    description: "Makes qps-ploc a display language for Kiln's localisation e2e.",
    version: "0.0.1",
    publisher: "kiln-tests",
    license: "MIT",
    engines: { vscode: "^1.100.0" },
    categories: ["Language Packs"],
    contributes: {
      localizations: [{ languageId: PSEUDO, languageName: "Pseudo Language", localizedLanguageName: "Pseudo Language", translations: [{ id: "vscode", path: "./translations/main.i18n.json" }] }],
    },
  };
  mkdirSync(join(dir, "translations"));
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  writeFileSync(join(dir, "translations", "main.i18n.json"), JSON.stringify({ version: "1.0.0", contents: {} }));
  writeFileSync(join(dir, "README.md"), "Test-only language pack.\n");
  writeFileSync(join(dir, "LICENSE"), "MIT\n");
  const vsix = join(dir, "pseudo.vsix");
  execFileSync(process.execPath, [join(root, "node_modules", "@vscode", "vsce", "vsce"), "package", "--allow-missing-repository", "-o", vsix], { cwd: dir, stdio: "pipe" });
  return vsix;
}

beforeAll(async () => {
  server = await new FakeModelServer().start();
  workbench = await openWorkbench(
    { "kiln.provider.kind": "openai-compatible", "kiln.provider.baseUrl": server.openaiBaseUrl, "kiln.provider.model": "fake-l10n", "kiln.provider.retries": 0 },
    {},
    { locale: PSEUDO, installed: pseudoTranslate, alsoInstall: [pseudoLanguagePack()] },
  );
  // Found by its translated name: the manifest's words are in the display language too.
  frame = await openKilnView(workbench.page, pseudoName).catch(async (err: unknown) => {
    const labels = await workbench.page.$$eval(".activitybar a.action-label", (all) => all.map((a) => a.getAttribute("aria-label")));
    throw new Error(`${String(err)}; the activity bar: ${JSON.stringify(labels)}; wanted ${pseudoName}`);
  });
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

describe("Kiln in another display language", () => {
  it("the view's name, the chat's words and its page language come from the translation", async () => {
    const bundle = JSON.parse(readFileSync(join(root, "l10n", "bundle.l10n.json"), "utf8")) as Record<string, string>;
    expect(bundle["Tips"]).toBe("Tips");
    await frame.waitForSelector('[data-testid="tips"]', { timeout: 30_000 });
    const shown = await frame.evaluate(() => ({
      lang: document.documentElement.lang,
      placeholder: (document.querySelector('[data-testid="chat-input"]') as HTMLTextAreaElement).placeholder,
      send: (document.querySelector('[data-testid="send"]') as HTMLElement).innerText,
      tips: (document.querySelector("#tips-heading") as HTMLElement).innerText,
      model: (document.querySelector('[data-testid="empty-model"]') as HTMLElement).innerText,
    }));
    expect(shown.lang).toBe(PSEUDO);
    // Pseudo-translated: the same words in accented letters, longer, never the English.
    for (const [english, text] of [
      ["Type a task (Enter to send, Shift+Enter for a new line)", shown.placeholder],
      ["Send", shown.send],
      ["Tips", shown.tips],
    ] as const) {
      expect(text, english).not.toBe(english);
      expect(text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").length, english).toBeGreaterThanOrEqual(english.length);
    }
    // The model's name is data: it stays as it is, inside the translated sentence.
    expect(shown.model).toContain("fake-l10n");
    expect(shown.model).not.toContain("Answers come from");
    expect(pseudoName).not.toBe("Kiln");
    await shootSidebar(workbench.page, "e2e-l10n-pseudo.png");
  });
  it("a tool card's sentence is the translation's, with the path as a link where the translation puts it", async () => {
    server.enqueue({ text: "Reading.\n<read_file>\n<path>src/greet.ts</path>\n</read_file>" }, { text: "<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>" });
    await sendTask(frame, "Read the greeter");
    const card = await frame.waitForSelector('[data-testid="message-tool"][data-tool="read_file"][data-status="done"]', { timeout: 30_000 });
    const title = await card!.$eval(".tool-title", (e) => ({
      text: (e as HTMLElement).innerText,
      link: e.querySelector('[data-testid="tool-link"]')?.textContent,
      words: [...e.querySelectorAll(".tool-name")].map((n) => n.textContent ?? "").join(" "),
    }));
    // The path is data, a link inside the translated sentence; the sentence and the state are translated.
    expect(pseudoBundle["Kiln read {0}"]).toBeDefined();
    expect(title.link).toBe("src/greet.ts");
    expect(title.text).toContain(`${pseudoBundle["Kiln read {0}"]!.replace("{0}", "src/greet.ts")} ${pseudoBundle["done"]}`);
    expect(title.words.trim()).not.toContain("Kiln read");
    await shootSidebar(workbench.page, "e2e-l10n-pseudo-card.png");
  });
});
