// @ts-check
// Runs test/vscode/suite inside the real extension host of code-server: the page is put in
// development + tests mode (developmentOptions in the workbench configuration), the workbench
// reports the suite's exit code through codeAutomationExit, and the suite writes its counts to a file.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { launchChromium, makeProfile, root, startCodeServer, writeUserSettings } from "../../scripts/lib/codeServer.mjs";

const resultsFile = process.argv[2] ?? join(root, "test-results", "vscode.json");
// A stuck suite must end, but the whole suite (about 170 tests with code-server's start) takes
// five to six minutes on CI's two cores and more on a loaded machine: the limit leaves room for a
// slow run, well inside CI's 90 minutes.
const TIMEOUT_MS = 900_000;

const profile = makeProfile("kiln-host-");
const workspace = join(mkdtempSync(join(tmpdir(), "kiln-ws-")), "workspace");
cpSync(join(root, "test", "fixtures", "workspace"), workspace, { recursive: true });
writeUserSettings(profile, {});
writeFileSync(resultsFile, "");

const suitePath = join(root, "out", "test", "vscode", "index.js");
if (!existsSync(suitePath)) throw new Error(`${suitePath} is missing: run node esbuild.mjs --tests first`);

/**
 * Browser-side script (a string: it runs in the page, not in Node). The workbench reads its
 * configuration from this element's data-settings attribute; add the development options there
 * (rewriting the served HTML breaks the connection).
 * @param {string} extensionPath @param {string} testsPath
 */
function developmentModeScript(extensionPath, testsPath) {
  return `(() => {
    const original = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) {
      const value = original.call(this, name);
      if (name === "data-settings" && this.id === "vscode-workbench-web-configuration" && value) {
        const config = JSON.parse(value);
        const authority = location.host;
        config.developmentOptions = {
          ...config.developmentOptions,
          extensions: [{ scheme: "vscode-remote", authority, path: ${JSON.stringify(extensionPath)} }],
          extensionTestsPath: { scheme: "vscode-remote", authority, path: ${JSON.stringify(testsPath)} },
        };
        return JSON.stringify(config);
      }
      return value;
    };
  })();`;
}

const server = await startCodeServer({
  profile,
  env: {
    KILN_TEST_RESULTS: resultsFile,
    KILN_TEST_USER_DATA: profile.base,
    KILN_TEST_WORKSPACE: workspace,
    // A secret-named variable the extension must redact from tool results (suite/redaction.test.ts).
    KILN_TEST_SECRET_TOKEN: "vermilion-glaze-kiln-42",
    ...(process.env.KILN_TEST_GREP ? { KILN_TEST_GREP: process.env.KILN_TEST_GREP } : {}),
  },
});
const browser = await launchChromium();
let exitCode = 1;
try {
  const page = await browser.newPage();
  const exited = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the in-host suite did not finish within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    void page.exposeFunction("codeAutomationExit", (/** @type {number} */ code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  // The workbench forwards extension-host console output as (level, args).
  await page.exposeFunction("codeAutomationLog", (/** @type {string} */ level, /** @type {unknown[]} */ args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    process.stdout.write(`${level === "error" ? "[host error] " : ""}${text.replace(/\n$/, "")}\n`);
  });
  page.on("pageerror", (err) => console.error(`[page error] ${err instanceof Error ? err.message : String(err)}`));
  await page.evaluateOnNewDocument(developmentModeScript(root, suitePath));
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
  exitCode = /** @type {number} */ (await exited);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
} finally {
  await browser.close();
  await server.stop();
}
const counts = readFileSync(resultsFile, "utf8");
console.log(`in-host suite exit code ${exitCode}; results ${counts || "(none)"}`);
process.exit(exitCode === 0 ? 0 : 1);
