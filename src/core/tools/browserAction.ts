import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import type { BrowserInput, BrowserSnapshot, Viewport } from "../ports/browser";
import { BrowserError } from "../browser/browserError";
import { defineTool, toolError } from "./defineTool";
import { filePathOf, isLocalHostName, NavigationGuard } from "../browser/navigationGuard";
import { ignoreRulesOf } from "../workspace/ignore";
import { p } from "./params";
import { fieldsBody, said, view } from "./present";
import { untrusted } from "../prompts/untrusted";

export const BROWSER_ACTIONS = ["launch", "click", "hover", "type", "press", "scroll_down", "scroll_up", "resize", "screenshot", "close"] as const;
type Action = (typeof BROWSER_ACTIONS)[number];

/** Typing is one key event per character: a page of text would take minutes and is never the point. */
const MAX_TYPED_CHARS = 5_000;
const MIN_SIDE = 200;
const MAX_WIDTH = 3840;
const MAX_HEIGHT = 2160;
const ALLOWED_PROTOCOLS = new Set(["http:", "https:", "file:", "about:"]);

/** "localhost:3000" and "example.com" mean http; javascript: and the like are refused. */
export function normalizeUrl(raw: string): { ok: true; url: string } | { ok: false; error: string } {
  const text = raw.trim();
  // "host:3000" has a port, not a scheme: a scheme is a name and a colon not followed by digits.
  const withScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, error: `"${text.slice(0, 200)}" is not a URL; give one like http://localhost:3000 or file:///path/to/page.html.` };
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return { ok: false, error: `${url.protocol} URLs cannot be opened; use http, https or file.` };
  return { ok: true, url: url.href };
}

function parseCoordinate(raw: string | undefined, viewport: Viewport): { ok: true; x: number; y: number } | { ok: false; error: string } {
  if (!raw) return { ok: false, error: "this action needs <coordinate> as x,y in pixels of the screenshot, e.g. <coordinate>450,300</coordinate>." };
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(raw);
  if (!match) return { ok: false, error: `<coordinate> must be x,y in pixels, e.g. 450,300; got "${raw.slice(0, 60)}".` };
  const x = Math.round(Number(match[1]));
  const y = Math.round(Number(match[2]));
  const { width, height } = viewport;
  if (x < 0 || y < 0 || x >= width || y >= height) {
    return { ok: false, error: `coordinate ${x},${y} is outside the ${width}x${height} viewport; x must be 0-${width - 1} and y 0-${height - 1}. Scroll to bring the element into view, or resize.` };
  }
  return { ok: true, x, y };
}

function parseSize(raw: string | undefined): { ok: true; width: number; height: number } | { ok: false; error: string } {
  if (!raw) return { ok: false, error: "resize needs <size> as WIDTHxHEIGHT, e.g. <size>1280x800</size>." };
  const match = /^\s*(\d+)\s*[x×,]\s*(\d+)\s*$/i.exec(raw);
  if (!match) return { ok: false, error: `<size> must be WIDTHxHEIGHT, e.g. 1280x800; got "${raw.slice(0, 60)}".` };
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_WIDTH || height > MAX_HEIGHT) {
    return { ok: false, error: `size ${width}x${height} is out of range; width must be ${MIN_SIDE}-${MAX_WIDTH} and height ${MIN_SIDE}-${MAX_HEIGHT}.` };
  }
  return { ok: true, width, height };
}

type Args = { action: string; url?: string; coordinate?: string; text?: string; size?: string };

/** The model's arguments -> one input for the session, or an error it can fix. */
function toInput(action: Exclude<Action, "launch" | "close">, args: Args, viewport: Viewport): BrowserInput | string {
  switch (action) {
    case "click":
    case "hover": {
      const point = parseCoordinate(args.coordinate, viewport);
      return point.ok ? { kind: action, x: point.x, y: point.y } : point.error;
    }
    case "type":
      if (!args.text) return "type needs <text>, the text to type into the focused element (click the field first).";
      if (args.text.length > MAX_TYPED_CHARS) return `<text> is ${args.text.length} characters; type at most ${MAX_TYPED_CHARS} at a time.`;
      return { kind: "type", text: args.text };
    case "press": {
      const key = args.text?.trim();
      return key ? { kind: "press", key } : "press needs <text>, a key name such as Enter, Tab, Escape or ArrowDown, or a chord such as Control+A.";
    }
    case "scroll_down":
    case "scroll_up":
      return { kind: "scroll", direction: action === "scroll_down" ? "down" : "up" };
    case "resize": {
      const size = parseSize(args.size);
      return size.ok ? { kind: "resize", width: size.width, height: size.height } : size.error;
    }
    case "screenshot":
      return { kind: "screenshot" };
  }
}

function done(action: Action, args: Args, url: string): string {
  switch (action) {
    case "launch":
      return `Opened ${url}.`;
    case "click":
      return `Clicked at ${args.coordinate?.trim()}.`;
    case "hover":
      return `Moved the mouse to ${args.coordinate?.trim()}.`;
    case "type":
      return `Typed ${args.text!.length} characters.`;
    case "press":
      return `Pressed ${args.text?.trim()}.`;
    case "scroll_down":
      return "Scrolled down one screen.";
    case "scroll_up":
      return "Scrolled up one screen.";
    case "resize":
      return `Resized the viewport to ${args.size?.trim()}.`;
    default:
      return "Took a screenshot.";
  }
}

function describe(action: Action, args: Args, shot: BrowserSnapshot): string {
  const { width, height } = shot.viewport;
  // The page writes its console: data for the model, never orders (the system prompt's rule on <untrusted>).
  const logs = shot.logs.length === 0 ? "(none)" : untrusted(`browser:${shot.url}`, shot.logs.join("\n")) + (shot.droppedLogs > 0 ? `\n(${shot.droppedLogs} more lines not shown)` : "");
  return [
    done(action, args, shot.url),
    `Current URL: ${shot.url}`,
    `Viewport: ${width}x${height} (x 0-${width - 1}, y 0-${height - 1})`,
    `Console output since the last action:\n${logs}`,
    "The screenshot of the page is attached. Close the browser with action close when you are done with it.",
  ].join("\n");
}

function summary(args: Args): string {
  const cut = (s: string | undefined) => (s && s.length > 80 ? `${s.slice(0, 80)}…` : (s ?? ""));
  switch (args.action as Action) {
    case "launch":
      return l10n.t("Open {0} in the browser", cut(args.url?.trim()));
    case "click":
      return l10n.t("Click at {0} in the browser", cut(args.coordinate));
    case "hover":
      return l10n.t("Move the mouse to {0} in the browser", cut(args.coordinate));
    case "type":
      return l10n.t('Type "{0}" in the browser', cut(args.text));
    case "press":
      return l10n.t("Press {0} in the browser", cut(args.text?.trim()));
    case "scroll_down":
      return l10n.t("Scroll down in the browser");
    case "scroll_up":
      return l10n.t("Scroll up in the browser");
    case "resize":
      return l10n.t("Resize the browser to {0}", cut(args.size));
    case "screenshot":
      return l10n.t("Take a screenshot of the browser");
    default:
      return l10n.t("Close the browser");
  }
}

export const browserActionTool = defineTool({
  name: "browser_action",
  group: "browser",
  description: [
    "Drive a headless Chromium browser to check a web page: open it, click, type, scroll, and see the result.",
    "One action per call. Each action (except close) returns a screenshot of the page (for models that can see images), the console output since the previous action, and the current URL.",
    "Start with action launch and a url (http://localhost:3000, a file:/// path to an HTML file); end with action close.",
    "Coordinates are pixels of the latest screenshot, x,y from the top-left, inside the viewport (900x600 unless resized); click the centre of an element.",
    "To fill a field: click it, then type the text; press sends one key (Enter, Tab, Escape, ArrowDown, PageDown) or a chord (Control+A).",
  ].join(" "),
  params: {
    action: p.string(`One of ${BROWSER_ACTIONS.join(", ")}`, { enum: BROWSER_ACTIONS }),
    url: p.string("For launch: the URL to open", { optional: true }),
    coordinate: p.string("For click and hover: x,y in pixels of the screenshot, e.g. 450,300", { optional: true }),
    text: p.string("For type: the text to type; for press: the key name or chord", { optional: true, raw: true }),
    size: p.string("For resize: WIDTHxHEIGHT in pixels, e.g. 1280x800", { optional: true }),
  },
  present(args, status) {
    return view(
      {
        icon: "globe",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to use the browser: {0}", TARGET_SLOT),
          doing: () => l10n.t("Kiln is using the browser: {0}", TARGET_SLOT),
          did: () => l10n.t("Kiln used the browser: {0}", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to use the browser: {0}", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not use the browser: {0}", TARGET_SLOT),
        }),
        target: args.action,
      },
      fieldsBody([
        [l10n.t("URL"), args.url],
        [l10n.t("at"), args.coordinate],
        [l10n.t("size"), args.size],
        [l10n.t("text"), args.text],
      ]),
    );
  },
  approval(args) {
    if (args.action !== "launch" || !args.url) return { summary: summary(args), paths: [] };
    // A file is a path, checked as the file tools check theirs; a local address asks (see the pipeline).
    const url = normalizeUrl(args.url);
    const file = url.ok ? filePathOf(url.url) : undefined;
    const host = url.ok && !file ? new URL(url.url).hostname : undefined;
    return { summary: summary(args), paths: file ? [file] : [], ...(host && isLocalHostName(host) && { privateHost: host }) };
  },
  async execute(args, context) {
    const session = context.browser;
    if (!session) return toolError("unavailable", "there is no browser in this environment, so browser_action cannot run here.");
    const action = args.action as Action;
    try {
      if (action === "close") {
        if (!session.isOpen) return { kind: "result", text: "The browser was not open; nothing to close." };
        await session.close();
        return { kind: "result", text: "Closed the browser." };
      }
      let shot: BrowserSnapshot;
      if (action === "launch") {
        if (!args.url?.trim()) return toolError("invalid_args", "launch needs <url>, the page to open, e.g. <url>http://localhost:3000</url>.");
        const url = normalizeUrl(args.url);
        if (!url.ok) return toolError("invalid_args", url.error);
        const guard = new NavigationGuard({ cwd: context.cwd, ignore: ignoreRulesOf(context), allowPrivate: context.allowPrivateUrls === true, launched: url.url });
        shot = await session.launch(url.url, context.signal, (target) => guard.check(target));
      } else {
        if (!session.isOpen) return toolError("unavailable", `the browser is not open, so ${action} cannot run. Launch it first: action launch with a url.`);
        const input = toInput(action, args, session.viewport);
        if (typeof input === "string") return toolError("invalid_args", input);
        shot = await session.act(input, context.signal);
      }
      return { kind: "result", text: describe(action, args, shot), images: [shot.screenshot] };
    } catch (err) {
      if (err instanceof BrowserError) return toolError("failed", err.message);
      throw err;
    }
  },
});
