import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/codeServer.mjs";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnView, openWorkbench, resultsDir, runCommand, type Workbench } from "./workbench";

const TEST_SERVER = join(root, "test", "fixtures", "mcp", "testServer.mjs");
const CARD = '[data-testid="mcp-server"][data-name="repo"]';

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;
let marker: string;

beforeAll(async () => {
  server = await new FakeModelServer().start();
  // The command leaves a marker file the moment it runs, then serves MCP; the file is in the
  // workspace, whose path is known only once the workbench made it, so the script finds it there.
  const script = 'require("fs").writeFileSync(require("path").join(process.cwd(), "server-ran.txt"), "ran"); import(process.argv[1]);';
  const config = JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: ["-e", script, pathToFileURL(TEST_SERVER).href] } } }, null, 2);
  workbench = await openWorkbench(
    {
      "kiln.provider.kind": "openai-compatible",
      "kiln.provider.baseUrl": server.openaiBaseUrl,
      "kiln.provider.model": "fake-trust",
      "security.workspace.trust.enabled": true,
      // A cloned folder opens in Restricted Mode; the dialog that would ask first is left out here.
      "security.workspace.trust.startupPrompt": "never",
    },
    { ".kilocode/mcp.json": config },
    { workspaceTrust: true },
  );
  marker = join(workbench.workspace!, "server-ran.txt");
  frame = await openKilnView(workbench.page);
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

describe("a project's MCP servers in an untrusted workspace (code-server with Workspace Trust on)", () => {
  it("Restricted Mode starts none; trusting the workspace lets them ask for approval, and Allow starts one", async () => {
    const page = workbench.page;
    await page.waitForFunction(() => [...document.querySelectorAll(".notification-toast")].some((t) => (t as HTMLElement).innerText.includes("Kiln has not started")), { timeout: 60_000 });
    const texts = await page.$$eval(".notification-toast", (all) => all.map((t) => (t as HTMLElement).innerText));
    expect(texts.find((t) => t.includes("Kiln has not started"))).toContain(
      "This project's .kilocode/mcp.json defines 1 MCP server (repo). Kiln has not started it because this workspace is not trusted.",
    );

    await runCommand(page, "Kiln: MCP Servers");
    await frame.waitForSelector(`${CARD}[data-state="needs-approval"]`, { timeout: 30_000 });
    const text = await frame.$eval(CARD, (e) => (e as HTMLElement).innerText);
    expect(text).toContain("not trusted");
    expect(text).toContain("this workspace is not trusted");
    expect(await frame.$(`${CARD} [data-testid="mcp-allow"]`)).toBeNull();
    await page.screenshot({ path: join(resultsDir, "e2e-mcp-untrusted.png"), captureBeyondViewport: false });
    expect(existsSync(marker)).toBe(false);

    // The card's button opens VS Code's own Workspace Trust editor, where the user trusts the folder.
    await frame.click(`${CARD} [data-testid="mcp-manage-trust"]`);
    const trust = await page.waitForFunction(() => [...document.querySelectorAll(".workspace-trust-editor .monaco-button")].find((b) => (b as HTMLElement).innerText.trim() === "Trust") ?? false, {
      timeout: 30_000,
    });
    await page.screenshot({ path: join(resultsDir, "e2e-mcp-trust-editor.png"), captureBeyondViewport: false });
    await trust.asElement()!.evaluate((b) => (b as HTMLElement).click());

    // Trusted now, the server still waits for its own approval.
    await frame.waitForFunction((card) => document.querySelector(`${card} [data-testid="mcp-allow"]`) !== null, { timeout: 30_000 }, CARD);
    expect(await frame.$eval(`${CARD} [data-testid="mcp-state"]`, (e) => (e as HTMLElement).innerText)).toBe("needs approval");
    expect(existsSync(marker)).toBe(false);
    await frame.click(`${CARD} [data-testid="mcp-allow"]`);
    await frame.waitForSelector(`${CARD}[data-state="connected"]`, { timeout: 60_000 });
    expect(existsSync(marker)).toBe(true);
  });
});
