import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { createInterface } from "node:readline";
import type { Frame } from "puppeteer-core";
import { afterEach, expect, it } from "vitest";
import { cleanEnv, freePort, root } from "../../scripts/lib/codeServer.mjs";
import { FakeModelServer } from "../fixtures/fakeModelServer";
import { openInChromium, openKilnView, resultsDir, sendTask, type Workbench } from "./workbench";

let start: ChildProcess | undefined;
let workbench: Workbench | undefined;
let model: FakeModelServer | undefined;

afterEach(async () => {
  await workbench?.close();
  await model?.close();
  if (start && start.exitCode === null) {
    const exited = new Promise((resolve) => start!.once("exit", resolve));
    start.kill("SIGINT");
    await exited;
  }
  workbench = model = start = undefined;
});

/** Runs the start script as the README does (the test run has just packaged the vsix). Output: stdout and stderr. */
async function runStart(env: Record<string, string>): Promise<{ url: string; output: string }> {
  start = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: cleanEnv({ KILN_START_SKIP_BUILD: "1", KILN_PORT: String(await freePort()), KILN_DEV_DIR: mkdtempSync(join(tmpdir(), "kiln-start-")), ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  createInterface({ input: start.stderr! }).on("line", (line) => {
    process.stderr.write(`${line}\n`);
    output.push(line);
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: start!.stdout! }).on("line", (line) => {
      output.push(line);
      const match = /Kiln is running in VS Code \(code-server\) at (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    start!.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output.join("\n")}`)));
  });
  return { url, output: output.join("\n") };
}

/** A normal start prints nothing that reads like a failure. Paths and URLs (a temp folder's random name) are left out. */
function alarmingLines(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.replace(/(?:[a-z]+:\/\/|\/)\S*/gi, "<path>"))
    .filter((line) => /warn|error|fail|denied|deprecat/i.test(line));
}

function finalReply(frame: Frame, contains: string): Promise<string> {
  return frame
    .waitForFunction(
      (needle) => {
        const all = [...document.querySelectorAll('[data-testid="message-assistant"]')] as HTMLElement[];
        const found = all.find((e) => e.dataset.partial === "false" && e.innerText.includes(needle));
        return found ? found.innerText : false;
      },
      { timeout: 60_000 },
      contains,
    )
    .then((handle) => handle.jsonValue() as Promise<string>);
}

it("the start command with no API key opens a VS Code whose Kiln view answers from the fake model server", async () => {
  const { url, output } = await runStart({});
  expect(output).toMatch(/FAKE model server/);
  expect(alarmingLines(output)).toEqual([]);
  // The sample workspace is a copy of the fixture outside the clone: VS Code sees no parent git repository.
  const workspace = /sample workspace: (\S+)/.exec(output)?.[1];
  expect(workspace).toBeDefined();
  const fromRoot = relative(root, workspace!);
  expect(fromRoot === ".." || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)).toBe(true);
  expect(existsSync(join(workspace!, "src", "greet.ts"))).toBe(true);
  expect(new URL(url).searchParams.get("folder")).toBe(workspace);
  workbench = await openInChromium(url);
  const frame = await openKilnView(workbench.page);
  await sendTask(frame, "Are you there?");
  expect(await finalReply(frame, "Are you there?")).toMatch(/fake model server/);
  // The demo goes on by itself: it lists the workspace (a read, approved by default) and completes.
  await frame.waitForSelector('[data-testid="message-completion"]', { timeout: 60_000 });
  expect(await frame.$eval('[data-testid="message-tool"]', (e) => (e as HTMLElement).dataset.status)).toBe("done");
  await workbench.page.screenshot({ path: join(resultsDir, "e2e-start.png") });
});

it("the start command with ANTHROPIC_API_KEY configures Kiln for Anthropic with that key", async () => {
  const key = "sk-ant-e2e-key";
  model = await new FakeModelServer({ apiKey: key }).start();
  const { url, output } = await runStart({ ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
  expect(output).toMatch(/configured for Anthropic/);
  expect(alarmingLines(output)).toEqual([]);
  expect(output).not.toContain(key);
  workbench = await openInChromium(url);
  const frame = await openKilnView(workbench.page);
  model.enqueue({ text: "Hello from the Anthropic protocol.\n<attempt_completion>\n<result>Done.</result>\n</attempt_completion>" });
  await sendTask(frame, "Which API is this?");
  await finalReply(frame, "Hello from the Anthropic protocol.");
  const request = model.requests.at(-1)!;
  expect(request.protocol).toBe("anthropic");
  expect(request.body.model).toBe("claude-sonnet-5-5");
});
