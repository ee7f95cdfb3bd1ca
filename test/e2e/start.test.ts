import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
import { cleanEnv, freePort, root } from "../../scripts/lib/codeServer.mjs";
import { openInChromium, openKilnView, resultsDir, sendTask, type Workbench } from "./workbench";

let start: ChildProcess | undefined;
let workbench: Workbench | undefined;

afterAll(async () => {
  await workbench?.close();
  if (start && start.exitCode === null) {
    const exited = new Promise((resolve) => start!.once("exit", resolve));
    start.kill("SIGINT");
    await exited;
  }
});

it("the README's start command, with no API key, opens a VS Code whose Kiln view answers", async () => {
  // The test run has just packaged the vsix; the start script's own build is the same npm script.
  start = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: cleanEnv({ KILN_START_SKIP_BUILD: "1", KILN_PORT: String(await freePort()), KILN_DEV_DIR: mkdtempSync(join(tmpdir(), "kiln-start-")) }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: start!.stdout! }).on("line", (line) => {
      output.push(line);
      const match = /Kiln is running in VS Code \(code-server\) at (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    start!.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output.join("\n")}`)));
  });
  expect(output.join("\n")).toMatch(/FAKE model server/);
  workbench = await openInChromium(url);
  const frame = await openKilnView(workbench.page);
  await sendTask(frame, "Are you there?");
  await frame.waitForFunction(
    () => {
      const all = document.querySelectorAll('[data-testid="message-assistant"]');
      const last = all[all.length - 1] as HTMLElement | undefined;
      return last?.dataset.partial === "false" && last.innerText.includes("Are you there?");
    },
    { timeout: 60_000 },
  );
  const reply = await frame.evaluate(() => (document.querySelector('[data-testid="message-assistant"]') as HTMLElement).innerText);
  expect(reply).toMatch(/fake model server/);
  await workbench.page.screenshot({ path: join(resultsDir, "e2e-start.png") });
});
