import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConnection, listModels } from "../../src/core/llm/connectionCheck";
import type { ProviderConfig, ProviderKind } from "../../src/core/llm/types";
import { FakeModelServer } from "../fixtures/fakeModelServer";

const KEY = "sk-welcome-123";
const MODELS = ["fake-small", "fake-large", "fake-large"];
let server: FakeModelServer;
/** Answers 404 to everything, as a web server at the wrong path does. */
let notAnApi: http.Server;
let notAnApiUrl: string;
/** A port nothing listens on: taken, then given back. */
let closedUrl: string;

beforeAll(async () => {
  server = await new FakeModelServer({ apiKey: KEY, models: MODELS, fallback: () => ({ text: "OK" }) }).start();
  notAnApi = http.createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
  await new Promise<void>((resolve) => notAnApi.listen(0, "127.0.0.1", resolve));
  notAnApiUrl = `http://127.0.0.1:${(notAnApi.address() as AddressInfo).port}/api`;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => notAnApi.close(resolve));
});

function config(kind: ProviderKind, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return { kind, baseUrl: kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl, model: "fake-large", apiKey: KEY, ...overrides };
}

describe.each(["anthropic", "openai", "openai-compatible"] as const)("%s: Test connection over real HTTP", (kind) => {
  it("says the connection works, naming the model, after one tiny request", async () => {
    const before = server.requests.length;
    let clock = 1_000;
    const result = await checkConnection(config(kind), { now: () => (clock += 250) });
    expect(result).toEqual({ ok: true, model: "fake-large", ms: 250 });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    const body = sent[0]!.body;
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(16);
  });

  it("points at the key when the provider refuses it", async () => {
    const result = await checkConnection(config(kind, { apiKey: "sk-wrong" }));
    expect(result).toMatchObject({ ok: false, problem: "key" });
    expect(result.ok || result.message).toMatch(/refused the key \(HTTP 401\)/);
    // The provider's words stay available, the wrong key never in them.
    expect(result.ok || result.detail).toMatch(/invalid x-api-key/);
    expect(JSON.stringify(result)).not.toContain("sk-wrong");
  });

  it("points at the model when the provider has no such model", async () => {
    const result = await checkConnection(config(kind, { model: "fake-missing" }));
    expect(result).toMatchObject({ ok: false, problem: "model" });
    expect(result.ok || result.message).toContain('no model "fake-missing"');
  });

  it("points at the URL when nothing listens there", async () => {
    const result = await checkConnection(config(kind, { baseUrl: closedUrl }));
    expect(result).toMatchObject({ ok: false, problem: "url" });
    expect(result.ok || result.message).toBe(`Nothing is listening at ${closedUrl}. Is the server running, and is the port right?`);
  });

  it("points at the URL when a web server without the API answers 404", async () => {
    const result = await checkConnection(config(kind, { baseUrl: notAnApiUrl }));
    expect(result).toMatchObject({ ok: false, problem: "url" });
    expect(result.ok || result.message).toMatch(/Nothing answers at .*\(HTTP 404\)/);
  });

  it("says there was no answer when the provider stalls past the deadline", async () => {
    server.enqueue({ text: "OK", fault: { type: "stall" } });
    const result = await checkConnection(config(kind), { timeoutMs: 500 });
    expect(result).toMatchObject({ ok: false, problem: "network" });
    expect(result.ok || result.message).toMatch(/^No answer from .* within 1 s\. Check the URL and the network\.$/);
  });

  it("lists the provider's models, sorted and each once, before any model is picked", async () => {
    expect(await listModels(config(kind, { model: "" }))).toEqual({ ok: true, models: ["fake-large", "fake-small"] });
  });

  it("says a list it could not get was refused for the key", async () => {
    expect(await listModels(config(kind, { apiKey: "sk-wrong" }))).toMatchObject({ ok: false, problem: "key" });
  });
});

describe("Test connection before anything is sent", () => {
  it("asks for a key when a hosted provider has none, naming the environment variable", async () => {
    const before = server.requests.length;
    const result = await checkConnection(config("anthropic", { apiKey: undefined }));
    expect(result).toMatchObject({ ok: false, problem: "key" });
    expect(result.ok || result.message).toContain("ANTHROPIC_API_KEY");
    expect(server.requests.length).toBe(before);
  });

  it("asks for a base URL when an OpenAI-compatible server has none", async () => {
    const result = await checkConnection(config("openai-compatible", { baseUrl: "" }));
    expect(result).toMatchObject({ ok: false, problem: "url" });
  });

  it("asks for a model id when an OpenAI-compatible server has none", async () => {
    const result = await checkConnection(config("openai-compatible", { model: "" }));
    expect(result).toMatchObject({ ok: false, problem: "model" });
  });

  it("says a server without a models list needs the id typed in", async () => {
    const result = await listModels(config("openai-compatible", { baseUrl: notAnApiUrl }));
    expect(result).toMatchObject({ ok: false, problem: "other" });
    expect(result.ok || result.message).toMatch(/does not list its models; type the model id/);
  });
});
