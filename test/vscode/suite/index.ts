import { writeFileSync } from "node:fs";
import Mocha from "mocha";

/** Entry the extension host calls in tests mode; runs the suites with mocha and reports counts. */
export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000, color: false, reporter: "spec" });
  // KILN_TEST_GREP runs the matching tests only (a quicker loop while working on one part).
  if (process.env.KILN_TEST_GREP) mocha.grep(process.env.KILN_TEST_GREP);
  mocha.suite.emit("pre-require", globalThis, "kiln-host-tests", mocha);
  // Required after pre-require so describe/it exist; esbuild bundles these lazily.
  require("./activation.test");
  require("./chat.test");
  require("./agent.test");
  require("./secrets.test");
  require("./redaction.test");
  require("./terminal.test");
  require("./sandbox.test");
  require("./queue.test");
  require("./diffReview.test");
  require("./fileBytes.test");
  require("./staleEdits.test");
  require("./taskReview.test");
  require("./mcp.test");
  require("./mcpView.test");
  require("./mcpRequests.test");
  require("./mcpTrust.test");
  require("./history.test");
  require("./checkpoints.test");
  require("./profiles.test");
  require("./chatModelPicker.test");
  require("./providerFamilies.test");
  require("./modes.test");
  require("./approve.test");
  require("./settingsEdit.test");
  require("./settingsOptions.test");
  require("./rules.test");
  require("./skills.test");
  require("./agentImport.test");
  require("./profileImport.test");
  require("./mentions.test");
  require("./editorActions.test");
  require("./cardLinks.test");
  require("./budget.test");
  require("./workspace.test");
  require("./welcome.test");
  require("./notifications.test");
  require("./codeIndex.test");
  require("./teamIndex.test");
  require("./languageServices.test");
  const counts = { passed: 0, failed: 0, failures: [] as string[] };
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on("pass", () => counts.passed++);
    runner.on("fail", (test, err: Error) => {
      counts.failed++;
      counts.failures.push(`${test.fullTitle()}: ${err.message}`);
    });
  });
  if (process.env.KILN_TEST_RESULTS) writeFileSync(process.env.KILN_TEST_RESULTS, JSON.stringify(counts));
  if (counts.failed > 0) throw new Error(`${counts.failed} in-host test(s) failed`);
}
