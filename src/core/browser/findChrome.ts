import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { BrowserError } from "./browserError";

export interface FindChromeEnv {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Whether a file exists and may be run; injected so tests need no real installs. */
  isExecutable(path: string): boolean;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    // Windows has no execute bit; existence is what counts there.
    if (process.platform !== "win32") accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: simply not a candidate.
    return false;
  }
}

export const systemChromeEnv = (): FindChromeEnv => ({ platform: process.platform, env: process.env, isExecutable: isExecutableFile });

const LINUX_NAMES = ["google-chrome-stable", "google-chrome", "chromium", "chromium-browser", "microsoft-edge", "microsoft-edge-stable"];

/** Where Chrome, Chromium or Edge (all Chromium, all drivable by puppeteer) usually live. */
export function chromeCandidates(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  const fromEnv = [env.PUPPETEER_EXECUTABLE_PATH, env.CHROME_PATH].filter((p): p is string => Boolean(p?.trim()));
  switch (platform) {
    case "darwin": {
      const apps = [
        "Google Chrome.app/Contents/MacOS/Google Chrome",
        "Chromium.app/Contents/MacOS/Chromium",
        "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
        "Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
      ];
      const roots = ["/Applications", ...(env.HOME ? [join(env.HOME, "Applications")] : [])];
      return [...fromEnv, ...roots.flatMap((root) => apps.map((app) => `${root}/${app}`))];
    }
    case "win32": {
      const roots = [env.PROGRAMFILES, env["PROGRAMFILES(X86)"], env.LOCALAPPDATA].filter((r): r is string => Boolean(r));
      const exes = ["Google\\Chrome\\Application\\chrome.exe", "Chromium\\Application\\chrome.exe", "Microsoft\\Edge\\Application\\msedge.exe"];
      return [...fromEnv, ...roots.flatMap((root) => exes.map((exe) => `${root}\\${exe}`))];
    }
    default: {
      // PATH first (Nix, custom prefixes), then the usual fixed places.
      const path = (env.PATH ?? "").split(delimiter).filter(Boolean);
      const onPath = path.flatMap((dir) => LINUX_NAMES.map((name) => join(dir, name)));
      const fixed = [...LINUX_NAMES.map((name) => `/usr/bin/${name}`), "/snap/bin/chromium", "/opt/google/chrome/chrome"];
      return [...new Set([...fromEnv, ...onPath, ...fixed])];
    }
  }
}

/**
 * The browser to launch: the configured path when one is set (and then only that one, since a
 * silent fallback would hide a typo), otherwise the first Chromium-family browser found.
 */
export function findChrome(configured: string | undefined, where: FindChromeEnv = systemChromeEnv()): string {
  const wanted = configured?.trim();
  if (wanted) {
    if (where.isExecutable(wanted)) return wanted;
    throw new BrowserError(
      `the browser at ${wanted} (setting kiln.browser.executablePath) does not exist or cannot be run. Point kiln.browser.executablePath at a Chrome, Chromium or Edge executable, or clear it to find one automatically.`,
    );
  }
  const candidates = chromeCandidates(where.platform, where.env);
  const found = candidates.find((path) => where.isExecutable(path));
  if (found) return found;
  throw new BrowserError(
    "no Chrome, Chromium or Edge was found on this machine, so browser_action cannot run. Install one, or set kiln.browser.executablePath (or the CHROME_PATH environment variable) to the browser's executable; until then, do without the browser.",
  );
}
