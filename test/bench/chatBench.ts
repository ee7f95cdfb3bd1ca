/**
 * The chat's cost per streamed token, host side (bytes posted to the webview) and webview side
 * (render time in headless Chromium), in a long task beside a short one. Prints; asserts nothing.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Task, type TaskEvent } from "../../src/core/agent/Task";
import { toHostMessage } from "../../src/core/agent/hostMessages";
import type { Provider, StreamEvent } from "../../src/core/llm/types";
import { silentLogger } from "../fixtures/silentLogger";
import { findChrome } from "../../src/core/browser/findChrome";
import type { ChatItem } from "../../src/shared/protocol/chat";

const TOKENS = 200;

/** A provider in memory: each request streams `tokens` small pieces. */
function scripted(tokens: number): Provider {
  return {
    kind: "openai",
    model: "bench",
    async *stream(): AsyncIterable<StreamEvent> {
      for (let i = 0; i < tokens; i++) yield { type: "text", text: `tok${i} ` };
    },
  };
}

async function bytesPerToken(messages: number): Promise<{ perToken: number; snapshot: number }> {
  let provider = scripted(3);
  const task = new Task({ getProvider: async () => provider, logger: silentLogger, retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
  for (let i = 0; i < messages / 2; i++) await task.send(`question ${i}`);
  let bytes = 0;
  let deltas = 0;
  const listener = task.onDidChange((event: TaskEvent) => {
    const message = toHostMessage(event, task);
    if (!message) return;
    bytes += JSON.stringify(message).length;
    if (message.type === "chat/textDelta") deltas++;
  });
  provider = scripted(TOKENS);
  await task.send("the last question");
  listener.dispose();
  const snapshot = JSON.stringify({ type: "chat/snapshot", items: task.snapshot(), busy: false, provider: { kind: "openai", model: "bench" } }).length;
  return { perToken: bytes / Math.max(1, deltas), snapshot };
}

function items(n: number): ChatItem[] {
  return Array.from({ length: n }, (_, i): ChatItem =>
    i % 2 === 0 ? { id: `m${i}`, role: "user", text: `Question ${i}: how does part ${i} work?` } : { id: `m${i}`, role: "assistant", text: `Part ${i} works like this. `.repeat(8), partial: false },
  );
}

async function renderTimes(root: string, count: number): Promise<{ render: number; append: number }> {
  const js = readFileSync(join(root, "dist", "webview", "main.js"));
  const css = readFileSync(join(root, "dist", "webview", "main.css"));
  const html = `<!DOCTYPE html><html><head><link rel="stylesheet" href="/main.css"><script>window.acquireVsCodeApi=()=>({postMessage(){}});</script></head><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === "/main.js") res.writeHead(200, { "content-type": "text/javascript" }).end(js);
    else if (req.url === "/main.css") res.writeHead(200, { "content-type": "text/css" }).end(css);
    else res.writeHead(200, { "content-type": "text/html" }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ executablePath: findChrome(undefined), headless: true, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 400, height: 900 });
    const address = server.address() as { port: number };
    await page.goto(`http://127.0.0.1:${address.port}/`);
    await page.waitForSelector('[data-testid="chat-input"]');
    return await page.evaluate(async (list: ChatItem[]) => {
      // Runs in the page; this project's Node typings have no DOM.
      const page = globalThis as unknown as {
        requestAnimationFrame(callback: (timestamp: number) => void): void;
        postMessage(message: unknown, origin: string): void;
        addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
        document: { querySelectorAll(selector: string): { length: number }; body: { innerText: string } };
      };
      const { document } = page;
      const frame = () => new Promise<number>((r) => page.requestAnimationFrame(() => r(performance.now())));
      // Timed from the message to the end of the frame that shows it (React renders in that frame).
      const timed = async (message: unknown, done: () => boolean) => {
        const start = performance.now();
        page.postMessage(message, "*");
        let end = await frame();
        while (!done()) end = await frame();
        return end - start;
      };
      const render = await timed({ type: "chat/snapshot", items: list, busy: true, provider: { kind: "openai", model: "bench" } }, () => document.querySelectorAll(".row").length > 0);
      await timed({ type: "chat/appended", item: { id: "live", role: "assistant", text: "", partial: true } }, () => true);
      // The frame's own work: our frame callback is queued after the store's (the app's message
      // listener ran first), so the time from the frame's start to it is the store update plus the
      // React render of that token.
      const samples: number[] = [];
      page.addEventListener("message", (event) => {
        if ((event.data as { type?: string }).type === "chat/textDelta") page.requestAnimationFrame((ts) => samples.push(performance.now() - ts));
      });
      for (let i = 0; i < 20; i++) await timed({ type: "chat/textDelta", id: "live", delta: `tok${i} `, field: "text" }, () => document.body.innerText.includes(`tok${i}`));
      samples.sort((a, b) => a - b);
      return { render, append: samples[Math.floor(samples.length / 2)]! };
    }, items(count));
  } finally {
    await browser.close();
    server.close();
  }
}

export async function runChatBench(root: string): Promise<void> {
  console.log("\n== chat: bytes posted host -> webview per streamed token");
  const short = await bytesPerToken(20);
  const long = await bytesPerToken(2000);
  console.log(`  20-message task:    ${short.perToken.toFixed(1)} bytes/token   (one full snapshot: ${short.snapshot} bytes)`);
  console.log(`  2,000-message task: ${long.perToken.toFixed(1)} bytes/token   (one full snapshot: ${long.snapshot} bytes)`);
  console.log(`  per-token ratio long/short: ${(long.perToken / short.perToken).toFixed(2)}x; a snapshot per token would be ${(long.snapshot / long.perToken).toFixed(0)}x more`);
  console.log("\n== chat: webview in headless Chromium: first render (until the frame that shows it); one token (the frame's work)");
  for (const count of [50, 5000]) {
    const { render, append } = await renderTimes(root, count);
    console.log(`  ${String(count).padStart(5)} messages: first render ${render.toFixed(1)} ms, append one token ${append.toFixed(2)} ms (median of 20; target < 16 ms)`);
  }
}
