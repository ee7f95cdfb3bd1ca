import type { Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isImage, servePage } from "../fixtures/browserPage";
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from "../fixtures/fakeModelServer";
import { buildCli, runCli, type CliRun } from "./cliProcess";

let model: FakeModelServer;
let page: { server: Server; url: string };
let cli: string;

beforeAll(async () => {
  cli = await buildCli();
  model = await new FakeModelServer().start();
  page = await servePage();
});
afterAll(async () => {
  await model.close();
  // A browser that is still connected (a failed test) must not hold the suite open.
  page.server.closeAllConnections();
  await new Promise<void>((resolve) => page.server.close(() => resolve()));
});

function kiln(kind: "anthropic" | "openai", args: string[]): Promise<CliRun> {
  const baseUrl = kind === "anthropic" ? model.anthropicBaseUrl : model.openaiBaseUrl;
  const env = { [kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-browser" };
  const workspace = mkdtempSync(join(tmpdir(), "kiln-browser-ws-"));
  return runCli(cli, ["run", "--provider", kind, "--base-url", baseUrl, "--workspace", workspace, ...args], env);
}

function step(protocol: "xml" | "native", args: Record<string, string>, name = "browser_action"): ScriptedTurn {
  if (protocol === "native") return { toolCalls: [{ id: `call_${Math.random().toString(36).slice(2, 9)}`, name, arguments: args }] };
  return {
    text: `<${name}>\n${Object.entries(args)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join("\n")}\n</${name}>`,
  };
}

const sent = (request: RecordedRequest): string => JSON.stringify(request.body.messages);

/** The base64 screenshots in a request, in either provider's shape. */
function screenshots(request: RecordedRequest): string[] {
  const text = sent(request);
  const found = [...text.matchAll(/"media_type":"image\/webp","data":"([A-Za-z0-9+/=]+)"/g), ...text.matchAll(/data:image\/webp;base64,([A-Za-z0-9+/=]+)/g)];
  return found.map((m) => m[1]!);
}

describe("kiln run with browser_action", () => {
  it.each([
    ["anthropic", "native"],
    ["openai", "xml"],
  ] as const)("%s/%s: launches the page, clicks, closes and completes; the model sees the screenshot", async (kind, protocol) => {
    const before = model.requests.length;
    model.enqueue(
      step(protocol, { action: "launch", url: page.url }),
      step(protocol, { action: "click", coordinate: "120,50" }),
      step(protocol, { action: "close" }),
      step(protocol, { result: "The button works." }, "attempt_completion"),
    );
    // The fixture page is on 127.0.0.1: opening a local address needs the flag (or a person to ask).
    const result = await kiln(kind, ["--protocol", protocol, "--approve", "read,browser", "--allow-private-urls", "Check the button"]);
    expect(result.stderr).not.toMatch(/kiln: /);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ The button works.");
    const requests = model.requests.slice(before);
    expect(requests).toHaveLength(4);
    expect(sent(requests[1]!)).toContain(`Opened ${page.url}.`);
    expect(sent(requests[1]!)).toContain("[log] page loaded");
    expect(sent(requests[2]!)).toContain("[log] button clicked");
    expect(sent(requests[3]!)).toContain("Closed the browser.");
    const seen = screenshots(requests[1]!);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(isImage(seen[0]!)).toBe(true);
    // Each later request carries the screenshot of the click too.
    expect(screenshots(requests[2]!).length).toBeGreaterThan(seen.length);
  });

  it("asks before opening a page when browser is not auto-approved, and a no without a terminal opens nothing", async () => {
    const before = model.requests.length;
    model.enqueue(step("xml", { action: "launch", url: page.url }), step("xml", { result: "Not allowed." }, "attempt_completion"));
    const result = await kiln("openai", ["--protocol", "xml", "--approve", "read", "Check the page"]);
    expect(result.code).toBe(0);
    expect(sent(model.requests[before + 1]!)).toContain("The user denied browser_action");
    expect(screenshots(model.requests[before + 1]!)).toEqual([]);
  });

  // Needs Task.dispose() to call toolbox.dispose(); until then the open browser keeps the CLI alive.
  it("ends with the task even when the model leaves the browser open", async () => {
    model.enqueue(step("xml", { action: "launch", url: page.url }), step("xml", { result: "Left it open." }, "attempt_completion"));
    const started = Date.now();
    const result = await kiln("anthropic", ["--protocol", "xml", "--approve", "browser", "--allow-private-urls", "Look"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ Left it open.");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("does not open a local address with the browser auto-approved but no --allow-private-urls: there is no one to ask", async () => {
    const before = model.requests.length;
    model.enqueue(step("xml", { action: "launch", url: page.url }), step("xml", { result: "Could not open it." }, "attempt_completion"));
    const result = await kiln("openai", ["--protocol", "xml", "--approve", "read,browser", "Check the page"]);
    expect(result.stderr).not.toMatch(/\[Kiln used the browser[^\]]*: done\]/);
    const toModel = sent(model.requests[before + 1]!);
    expect(toModel).toContain("loopback or private address");
    expect(screenshots(model.requests[before + 1]!)).toEqual([]);
  });
});
