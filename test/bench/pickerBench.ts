/**
 * Issue 18's picker number, in the real settings page in headless Chromium: from the host's answer
 * with an OpenRouter-sized list (500 models) to the frame that shows its rows, and from a keystroke
 * in the search box to the frame that shows the narrowed list (target: under 50 ms each). Prints
 * numbers; asserts nothing.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findChrome } from "../../src/core/browser/findChrome";
import { OPTION_DEFAULTS, type ModelRowView, type SettingsState } from "../../src/shared/protocol/settings";

const STATE: SettingsState = {
  profiles: [{ name: "Router", kind: "openrouter", baseUrl: "", model: "", protocol: "xml", source: "settings", hasKey: true }],
  active: "Router",
  modes: [],
  autoApprove: { words: ["read"], enabled: true, allowed: [], denied: [], refuseDenied: false, maxRequests: 0, maxCost: 0, workspaceFields: [] },
  options: { ...OPTION_DEFAULTS, workspaceFields: [] },
  errors: [],
  hasWorkspace: true,
  codeIndex: { enabled: true, state: "off" },
  rules: { files: [], globalDir: "" },
  skills: { skills: [], errors: [], globalDir: "" },
  imports: [],
};

function rows(): ModelRowView[] {
  return Array.from({ length: 500 }, (_, i) => ({
    id: `vendor-${i % 25}/model-${i}`,
    name: `Vendor ${i % 25}: Model ${i}`,
    contextWindow: 32_768 * (1 + (i % 8)),
    maxOutputTokens: 16_384,
    inputPrice: (i % 7) * 0.5,
    outputPrice: (i % 7) * 2,
    tools: i % 2 === 0,
    vision: i % 3 === 0,
  }));
}

export async function runPickerBench(root: string): Promise<void> {
  const js = readFileSync(join(root, "dist", "webview", "settings", "settings.js"));
  const css = readFileSync(join(root, "dist", "webview", "settings", "settings.css"));
  // The page's posts are kept where the timing code can read them (the host's side of the protocol).
  const html = `<!DOCTYPE html><html><head><link rel="stylesheet" href="/settings.css"><script>window.posted=[];window.acquireVsCodeApi=()=>({postMessage(m){window.posted.push(m)}});</script></head><body><div id="root"></div><script type="module" src="/settings.js"></script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === "/settings.js") res.writeHead(200, { "content-type": "text/javascript" }).end(js);
    else if (req.url === "/settings.css") res.writeHead(200, { "content-type": "text/css" }).end(css);
    else res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ executablePath: findChrome(undefined), headless: true, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
  console.log("\n== model picker in headless Chromium: 500 models (target < 50 ms to show, and per keystroke)");
  try {
    const shown: number[] = [];
    const allDrawn: number[] = [];
    const keystroke: number[] = [];
    for (let run = 0; run < 5; run++) {
      const page = await browser.newPage();
      await page.setViewport({ width: 400, height: 900 });
      await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      await page.evaluate(
        (state) => (globalThis as unknown as { postMessage(message: unknown, origin: string): void }).postMessage({ type: "settings/state", state }, "*"),
        STATE as unknown as Record<string, unknown>,
      );
      await page.waitForSelector('[data-testid="profile"][data-name="Router"]');
      await page.$$eval('[data-testid="profile"][data-name="Router"] button', (buttons) => (buttons.find((b) => b.textContent === "Edit") as { click(): void }).click());
      await page.waitForSelector('[data-testid="browse-models"]');
      await page.click('[data-testid="browse-models"]');
      const times = await page.evaluate(async (models: ModelRowView[]) => {
        // Runs in the page; this project's Node typings have no DOM.
        const page = globalThis as unknown as {
          posted: { type: string; id?: number; method?: string }[];
          requestAnimationFrame(callback: () => void): void;
          postMessage(message: unknown, origin: string): void;
          document: {
            querySelectorAll(selector: string): { length: number };
            querySelector(selector: string): { value: string; dispatchEvent(event: unknown): boolean } | null;
          };
          HTMLInputElement: { prototype: object };
          Event: new (type: string, init: { bubbles: boolean }) => unknown;
        };
        const frame = () => new Promise<number>((r) => page.requestAnimationFrame(() => r(performance.now())));
        const until = async (start: number, done: () => boolean) => {
          let end = await frame();
          while (!done()) end = await frame();
          return end - start;
        };
        const asked = page.posted.find((m) => m.type === "request" && m.method === "settings/listModels")!;
        const start = performance.now();
        page.postMessage({ type: "response", id: asked.id, ok: true, result: { models, source: "live" } }, "*");
        const show = await until(start, () => page.document.querySelectorAll('[data-testid="model-option"]').length > 0);
        const all = await until(start, () => page.document.querySelectorAll('[data-testid="model-option"]').length === 100);
        // A keystroke as the browser delivers one to React: the value set natively, then an input event.
        const input = page.document.querySelector('[data-testid="model-search"]')!;
        const setValue = Object.getOwnPropertyDescriptor(page.HTMLInputElement.prototype, "value")!.set!;
        const typed: number[] = [];
        for (const query of ["v", "ve", "vendor 1", "vendor 12", "vendor 12 model-4"]) {
          const before = performance.now();
          setValue.call(input, query);
          input.dispatchEvent(new page.Event("input", { bubbles: true }));
          typed.push(await until(before, () => true));
        }
        return { show, all, typed };
      }, rows());
      shown.push(times.show);
      allDrawn.push(times.all);
      keystroke.push(...times.typed);
      await page.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `  list shown: ${median(shown).toFixed(1)} ms, all 100 rows drawn: ${median(allDrawn).toFixed(1)} ms (median of ${shown.length}); one search keystroke: ${median(keystroke).toFixed(1)} ms (median of ${keystroke.length}, to the frame that shows it)`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}
