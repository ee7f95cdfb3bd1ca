import { join } from "node:path";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer } from "../fixtures/fakeModelServer";
import { openKilnWithFakeModel, resultsDir, sendTask, shootSidebar, useColorTheme, type Workbench } from "./workbench";

let server: FakeModelServer;
let workbench: Workbench;
let frame: Frame;

beforeAll(async () => {
  ({ server, workbench, frame } = await openKilnWithFakeModel("fake-commands", {
    "kiln.autoApprove": ["read", "command"],
    "kiln.autoApproveAllowedCommands": ["echo", "sleep"],
  }));
});

afterAll(async () => {
  await workbench?.close();
  await server?.close();
});

const execute = (command: string) => ({ text: `<execute_command>\n<command>${command}</command>\n</execute_command>` });
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

/** What the model was sent last: the result of the command. */
const lastMessage = (body: { messages?: unknown } | undefined) => JSON.stringify((body?.messages as unknown[] | undefined)?.at(-1));
const sentLast = () => lastMessage(server.requests.at(-1)?.body);

/** The running command's card once its output shows `text` and its buttons are up. */
async function runningCard(text: string): Promise<void> {
  await frame.waitForFunction(
    (want) => {
      const card = document.querySelector('[data-testid="message-tool"][data-tool="execute_command"][data-status="running"]');
      return !!card?.querySelector('[data-testid="call-stop"]') && (card.querySelector('[data-testid="tool-live-output"]') as HTMLElement | null)?.innerText.includes(want);
    },
    { timeout: 30_000 },
    text,
  );
}

async function waitForCompletion(text: string): Promise<void> {
  await frame.waitForFunction((want) => [...document.querySelectorAll('[data-testid="message-completion"]')].some((e) => (e as HTMLElement).innerText.includes(want)), { timeout: 30_000 }, text);
}

describe("a command you can steer from its card", () => {
  it("streams its output into the card; Stop ends the command and the task goes on", async () => {
    server.enqueue(execute("echo started && sleep 60 && echo never"), complete("Stopped the slow step."));
    await sendTask(frame, "Run the slow step");
    await runningCard("started");
    const card = await frame.$eval('[data-testid="message-tool"][data-tool="execute_command"]', (c) => ({
      title: (c as HTMLElement).innerText.split("\n")[0],
      buttons: [...c.querySelectorAll(".call-controls button")].map((b) => (b as HTMLElement).innerText),
    }));
    expect(card).toEqual({ title: "Kiln is running echo started && sleep 60 && echo never running", buttons: ["Continue while running", "Stop", "Show terminal"] });
    await shootSidebar(workbench.page, "e2e-command-running.png");
    await useColorTheme(workbench.page, "Dark Modern");
    await shootSidebar(workbench.page, "e2e-command-running-dark.png");
    await useColorTheme(workbench.page, "Light Modern");

    await frame.click('[data-testid="call-stop"]');
    await waitForCompletion("Stopped the slow step.");
    expect(sentLast()).toContain("The user stopped the command");
    expect(sentLast()).not.toMatch(/Output:.*never/);
    // The card ended as done, its buttons gone, the output under it.
    const ended = await frame.$eval('[data-testid="message-tool"][data-tool="execute_command"]', (c) => ({
      status: (c as HTMLElement).dataset.status,
      buttons: c.querySelectorAll(".call-controls button").length,
    }));
    expect(ended).toEqual({ status: "done", buttons: 0 });
    await workbench.page.screenshot({ path: join(resultsDir, "e2e-command-stopped.png") });
  });

  it("Continue while running: the model goes on with the output so far, and reads the rest later", async () => {
    await frame.click('[data-testid="new-task"]');
    await frame.waitForFunction(() => document.querySelectorAll('[data-testid="message-tool"]').length === 0, { timeout: 10_000 });
    server.enqueue(execute("echo first && sleep 4 && echo second"), { text: "<read_command_output>\n<id>1</id>\n<wait>30</wait>\n</read_command_output>" }, complete("Both halves seen."));
    await sendTask(frame, "Start it and go on");
    await runningCard("first");
    await frame.click('[data-testid="call-continue"]');
    await waitForCompletion("Both halves seen.");
    const requests = server.requests.slice(-3).map((r) => lastMessage(r.body));
    expect(requests[1]).toContain("the user chose to go on without waiting for it");
    expect(requests[2]).toMatch(/New output:\\n[^"]*second/);
  });
});
