import type { Browser, HTTPRequest, KeyInput, Page } from "puppeteer-core";
import type { Logger } from "../ports";
import type { BrowserInput, BrowserSession, BrowserSnapshot, NavigationCheck, Viewport } from "../ports/browser";
import { BrowserError } from "./browserError";
import { findChrome, type FindChromeEnv } from "./findChrome";
import { PROXY_ERROR_HEADER, startGuardProxy, type GuardProxy } from "./guardProxy";

export const DEFAULT_VIEWPORT: Viewport = { width: 900, height: 600 };

/** Console output can be endless (a log per animation frame); the model gets the first lines. */
const MAX_LOG_LINES = 50;
const MAX_LOG_LINE_CHARS = 500;
const NAVIGATION_TIMEOUT_MS = 20_000;
const LAUNCH_TIMEOUT_MS = 30_000;

export interface PuppeteerSessionOptions {
  /** The configured executable; read at each launch, so a changed setting applies to a running task. */
  executablePath?: () => string | undefined;
  viewport?: Viewport;
  logger?: Logger;
  /** Where to look for a browser; the real machine unless a test says otherwise. */
  where?: FindChromeEnv;
  /** How long the network must be quiet after an action, and the most to wait for that. */
  settle?: { idleMs: number; timeoutMs: number };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const isTimeout = (err: unknown): boolean => err instanceof Error && err.name === "TimeoutError";

/** After a failed wait: when the task was cancelled, say so rather than report the wait's own error. */
function cancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BrowserError("the browser action was cancelled.");
}

/** A headless Chromium driven by puppeteer-core, started on the first launch and closed with the task. */
export class PuppeteerBrowserSession implements BrowserSession {
  private browser: Browser | undefined;
  private page: Page | undefined;
  private starting: Promise<Page> | undefined;
  private disposed = false;
  private logs: string[] = [];
  private dropped = 0;
  private size: Viewport;
  /** Judges every request of the page (navigations, redirects, subresources); set at each launch. */
  private guard: NavigationCheck | undefined;
  private proxy: GuardProxy | undefined;

  constructor(private readonly options: PuppeteerSessionOptions = {}) {
    this.size = { ...(options.viewport ?? DEFAULT_VIEWPORT) };
  }

  get isOpen(): boolean {
    return this.page !== undefined;
  }

  get viewport(): Viewport {
    return { ...this.size };
  }

  async launch(url: string, signal?: AbortSignal, guard?: NavigationCheck): Promise<BrowserSnapshot> {
    this.guard = guard;
    const page = this.page ?? (await (this.starting ??= this.start(signal).finally(() => (this.starting = undefined))));
    const unreachable = (error: string) => new BrowserError(`could not open ${url}: ${error}${/ERR_CONNECTION_REFUSED/.test(error) ? " (is the server running?)" : ""}`);
    try {
      const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: NAVIGATION_TIMEOUT_MS, signal });
      // The proxy answered for a server it could not reach: the same error as without a proxy.
      const proxyError = response?.headers()[PROXY_ERROR_HEADER];
      if (proxyError) throw unreachable(proxyError);
    } catch (err) {
      if (err instanceof BrowserError) throw err;
      cancelled(signal);
      const blocked = this.blocked.get(url) ?? [...this.blocked.values()].at(-1);
      if (blocked) throw new BrowserError(`could not open ${url}: Kiln blocked it: ${blocked}.`);
      // A slow page is still worth a look; a refused connection or a bad address is not.
      if (!isTimeout(err)) throw unreachable(message(err));
      this.log(`[kiln] the page did not finish loading within ${NAVIGATION_TIMEOUT_MS / 1000} s`);
    }
    return this.snapshot(page, signal);
  }

  async act(input: BrowserInput, signal?: AbortSignal): Promise<BrowserSnapshot> {
    const page = this.page;
    if (!page) throw new BrowserError("the browser is not open. Launch it first: action launch with a url.");
    try {
      switch (input.kind) {
        case "click":
          await page.mouse.click(input.x, input.y);
          break;
        case "hover":
          await page.mouse.move(input.x, input.y);
          break;
        case "type":
          await page.keyboard.type(input.text);
          break;
        case "press":
          await pressChord(page, input.key);
          break;
        case "scroll":
          // One screen at a time, so consecutive screenshots overlap by nothing and miss nothing.
          await page.evaluate(`window.scrollBy(0, ${input.direction === "down" ? "" : "-"}window.innerHeight)`);
          break;
        case "resize":
          await page.setViewport({ width: input.width, height: input.height });
          this.size = { width: input.width, height: input.height };
          break;
        case "screenshot":
          break;
      }
    } catch (err) {
      if (err instanceof BrowserError) throw err;
      throw new BrowserError(`${input.kind} failed: ${message(err)}`);
    }
    return this.snapshot(page, signal);
  }

  async close(): Promise<void> {
    this.blocked.clear();
    const browser = this.browser;
    const proxy = this.proxy;
    this.browser = undefined;
    this.page = undefined;
    this.proxy = undefined;
    this.logs = [];
    this.dropped = 0;
    try {
      if (browser?.connected) await browser.close();
    } finally {
      await proxy?.close();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    try {
      // A launch still under way is closed by start() itself once it sees `disposed`.
      await this.close();
    } catch (err) {
      this.options.logger?.warn(`closing the browser failed: ${message(err)}`);
    }
  }

  private async start(signal: AbortSignal | undefined): Promise<Page> {
    if (this.disposed) throw new BrowserError("the task has ended; its browser cannot be launched again.");
    const executablePath = findChrome(this.options.executablePath?.(), this.options.where);
    // Loaded on first use: puppeteer is large and most tasks never open a browser.
    const { launch } = await import("puppeteer-core");
    // Every request leaves through Kiln's proxy, loopback included (`<-loopback>` drops Chromium's
    // own bypass): WebSockets and workers are judged there, where request interception cannot see.
    this.proxy ??= await startGuardProxy(
      () => this.guard,
      (line) => this.log(line),
    );
    const args = ["--no-first-run", "--no-default-browser-check", "--disable-extensions", `--proxy-server=${this.proxy.url}`, "--proxy-bypass-list=<-loopback>"];
    // Chrome refuses to start its sandbox as root (containers, CI); elsewhere the sandbox stays on.
    if (process.getuid?.() === 0) args.push("--no-sandbox");
    let browser: Browser;
    try {
      browser = await launch({
        executablePath,
        headless: true,
        defaultViewport: this.size,
        args,
        timeout: LAUNCH_TIMEOUT_MS,
        signal,
        // The host owns signals: the CLI cancels the task on Ctrl+C, and the extension host must not exit.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (err) {
      cancelled(signal);
      throw new BrowserError(`could not start the browser at ${executablePath}: ${message(err)}. Set kiln.browser.executablePath to a working Chrome or Chromium.`);
    }
    if (this.disposed) {
      await browser.close();
      await this.proxy?.close();
      this.proxy = undefined;
      throw new BrowserError("the task ended while the browser was starting.");
    }
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.setRequestInterception(true);
    page.on("request", (request) => void this.judge(request));
    page.on("console", (m) => this.log(`[${m.type()}] ${m.text()}`));
    page.on("pageerror", (err) => this.log(`[page error] ${message(err)}`));
    page.on("requestfailed", (request) => {
      const reason = request.failure()?.errorText ?? "failed";
      // Requests cut short by the next navigation are normal, not worth the model's attention.
      if (reason !== "net::ERR_ABORTED") this.log(`[request failed] ${request.url()}: ${reason}`);
    });
    browser.on("disconnected", () => {
      if (this.browser !== browser) return;
      this.browser = undefined;
      this.page = undefined;
      this.options.logger?.warn("the browser closed unexpectedly");
    });
    this.browser = browser;
    this.page = page;
    return page;
  }

  /** Requests the guard refused since the last launch, by URL, with the reason (for the launch's error). */
  private readonly blocked = new Map<string, string>();

  private async judge(request: HTTPRequest): Promise<void> {
    // Intercepted requests wait until continued or aborted; one that was already handled is left alone.
    if (request.isInterceptResolutionHandled()) return;
    let reason: string | undefined;
    try {
      reason = this.guard ? await this.guard(request.url()) : undefined;
    } catch (err) {
      reason = `it could not be checked (${message(err)})`;
    }
    try {
      if (reason) {
        this.blocked.set(request.url(), reason);
        this.log(`[blocked by Kiln] ${request.url().slice(0, 200)}: ${reason}`);
        await request.abort("blockedbyclient");
      } else await request.continue();
    } catch {
      // The page navigated away or closed while the check ran: nothing is waiting for this request.
    }
  }

  private log(line: string): void {
    if (this.logs.length >= MAX_LOG_LINES) {
      this.dropped++;
      return;
    }
    this.logs.push(line.length > MAX_LOG_LINE_CHARS ? `${line.slice(0, MAX_LOG_LINE_CHARS)}…` : line);
  }

  /** Waits (bounded) for what the action started to finish, then captures the page. */
  private async snapshot(page: Page, signal: AbortSignal | undefined): Promise<BrowserSnapshot> {
    const settle = this.options.settle ?? { idleMs: 300, timeoutMs: 3_000 };
    try {
      await page.waitForNetworkIdle({ idleTime: settle.idleMs, timeout: settle.timeoutMs, concurrency: 0, signal });
    } catch (err) {
      cancelled(signal);
      // A page that keeps polling never goes quiet; show it as it is rather than fail.
      if (!isTimeout(err)) this.options.logger?.warn(`waiting for the page to settle: ${message(err)}`);
    }
    if (page.isClosed()) throw new BrowserError("the page was closed. Launch the browser again.");
    let data: string;
    try {
      data = await page.screenshot({ type: "webp", quality: 80, encoding: "base64" });
    } catch (err) {
      throw new BrowserError(`could not take a screenshot: ${message(err)}`);
    }
    const logs = this.logs;
    const dropped = this.dropped;
    this.logs = [];
    this.dropped = 0;
    return { url: page.url(), viewport: this.viewport, screenshot: { mediaType: "image/webp", data }, logs, droppedLogs: dropped };
  }
}

/** "Enter", or a chord such as "Control+Shift+A": modifiers held while the last key is pressed. */
async function pressChord(page: Page, chord: string): Promise<void> {
  const parts = chord === "+" ? ["+"] : chord.split("+").map((k) => k.trim());
  if (parts.some((k) => k === "")) throw new BrowserError(`"${chord}" is not a key; write a key name like Enter, or a chord like Control+A.`);
  const key = parts.pop()!;
  const held: string[] = [];
  try {
    for (const modifier of parts) {
      await page.keyboard.down(modifier as KeyInput);
      held.push(modifier);
    }
    await page.keyboard.press(key as KeyInput);
  } catch (err) {
    if (/Unknown key/.test(message(err))) {
      throw new BrowserError(`${message(err)}. Use key names such as Enter, Tab, Escape, Backspace, ArrowDown, PageDown, or a chord such as Control+A.`);
    }
    throw err;
  } finally {
    for (const modifier of held.reverse()) await page.keyboard.up(modifier as KeyInput);
  }
}

export function createPuppeteerSession(options: PuppeteerSessionOptions = {}): BrowserSession {
  return new PuppeteerBrowserSession(options);
}
