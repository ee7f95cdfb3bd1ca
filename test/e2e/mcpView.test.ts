import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/codeServer.mjs";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnWithFakeModel, resultsDir, type Workbench } from "./workbench";

const EVERYTHING = join(root, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const CONFIG = ".kilocode/mcp.json";
// As a person wrote it; the test checks that Kiln's edit keeps it so.
const WRITTEN = `{
  "mcpServers": {
    "everything": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(EVERYTHING)}, "stdio"] }
  }
}
`;

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
  it("the MCP tab shows the project's server connected with its tools; always allow on echo is written to the file", async () => {
    await frame.click('[data-testid="mcp-tab"]');
    const echo = '[data-testid="mcp-server"][data-name="everything"] [data-testid="mcp-tool"][data-name="echo"]';
    await frame.waitForSelector('[data-testid="mcp-server"][data-name="everything"][data-state="connected"]', { timeout: 60_000 });
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
