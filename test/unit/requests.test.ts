import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Logger } from "../../src/core/ports";
import { RequestRouter } from "../../src/hosts/vscode/requestRouter";
import { CHAT_REQUESTS, parseWebviewMessage } from "../../src/shared/protocol/messages";
import { method, RequestError, type RequestEnvelope, type ResponseEnvelope } from "../../src/shared/protocol/requests";
import { parseSettingsMessage } from "../../src/shared/protocol/settings";
import { createRequester } from "../../webview-ui/src/request";

/** A page's request map, small enough to read in a test. */
const TEST_REQUESTS = {
  "test/echo": method<{ text: string }>()(z.object({ text: z.string().max(10) }).strict()),
  "test/save": method<{ message: string }>()(z.object({ name: z.string() }).strict()),
};
type TestRequests = typeof TEST_REQUESTS;

function logger() {
  const lines: string[] = [];
  const log: Logger = { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
  return { log, lines };
}

function page(timeoutMs?: number) {
  const sent: RequestEnvelope[] = [];
  const requester = createRequester<TestRequests>((request) => sent.push(request), timeoutMs);
  return { sent, requester };
}

describe("the page's request helper", () => {
  afterEach(() => vi.useRealTimers());

  it("sends an envelope with a fresh id, and a response resolves the request with that id only", async () => {
    const { sent, requester } = page();
    const first = requester.request("test/echo", { text: "one" });
    const second = requester.request("test/echo", { text: "two" });
    expect(sent).toEqual([
      { type: "request", id: 1, method: "test/echo", params: { text: "one" } },
      { type: "request", id: 2, method: "test/echo", params: { text: "two" } },
    ]);
    expect(requester.receive({ type: "response", id: 2, ok: true, result: { text: "TWO" } })).toBe(true);
    await expect(second).resolves.toEqual({ text: "TWO" });
    expect(requester.pending).toBe(1);
    requester.receive({ type: "response", id: 1, ok: true, result: { text: "ONE" } });
    await expect(first).resolves.toEqual({ text: "ONE" });
    expect(requester.pending).toBe(0);
  });

  it("an error response rejects with the host's message and field", async () => {
    const { sent, requester } = page();
    const saving = requester.request("test/save", { name: "x" });
    requester.receive({ type: "response", id: sent[0]!.id, ok: false, error: { message: "a profile named x already exists", field: "name" } });
    const error = await saving.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ message: "a profile named x already exists", field: "name" });
    expect(requester.pending).toBe(0);
  });

  it("ignores a response with an unknown id, a malformed one, and other messages", async () => {
    const { sent, requester } = page();
    const echo = requester.request("test/echo", { text: "a" });
    expect(requester.receive({ type: "response", id: 99, ok: true, result: { text: "stray" } })).toBe(true);
    expect(requester.receive({ type: "response", id: sent[0]!.id, ok: "yes" })).toBe(true);
    expect(requester.receive({ type: "chat/busy", busy: true })).toBe(false);
    expect(requester.receive(null)).toBe(false);
    expect(requester.pending).toBe(1);
    requester.receive({ type: "response", id: sent[0]!.id, ok: true, result: { text: "A" } });
    await expect(echo).resolves.toEqual({ text: "A" });
    // A second answer to a request already answered changes nothing.
    expect(requester.receive({ type: "response", id: sent[0]!.id, ok: false, error: { message: "late" } })).toBe(true);
  });

  it("a request the host never answers rejects at the timeout and leaves nothing pending", async () => {
    vi.useFakeTimers();
    const { sent, requester } = page(1_000);
    const echo = requester.request("test/echo", { text: "a" });
    const outcome = echo.catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(999);
    expect(requester.pending).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ name: "RequestError", message: expect.stringMatching(/did not answer \(test\/echo\)/) });
    expect(requester.pending).toBe(0);
    // The host's late answer finds nobody waiting.
    expect(requester.receive({ type: "response", id: sent[0]!.id, ok: true, result: { text: "late" } })).toBe(true);
  });
});

describe("the host's request router", () => {
  function router() {
    const responses: ResponseEnvelope[] = [];
    const { log, lines } = logger();
    const requests = new RequestRouter(TEST_REQUESTS, (response) => responses.push(response), log, "test page");
    return { requests, responses, lines };
  }

  it("calls the method's handler with the checked params and posts its result", async () => {
    const { requests, responses } = router();
    const echo = vi.fn(({ text }: { text: string }) => ({ text: text.toUpperCase() }));
    requests.onRequest("test/echo", echo);
    await requests.handle({ type: "request", id: 7, method: "test/echo", params: { text: "hi" } });
    expect(echo).toHaveBeenCalledWith({ text: "hi" });
    expect(responses).toEqual([{ type: "response", id: 7, ok: true, result: { text: "HI" } }]);
  });

  it("invalid params never reach the handler and are answered with an error", async () => {
    const { requests, responses, lines } = router();
    const echo = vi.fn(() => ({ text: "" }));
    requests.onRequest("test/echo", echo);
    await requests.handle({ type: "request", id: 1, method: "test/echo", params: { text: "far too long for it" } });
    await requests.handle({ type: "request", id: 2, method: "test/echo", params: { text: "ok", extra: 1 } });
    await requests.handle({ type: "request", id: 3, method: "test/echo", params: "text" });
    expect(echo).not.toHaveBeenCalled();
    expect(responses.map((r) => [r.id, r.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(responses[0]).toMatchObject({ error: { message: expect.stringMatching(/^invalid test\/echo params: .* at text$/) } });
    expect(lines.filter((l) => l.startsWith("warn test page: refused invalid test/echo params"))).toHaveLength(3);
  });

  it("a refusal keeps its field; another failure is logged and answered with its message", async () => {
    const { requests, responses, lines } = router();
    let fail: Error = new RequestError("a profile named x already exists", "name");
    requests.onRequest("test/save", () => {
      throw fail;
    });
    await requests.handle({ type: "request", id: 1, method: "test/save", params: { name: "x" } });
    fail = new Error("disk full");
    await requests.handle({ type: "request", id: 2, method: "test/save", params: { name: "x" } });
    expect(responses).toEqual([
      { type: "response", id: 1, ok: false, error: { message: "a profile named x already exists", field: "name" } },
      { type: "response", id: 2, ok: false, error: { message: "disk full" } },
    ]);
    expect(lines).toEqual(["error test page: test/save failed: disk full"]);
  });

  it("a method with no handler, or not in the map, is answered with an error", async () => {
    const { requests, responses } = router();
    const registration = requests.onRequest("test/echo", ({ text }) => ({ text }));
    registration.dispose();
    await requests.handle({ type: "request", id: 1, method: "test/echo", params: { text: "a" } });
    await requests.handle({ type: "request", id: 2, method: "toString", params: {} });
    expect(responses.map((r) => [r.id, r.ok])).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it("the page's helper and the router speak the same envelope", async () => {
    const wire: RequestEnvelope[] = [];
    const requester = createRequester<TestRequests>((request) => wire.push(request));
    const requests = new RequestRouter(TEST_REQUESTS, (response) => requester.receive(response), logger().log, "test page");
    requests.onRequest("test/echo", ({ text }) => ({ text: `${text}!` }));
    const echo = requester.request("test/echo", { text: "hey" });
    await requests.handle(wire[0]!);
    await expect(echo).resolves.toEqual({ text: "hey!" });
  });
});

describe("the request envelope at the pages' boundaries", () => {
  it("the chat and settings pages accept a well-formed request and refuse a malformed one", () => {
    const search = { type: "request", id: 1, method: "mentions/search", params: { query: "gre" } };
    expect(parseWebviewMessage(search).ok).toBe(true);
    expect(parseSettingsMessage({ type: "request", id: 1, method: "settings/setActive", params: { name: "Local" } }).ok).toBe(true);
    expect(parseWebviewMessage({ ...search, id: -1 }).ok).toBe(false);
    expect(parseWebviewMessage({ ...search, id: 1.5 }).ok).toBe(false);
    expect(parseWebviewMessage({ ...search, extra: true }).ok).toBe(false);
    expect(parseWebviewMessage({ type: "request", id: 1, params: {} }).ok).toBe(false);
    // The old per-feature correlation is gone from the wire.
    expect(parseWebviewMessage({ type: "mentions/search", id: 1, query: "gre" }).ok).toBe(false);
    expect(Object.keys(CHAT_REQUESTS)).toContain("mcp/approve");
  });
});
