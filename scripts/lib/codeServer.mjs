// @ts-check
// Starts a real VS Code (code-server from the npm cache that scripts/setup-tools.sh fills) and the
// Debian Chromium that drives it. Shared by `npm start`, the extension-host tests and the e2e tests.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CODE_SERVER_VERSION = process.env.KILN_CODE_SERVER_VERSION ?? "4.100.3";
export const codeServerBin = join(root, ".cache", `code-server-${CODE_SERVER_VERSION}`, "node_modules", ".bin", "code-server");
export const chromiumPath = process.env.KILN_CHROMIUM ?? "/usr/bin/chromium";

/** Environment without the caller's API keys, so tests never reach a real provider by accident. */
export function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY$|^KILN_TEST_|^ELECTRON_|^VSCODE_/.test(k)));
  return { ...env, ...extra };
}

/** A throwaway home for one code-server run: code-server writes into XDG dirs even for --version. */
export function makeProfile(prefix = "kiln-vscode-") {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const dirs = {
    base,
    userDataDir: join(base, "user-data"),
    extensionsDir: join(base, "extensions"),
    xdg: join(base, "xdg"),
    config: join(base, "config.yaml"),
  };
  mkdirSync(join(dirs.userDataDir, "User"), { recursive: true });
  mkdirSync(dirs.extensionsDir, { recursive: true });
  mkdirSync(dirs.xdg, { recursive: true });
  writeFileSync(dirs.config, "auth: none\n");
  return dirs;
}

/** @param {ReturnType<typeof makeProfile>} profile @param {Record<string, unknown>} settings */
export function writeUserSettings(profile, settings) {
  const base = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "security.workspace.trust.enabled": false,
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
  };
  writeFileSync(join(profile.userDataDir, "User", "settings.json"), JSON.stringify({ ...base, ...settings }, null, 2));
}

/** @param {ReturnType<typeof makeProfile>} profile @param {string} vsix */
export function installExtension(profile, vsix) {
  const run = spawnSync(codeServerBin, ["--install-extension", vsix, "--force", "--extensions-dir", profile.extensionsDir, "--user-data-dir", profile.userDataDir, "--config", profile.config], {
    encoding: "utf8",
    env: cleanEnv({ XDG_CONFIG_HOME: profile.xdg, XDG_DATA_HOME: profile.xdg }),
  });
  if (run.status !== 0) throw new Error(`installing ${vsix} failed:\n${run.stdout}\n${run.stderr}`);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * workspaceTrust: VS Code's Workspace Trust on (folders open in Restricted Mode until trusted); off by default.
 * locale: the display language (code-server's --locale), which picks the extensions' translations.
 * @param {{ profile: ReturnType<typeof makeProfile>, env?: Record<string, string>, port?: number, log?: (line: string) => void, workspaceTrust?: boolean, locale?: string }} options
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startCodeServer({ profile, env = {}, port, log = () => undefined, workspaceTrust = false, locale }) {
  const chosen = port ?? /** @type {number} */ (await freePort());
  const child = spawn(
    codeServerBin,
    [
      "--bind-addr",
      `127.0.0.1:${chosen}`,
      "--auth",
      "none",
      "--disable-telemetry",
      "--disable-update-check",
      ...(workspaceTrust ? [] : ["--disable-workspace-trust"]),
      ...(locale ? ["--locale", locale] : []),
      "--disable-getting-started-override",
      "--config",
      profile.config,
      "--user-data-dir",
      profile.userDataDir,
      "--extensions-dir",
      profile.extensionsDir,
    ],
    { env: cleanEnv({ XDG_CONFIG_HOME: profile.xdg, XDG_DATA_HOME: profile.xdg, ...env }), detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch (err) {
      log(`code-server already gone: ${err instanceof Error ? err.message : String(err)}`);
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // It exited between the timeout and the kill: nothing left to stop.
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${output}`)), 60_000);
    const onData = (/** @type {Buffer} */ data) => {
      const text = data.toString();
      output += text;
      for (const line of text.split("\n")) if (line.trim()) log(line);
      if (output.includes("HTTP server listening on")) {
        clearTimeout(timer);
        resolve(undefined);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code}:\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${chosen}`, port: chosen, stop };
}

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--window-size=1400,900",
];

export async function launchChromium() {
  const puppeteer = (await import("puppeteer-core")).default;
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    defaultViewport: { width: 1400, height: 900 },
    protocolTimeout: 120_000,
  });
}
