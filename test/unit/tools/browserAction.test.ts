import type { Server } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createToolbox } from "../../../src/core/agent/toolbox";
import { chromeCandidates, findChrome } from "../../../src/core/browser/findChrome";
import { createPuppeteerSession } from "../../../src/core/browser/puppeteerSession";
import { findMode } from "../../../src/core/modes/modes";
import type { ApprovalRequest } from "../../../src/core/ports/approvals";
import type { BrowserSession } from "../../../src/core/ports/browser";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { normalizeUrl } from "../../../src/core/tools/browserAction";
import { runToolCall, type PipelineDeps, type ToolCallResult } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";
import { isImage, servePage } from "../../fixtures/browserPage";

let server: Server;
let pageUrl: string;
let asked: ApprovalRequest[];
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  ({ server, url: pageUrl } = await servePage());
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
});

function session(options: Parameters<typeof createPuppeteerSession>[0] = {}): BrowserSession {
  const made = createPuppeteerSession({ settle: { idleMs: 150, timeoutMs: 2_000 }, ...options });
  sessions.push(made);
  return made;
}

function deps(browser: BrowserSession | undefined, auto = true, signal = new AbortController().signal, options: { allowPrivateUrls?: boolean; approve?: boolean } = {}): PipelineDeps {
  asked = [];
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async (r) => (asked.push(r), { approved: options.approve ?? true }) },
    autoApprove: { groups: new Set(auto ? ["browser"] : []), outsideWorkspace: false },
    // The fixture pages are on 127.0.0.1: most tests are about the browser, not about local addresses.
    context: { cwd: process.cwd(), fs: new NodeFileSystem(), signal, browser, allowPrivateUrls: options.allowPrivateUrls ?? true },
  };
}

/** The screenshots a call handed to the model (only done calls carry any). */
const images = (result: ToolCallResult) => (result.status === "done" ? (result.images ?? []) : []);

const act = (params: Record<string, string>): ToolUseBlock => ({ type: "tool_use", name: "browser_action", params, partial: false });

describe("browser_action without a browser process", () => {
  it("asks before opening a URL, with a summary that names it", async () => {
    const d = deps(session({ executablePath: () => join(process.cwd(), "no-such-chrome") }), false);
    await runToolCall(act({ action: "launch", url: "localhost:5173/app" }), d);
    expect(asked).toMatchObject([{ tool: "browser_action", group: "browser", summary: "Open localhost:5173/app in the browser" }]);
  });

  it("asks before opening a loopback address, even with the browser auto-approved, unless the setting allows them", async () => {
    const refusing = deps(session({ executablePath: () => join(process.cwd(), "no-such-chrome") }), true, undefined, { allowPrivateUrls: false, approve: false });
    const result = await runToolCall(act({ action: "launch", url: "http://127.0.0.1:9/admin" }), refusing);
    expect(result.status).toBe("denied");
    expect(asked).toMatchObject([{ tool: "browser_action", reason: expect.stringContaining("127.0.0.1 is a loopback or private address") }]);
    const allowing = deps(session({ executablePath: () => join(process.cwd(), "no-such-chrome") }), true, undefined, { allowPrivateUrls: true });
    await runToolCall(act({ action: "launch", url: "http://127.0.0.1:9/admin" }), allowing);
    expect(asked).toEqual([]);
  });

  it("takes a file: URL as a path: outside the workspace it asks as a read outside, hidden files are refused", async () => {
    const refusing = deps(session({ executablePath: () => join(process.cwd(), "no-such-chrome") }), true, undefined, { approve: false });
    const outside = await runToolCall(act({ action: "launch", url: "file:///etc/passwd" }), refusing);
    expect(outside.status).toBe("denied");
    expect(asked[0]?.reason).toContain("outside the workspace");
    const ws = mkdtempSync(join(tmpdir(), "kiln-browser-hidden-"));
    writeFileSync(join(ws, ".kilocodeignore"), "secret.html\n");
    writeFileSync(join(ws, "secret.html"), "<p>secret</p>");
    const hiddenDeps = deps(session(), true);
    hiddenDeps.context = { ...hiddenDeps.context, cwd: ws };
    const hidden = await runToolCall(act({ action: "launch", url: pathToFileURL(join(ws, "secret.html")).href }), hiddenDeps);
    expect(hidden.forModel).toContain("hidden from Kiln by .kilocodeignore");
    expect(asked).toEqual([]);
  });

  it("says to launch first when an action comes before launch", async () => {
    const result = await runToolCall(act({ action: "click", coordinate: "10,10" }), deps(session()));
    expect(result.status).toBe("error");
    expect(result.forModel).toMatch(/^Error: the browser is not open, so click cannot run. Launch it first/);
    const closed = await runToolCall(act({ action: "close" }), deps(session()));
    expect(closed.forModel).toBe("The browser was not open; nothing to close.");
  });

  it("names the setting when the configured browser does not exist", async () => {
    const missing = join(process.cwd(), "no-such-chrome");
    const result = await runToolCall(act({ action: "launch", url: pageUrl }), deps(session({ executablePath: () => missing })));
    expect(result.status).toBe("error");
    expect(result.forModel).toContain(`Error: the browser at ${missing} (setting kiln.browser.executablePath) does not exist`);
  });

  it("says how to set the path when no browser is installed anywhere", async () => {
    const nowhere = { platform: "linux" as const, env: { PATH: "/nowhere" }, isExecutable: () => false };
    const result = await runToolCall(act({ action: "launch", url: pageUrl }), deps(session({ where: nowhere })));
    expect(result.forModel).toMatch(/^Error: no Chrome, Chromium or Edge was found.*set kiln\.browser\.executablePath/);
  });

  it("reports a host without a browser, and parameters the action needs", async () => {
    expect((await runToolCall(act({ action: "screenshot" }), deps(undefined))).forModel).toMatch(/^Error: there is no browser in this environment/);
    expect((await runToolCall(act({ action: "launch" }), deps(session()))).forModel).toMatch(/^Error: launch needs <url>/);
    expect((await runToolCall(act({ action: "launch", url: "javascript:alert(1)" }), deps(session()))).forModel).toContain("javascript: URLs cannot be opened");
    expect((await runToolCall(act({ action: "jump" }), deps(session()))).forModel).toContain("Parameter <action> must be one of launch, click");
  });

  it("finds browsers in the usual places, the environment first", () => {
    const linux = chromeCandidates("linux", { PATH: "/opt/bin", CHROME_PATH: "/custom/chrome" });
    expect(linux[0]).toBe("/custom/chrome");
    expect(linux).toEqual(
      expect.arrayContaining(["/opt/bin/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium"]),
    );
    expect(chromeCandidates("darwin", {})).toContain("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome");
    expect(chromeCandidates("win32", { PROGRAMFILES: "C:\\Program Files" })).toContain("C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe");
    const where = { platform: "linux" as const, env: { PATH: "" }, isExecutable: (p: string) => p === "/snap/bin/chromium" };
    expect(findChrome(undefined, where)).toBe("/snap/bin/chromium");
    expect(findChrome("/my/chrome", { ...where, isExecutable: (p) => p === "/my/chrome" })).toBe("/my/chrome");
  });

  it("reads URLs the way people write them", () => {
    expect(normalizeUrl("localhost:3000")).toEqual({ ok: true, url: "http://localhost:3000/" });
    expect(normalizeUrl("https://example.com/a?b=1")).toEqual({ ok: true, url: "https://example.com/a?b=1" });
    expect(normalizeUrl("file:///tmp/a.html")).toEqual({ ok: true, url: "file:///tmp/a.html" });
    expect(normalizeUrl("data:text/html,hi").ok).toBe(false);
    expect(normalizeUrl("127.0.0.1:8080/x")).toEqual({ ok: true, url: "http://127.0.0.1:8080/x" });
  });
});

describe("browser_action with a real Chromium", () => {
  it("launches, clicks, hovers, types, presses, scrolls, resizes, screenshots and closes", async () => {
    const browser = session();
    const d = deps(browser);
    const launched = await runToolCall(act({ action: "launch", url: pageUrl }), d);
    expect(launched.status).toBe("done");
    expect(launched.forModel).toContain(`Current URL: ${pageUrl}`);
    expect(launched.forModel).toContain("Viewport: 900x600");
    expect(launched.forModel).toContain("[log] page loaded");
    expect(images(launched)).toHaveLength(1);
    expect(images(launched)[0]!.mediaType).toBe("image/webp");
    expect(isImage(images(launched)[0]!.data)).toBe(true);

    const hovered = await runToolCall(act({ action: "hover", coordinate: "120,50" }), d);
    expect(hovered.forModel).toContain("[log] hovered");
    expect(hovered.forModel).not.toContain("page loaded");

    const clicked = await runToolCall(act({ action: "click", coordinate: "120,50" }), d);
    expect(clicked.forModel).toContain("Clicked at 120,50.");
    expect(clicked.forModel).toContain("[log] button clicked");
    expect(images(clicked)[0]!.data).not.toBe(images(launched)[0]!.data);

    await runToolCall(act({ action: "click", coordinate: "170,135" }), d);
    const typed = await runToolCall(act({ action: "type", text: "hello kiln" }), d);
    expect(typed.forModel).toContain("Typed 10 characters.");
    expect(typed.forModel).toContain("Console output since the last action:\n(none)");
    const pressed = await runToolCall(act({ action: "press", text: "Enter" }), d);
    expect(pressed.forModel).toContain("[log] submitted: hello kiln");
    const chord = await runToolCall(act({ action: "press", text: "Control+A" }), d);
    expect(chord.status).toBe("done");
    const badKey = await runToolCall(act({ action: "press", text: "Hyperdrive" }), d);
    expect(badKey.forModel).toMatch(/^Error: .*Unknown key.*Use key names such as Enter/);

    const down = await runToolCall(act({ action: "scroll_down" }), d);
    expect(down.forModel).toContain("[log] scrollY 600");
    const up = await runToolCall(act({ action: "scroll_up" }), d);
    expect(up.forModel).toContain("[log] scrollY 0");

    const resized = await runToolCall(act({ action: "resize", size: "1200x800" }), d);
    expect(resized.forModel).toContain("Viewport: 1200x800");
    expect(resized.forModel).toContain("[log] size 1200x800");
    expect(browser.viewport).toEqual({ width: 1200, height: 800 });
    // A point outside the old viewport is inside the new one.
    expect((await runToolCall(act({ action: "hover", coordinate: "1000,700" }), d)).status).toBe("done");
    expect((await runToolCall(act({ action: "resize", size: "50x50" }), d)).forModel).toContain("out of range");

    const shot = await runToolCall(act({ action: "screenshot" }), d);
    expect(isImage(images(shot)[0]!.data)).toBe(true);

    const closed = await runToolCall(act({ action: "close" }), d);
    expect(closed.forModel).toBe("Closed the browser.");
    expect(images(closed)).toEqual([]);
    expect(browser.isOpen).toBe(false);
    expect((await runToolCall(act({ action: "screenshot" }), d)).forModel).toMatch(/^Error: the browser is not open/);
  });

  it("follows a link to the next page, and refuses coordinates outside the viewport", async () => {
    const d = deps(session());
    await runToolCall(act({ action: "launch", url: pageUrl }), d);
    const outside = await runToolCall(act({ action: "click", coordinate: "900,10" }), d);
    expect(outside.status).toBe("error");
    expect(outside.forModel).toContain("Error: coordinate 900,10 is outside the 900x600 viewport; x must be 0-899 and y 0-599.");
    expect((await runToolCall(act({ action: "click", coordinate: "left" }), d)).forModel).toContain("<coordinate> must be x,y in pixels");
    expect((await runToolCall(act({ action: "click" }), d)).forModel).toContain("this action needs <coordinate>");
    const next = await runToolCall(act({ action: "click", coordinate: "120,215" }), d);
    expect(next.forModel).toContain(`Current URL: ${pageUrl}two`);
    expect(next.forModel).toContain("[log] on page two");
    // Launching again while open goes to the new address in the same browser.
    const again = await runToolCall(act({ action: "launch", url: pageUrl }), d);
    expect(again.forModel).toContain(`Current URL: ${pageUrl}\n`);
    expect(again.forModel).toContain("[log] page loaded");
  });

  it("tells the model when the page cannot be reached", async () => {
    // A port that was free a moment ago: nothing listens there now.
    const { server: gone, url } = await servePage();
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const dead = await runToolCall(act({ action: "launch", url }), deps(session()));
    expect(dead.forModel).toContain(`Error: could not open ${url}: net::ERR_CONNECTION_REFUSED`);
    expect(dead.forModel).toContain("(is the server running?)");
  });

  it("judges every hop: a redirect to a local address the user did not approve is blocked", async () => {
    const { server: other, url: otherUrl } = await servePage();
    try {
      const d = deps(session(), true, undefined, { allowPrivateUrls: false });
      const result = await runToolCall(act({ action: "launch", url: `${pageUrl}redirect?to=${encodeURIComponent(otherUrl)}` }), d);
      // Opening the first address asked (it is local); the hop to another local port was never approved.
      expect(asked).toHaveLength(1);
      expect(result.forModel).toContain("Kiln blocked it");
      expect(result.forModel).toContain(new URL(otherUrl).host);
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it("blocks a page's requests to other local addresses and says so in the console output", async () => {
    const { server: other, url: otherUrl } = await servePage();
    try {
      const d = deps(session(), true, undefined, { allowPrivateUrls: false });
      const result = await runToolCall(act({ action: "launch", url: `${pageUrl}embeds?src=${encodeURIComponent(`${otherUrl}pixel.png`)}` }), d);
      expect(result.status).toBe("done");
      expect(result.forModel).toContain(`[blocked by Kiln] ${otherUrl}pixel.png`);
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it("blocks a page's WebSocket to another local address, which request interception cannot see", async () => {
    const { server: other, url: otherUrl } = await servePage();
    let reached = 0;
    other.on("upgrade", (_req, socket) => (reached++, socket.destroy()));
    const target = otherUrl.replace("http:", "ws:");
    try {
      const blocked = await runToolCall(act({ action: "launch", url: `${pageUrl}websocket?to=${encodeURIComponent(target)}` }), deps(session(), true, undefined, { allowPrivateUrls: false }));
      expect(blocked.forModel).toContain(`[blocked by Kiln] ${new URL(otherUrl).host}`);
      expect(reached).toBe(0);
      // With local addresses allowed the same socket gets through: the count above is no accident.
      await runToolCall(act({ action: "launch", url: `${pageUrl}websocket?to=${encodeURIComponent(target)}` }), deps(session(), true, undefined, { allowPrivateUrls: true }));
      expect(reached).toBe(1);
    } finally {
      other.closeAllConnections();
      other.close();
    }
  });

  it("stops waiting for a hanging page when the task is cancelled", async () => {
    const controller = new AbortController();
    const d = deps(session(), true, controller.signal);
    const started = Date.now();
    setTimeout(() => controller.abort(), 1_500);
    const result = await runToolCall(act({ action: "launch", url: `${pageUrl}slow` }), d);
    expect(result.forModel).toBe("Error: the browser action was cancelled.");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("closes the browser when the toolbox is disposed, and a subtask gets its own", async () => {
    const made: BrowserSession[] = [];
    const toolbox = createToolbox({
      registry: createDefaultRegistry(),
      mode: findMode("code")!,
      approvals: { request: async () => ({ approved: true }) },
      autoApprove: { groups: new Set(["browser"]), outsideWorkspace: false },
      cwd: process.cwd(),
      fs: new NodeFileSystem(),
      os: "Linux",
      browser: () => {
        const s = session();
        made.push(s);
        return s;
      },
    });
    const child = toolbox.forSubtask();
    const modes = { mode: toolbox.startMode, modes: toolbox.modes };
    expect(made).toHaveLength(2);
    const launched = await runToolCall(act({ action: "launch", url: pageUrl }), toolbox.pipeline(new AbortController().signal, modes));
    expect(launched.status).toBe("done");
    expect(made[0]!.isOpen).toBe(true);
    expect(made[1]!.isOpen).toBe(false);
    child.dispose();
    expect(made[0]!.isOpen).toBe(true);
    toolbox.dispose();
    expect(made[0]!.isOpen).toBe(false);
    // After the task ended its browser cannot come back.
    expect((await runToolCall(act({ action: "launch", url: pageUrl }), toolbox.pipeline(new AbortController().signal, modes))).forModel).toContain("Error: the task has ended");
  });
});
