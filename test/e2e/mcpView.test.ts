import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/codeServer.mjs";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { dragSidebarEdge, openKilnWithFakeModel, resultsDir, shootSidebar, useColorTheme, type Workbench } from "./workbench";

const EVERYTHING = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const CONFIG = ".kilocode/mcp.json";
// As a person wrote it; the test checks that Kiln's edit keeps it so. "docs" is never allowed: it
// shows how a blocked entry with environment variables reads (a referenced token, a literal key).
const WRITTEN = `{
  "mcpServers": {
    "everything": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(EVERYTHING)}, "stdio"] },
    "docs": { "command": "npx", "args": ["-y", "@acme/docs-mcp", "--root", "\${workspaceFolder}"], "env": { "DOCS_TOKEN": "\${env:DOCS_TOKEN}", "LOG_LEVEL": "info", "API_KEY": "sk-live-0123456789abcdefghij" } }
  }
}
`;
const card = (name: string) => `[data-testid="mcp-server"][data-name="${name}"]`;

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-mcp", {}, { [CONFIG]: WRITTEN }));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const configText = () => readFileSync(join(workbench.workspace!, CONFIG), "utf8");

describe("the MCP view in code-server, driven by Chromium", () => {
  it("opening the folder starts none of its project servers: a notification says so and leads to their cards, which show what would run", async () => {
    const page = workbench.page;
    await page.waitForFunction(() => [...document.querySelectorAll(".notification-toast")].some((t) => (t as HTMLElement).innerText.includes("Kiln has not started")), { timeout: 60_000 });
    const texts = await page.$$eval(".notification-toast", (all) => all.map((t) => (t as HTMLElement).innerText));
    expect(texts.find((t) => t.includes("Kiln has not started"))).toContain("This project's .kilocode/mcp.json defines 2 MCP servers (everything, docs). Kiln has not started them.");
    await page.screenshot({ path: join(resultsDir, "e2e-mcp-blocked-notification.png") });

    const buttons = await page.$$(".notification-toast .monaco-button");
    const labels = await Promise.all(buttons.map((b) => b.evaluate((e) => (e as HTMLElement).innerText.trim())));
    expect(labels).toContain("Show MCP Servers");
    await buttons[labels.indexOf("Show MCP Servers")]!.click();
    await frame.waitForSelector(`${card("docs")}[data-state="needs-approval"]`, { timeout: 30_000 });
    await frame.waitForSelector(`${card("everything")}[data-state="needs-approval"]`, { timeout: 10_000 });
    const docs = await frame.$eval(card("docs"), (e) => (e as HTMLElement).innerText);
    expect(docs).toContain("needs approval");
    expect(docs).toContain("Kiln runs it only once you allow it");
    expect(docs).toContain("npx -y @acme/docs-mcp --root ${workspaceFolder}");
    expect(docs).toContain("DOCS_TOKEN=${env:DOCS_TOKEN}");
    expect(docs).toContain("LOG_LEVEL=info");
    expect(docs).toMatch(/API_KEY\s+hidden \(28 characters\)/);
    expect(docs).not.toContain("sk-live");
    // Nothing ran, so no server has a log or tools yet.
    expect(await frame.$$(`${card("everything")} [data-testid="mcp-tool"]`)).toHaveLength(0);
    await shootSidebar(workbench.page, "e2e-mcp-blocked-light.png");
    await useColorTheme(page, "Dark Modern");
    // The webview takes the theme's colours from the workbench a moment later.
    await frame.waitForFunction(() => document.body.classList.contains("vscode-dark"), { timeout: 10_000 });
    await shootSidebar(workbench.page, "e2e-mcp-blocked-dark.png");
    // The narrowest sidebar VS Code allows: names, badges and the command still read whole.
    await dragSidebarEdge(workbench.page, -200);
    await frame.waitForFunction(() => document.body.clientWidth < 200, { timeout: 10_000 });
    const head = await frame.$eval(`${card("everything")} .mcp-name`, (e) => (e as HTMLElement).getBoundingClientRect().height);
    const line = await frame.$eval(`${card("everything")} .mcp-meta`, (e) => parseFloat(getComputedStyle(e).lineHeight) || 20);
    expect(head).toBeLessThan(line * 2);
    await shootSidebar(workbench.page, "e2e-mcp-blocked-narrow.png");
    await dragSidebarEdge(workbench.page, 200);
    await frame.waitForFunction(() => document.body.clientWidth > 250, { timeout: 10_000 });
  });

  it("Allow and start on a blocked card starts that server alone; always allow on echo is written to the file", async () => {
    await frame.click(`${card("everything")} [data-testid="mcp-allow"]`);
    const echo = '[data-testid="mcp-server"][data-name="everything"] [data-testid="mcp-tool"][data-name="echo"]';
    await frame.waitForSelector('[data-testid="mcp-server"][data-name="everything"][data-state="connected"]', { timeout: 60_000 });
    expect(await frame.$eval(card("docs"), (e) => (e as HTMLElement).dataset.state)).toBe("needs-approval");
    await frame.waitForSelector(echo, { timeout: 10_000 });
    expect(await frame.$eval(`${echo} [data-testid="tool-always-allow"]`, (e) => (e as HTMLInputElement).checked)).toBe(false);
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-mcp-view.png") });

    await frame.click(`${echo} [data-testid="tool-always-allow"]`);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !configText().includes('"alwaysAllow"')) await new Promise((r) => setTimeout(r, 100));
    expect(configText()).toBe(WRITTEN.replace('"stdio"] }', '"stdio"], "alwaysAllow": ["echo"] }'));
    // The host's new state agrees, and the server kept running.
    await frame.waitForFunction((selector) => (document.querySelector(selector) as HTMLInputElement | null)?.checked === true, { timeout: 10_000 }, `${echo} [data-testid="tool-always-allow"]`);
    expect(await frame.$eval('[data-testid="mcp-server"][data-name="everything"]', (e) => (e as HTMLElement).dataset.state)).toBe("connected");
  });
});
