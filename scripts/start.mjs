// @ts-check
// `npm start`: installs what starting needs and is missing (code-server, in .cache/), builds and packages
// Kiln, installs the vsix into a local code-server profile (.kiln-dev/) and opens a sample workspace
// outside the clone. With ANTHROPIC_API_KEY or OPENAI_API_KEY set, Kiln talks to that provider; without,
// a fake model server starts beside it.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort, installExtension, root, startCodeServer, writeUserSettings } from "./lib/codeServer.mjs";

const log = (/** @type {string} */ line) => console.log(`[kiln] ${line}`);
const skipBuild = process.env.KILN_START_SKIP_BUILD === "1";

/** Runs a step quietly: its output shows only if it fails. */
function run(/** @type {string} */ command, /** @type {string[]} */ args) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    throw new Error(`${command} ${args.join(" ")} failed`);
  }
}

// Only what starting needs: the test suites' tools (chromium, bubblewrap…) come with `npm test`.
const setup = spawnSync("bash", [join(root, "scripts", "setup-tools.sh"), "start"], { stdio: "inherit" });
if (setup.status !== 0) throw new Error("scripts/setup-tools.sh start failed");
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
const vsix = join(root, `kiln-${version}.vsix`);
if (skipBuild) {
  log(`KILN_START_SKIP_BUILD=1: using the last build (${vsix})`);
} else {
  log("building and packaging Kiln (about a minute)…");
  run("npm", ["run", "--silent", "package"]);
  // The development bundles, and out/fake-model-server.mjs for when no API key is set.
  run(process.execPath, [join(root, "esbuild.mjs"), "--tests"]);
  log(`built ${vsix}`);
}

// KILN_DEV_DIR: where the profile and sample workspace live (tests point it at a temp folder). By
// default the profile stays in the clone (.kiln-dev/, git-ignored) and the workspace lives outside
// it, in the user's cache folder, so VS Code does not take it for part of Kiln's git repository.
const devDir = process.env.KILN_DEV_DIR;
const dev = devDir ?? join(root, ".kiln-dev");
const profile = {
  base: dev,
  userDataDir: join(dev, "user-data"),
  extensionsDir: join(dev, "extensions"),
  xdg: join(dev, "xdg"),
  config: join(dev, "config.yaml"),
};
for (const dir of [join(profile.userDataDir, "User"), profile.extensionsDir, profile.xdg]) mkdirSync(dir, { recursive: true });
writeFileSync(profile.config, "auth: none\n");
const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
const workspace = devDir ? join(devDir, "workspace") : join(cacheHome, "kiln", "sample-workspace");
if (existsSync(workspace)) {
  log(`sample workspace: ${workspace} (from an earlier start; your changes there are kept)`);
} else {
  cpSync(join(root, "test", "fixtures", "workspace"), workspace, { recursive: true });
  log(`sample workspace: ${workspace} (a new copy of test/fixtures/workspace)`);
}
installExtension(profile, vsix);
log(`installed the vsix into the code-server profile in ${dev}`);

/** @type {Record<string, string>} */
const env = {};
/** @type {import("node:child_process").ChildProcess | undefined} */
let fake;
let provider;
const model = process.env.KILN_MODEL ?? "";
if (process.env.ANTHROPIC_API_KEY) {
  provider = { kind: "anthropic", baseUrl: process.env.ANTHROPIC_BASE_URL ?? "", model };
  env.ANTHROPIC_API_KEY = process.env.ANTHROPIC_API_KEY;
  log("ANTHROPIC_API_KEY found: Kiln is configured for Anthropic.");
} else if (process.env.OPENAI_API_KEY) {
  provider = { kind: "openai", baseUrl: process.env.OPENAI_BASE_URL ?? "", model };
  env.OPENAI_API_KEY = process.env.OPENAI_API_KEY;
  log("OPENAI_API_KEY found: Kiln is configured for OpenAI.");
} else {
  fake = spawn(process.execPath, [join(root, "out", "fake-model-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  const first = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: /** @type {import("node:stream").Readable} */ (fake?.stdout) });
    lines.once("line", resolve);
    fake?.once("exit", (code) => reject(new Error(`the fake model server exited with ${code}`)));
  });
  const urls = JSON.parse(/** @type {string} */ (first));
  provider = { kind: "openai-compatible", baseUrl: urls.openaiBaseUrl, model: "kiln-fake-model" };
  log("No ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment.");
  log(`Started Kiln's FAKE model server at ${urls.openaiBaseUrl}: replies are canned demo text, not a real model.`);
}
writeUserSettings(profile, {
  "kiln.provider.kind": provider.kind,
  "kiln.provider.baseUrl": provider.baseUrl,
  "kiln.provider.model": provider.model,
});

const requested = Number(process.env.KILN_PORT ?? 8765);
const port = (await isFree(requested)) ? requested : /** @type {number} */ (await freePort());
const server = await startCodeServer({ profile, env, port });
const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
log(`Kiln is running in VS Code (code-server) at ${url}`);
log("Open it in a browser and click the Kiln icon in the activity bar. Ctrl+C stops everything.");

const stop = async () => {
  fake?.kill();
  await server.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());

/** @param {number} candidate */
async function isFree(candidate) {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(candidate, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}
