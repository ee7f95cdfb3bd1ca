import { generateKeyPairSync } from "node:crypto";
import { redactSecrets } from "../../src/core/llm/redact";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { DEFAULT_STREAM_TIMEOUTS } from "../../src/core/llm/requestWatch";
import type { LlmRequest, NativeTool, ResolvedProviderConfig, StreamEvent } from "../../src/core/llm/types";
import { VertexProvider } from "../../src/core/llm/vertex";
import { FakeVertexServer } from "../fixtures/fakeVertexServer";
import { translated, useEnglish, usePseudoLocale } from "../unit/pseudoL10n";

const ACCESS_TOKEN = "ya29.fake-vertex-access-token";
const CLAUDE = "claude-sonnet-4-5@20250929";
const GEMINI = "gemini-2.5-pro";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let server: FakeVertexServer;
let dir: string;
let keyFile: string;
/** A key file whose token_uri leads to the fake, but signed with another key: the token endpoint refuses it. */
let wrongKeyFile: string;
/** The env variables a test changed, with their values before. */
const savedEnv = new Map<string, string | undefined>();

function setEnv(name: string, value: string | undefined): void {
  if (!savedEnv.has(name)) savedEnv.set(name, process.env[name]);
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function serviceAccount(pem: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: "service_account",
    project_id: "proj-from-key",
    private_key_id: "key-1",
    private_key: pem,
    client_email: "kiln@proj-from-key.iam.gserviceaccount.com",
    client_id: "1234567890",
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: server.tokenUri,
    ...extra,
  });
}

beforeAll(async () => {
  server = await new FakeVertexServer({ publicKey, accessToken: ACCESS_TOKEN }).start();
  dir = mkdtempSync(join(tmpdir(), "kiln-vertex-"));
  keyFile = join(dir, "sa.json");
  writeFileSync(keyFile, serviceAccount(PRIVATE_PEM));
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  wrongKeyFile = join(dir, "wrong.json");
  writeFileSync(wrongKeyFile, serviceAccount(other));
});
beforeEach(() => {
  // The machine's own Google Cloud settings must not decide where a test's requests go.
  for (const name of ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_VERTEX_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL"]) setEnv(name, undefined);
});
afterEach(() => {
  server.reset();
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  savedEnv.clear();
  useEnglish();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function vertex(settings: Partial<ResolvedProviderConfig> = {}): VertexProvider {
  return new VertexProvider({
    kind: "vertex",
    apiKey: undefined,
    model: CLAUDE,
    baseUrl: server.baseUrl,
    timeouts: DEFAULT_STREAM_TIMEOUTS,
    project: "proj-from-profile",
    keyFile,
    ...settings,
  });
}

async function collect(provider: VertexProvider, request: Partial<LlmRequest> = {}): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of provider.stream({ system: "sys", messages: [{ role: "user", content: "hello" }], ...request })) out.push(event);
  return out;
}

async function failure(provider: VertexProvider, request: Partial<LlmRequest> = {}): Promise<unknown> {
  try {
    await collect(provider, request);
  } catch (err) {
    return err;
  }
  throw new Error("expected the stream to fail");
}

function texts(events: StreamEvent[]): string {
  return events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const READ_FILE: NativeTool = { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };

describe("Vertex AI provider over real HTTP streaming", () => {
  it("streams Claude's text and tool call from streamRawPredict, authorized by the key file's token", async () => {
    server.claude.enqueue({ text: "Reading it now.", toolCalls: [{ id: "toolu_1", name: "read_file", arguments: { path: "a.ts" } }], usage: { input: 40, output: 12 } });
    const events = await collect(vertex(), { tools: [READ_FILE] });

    expect(texts(events)).toBe("Reading it now.");
    const calls = events.filter((e) => e.type === "tool_call_delta");
    expect(calls[0]).toMatchObject({ id: "toolu_1", name: "read_file" });
    expect(JSON.parse(calls.map((c) => c.argsDelta).join(""))).toEqual({ path: "a.ts" });
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 40, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 }]);

    const request = server.requests.at(-1)!;
    expect(request).toMatchObject({ family: "claude", apiVersion: "v1", project: "proj-from-profile", location: "us-east5", model: CLAUDE });
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.headers["x-api-key"]).toBeUndefined();
    // The token is a key for its hour: a server or a tool that echoes it shows [redacted].
    expect(redactSecrets(`echoed Authorization: Bearer ${ACCESS_TOKEN}`)).not.toContain(ACCESS_TOKEN);
    // Vertex takes the model from the URL and the API version from the body.
    expect(request.body).not.toHaveProperty("model");
    expect(request.body.anthropic_version).toBe("vertex-2023-10-16");
    expect(request.body.tools).toEqual([expect.objectContaining({ name: "read_file" })]);
    // The token came from the key file's token_uri, for a JWT signed with its private key.
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.tokenRequests[0]).toMatchObject({
      grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      signatureValid: true,
      claims: { iss: "kiln@proj-from-key.iam.gserviceaccount.com", aud: server.tokenUri, scope: "https://www.googleapis.com/auth/cloud-platform" },
    });
  });

  it("reuses the token for the next request until it runs out", async () => {
    const provider = vertex();
    server.claude.enqueue({ text: "one" }, { text: "two" });
    expect(texts(await collect(provider))).toBe("one");
    expect(texts(await collect(provider))).toBe("two");
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${ACCESS_TOKEN}`, `Bearer ${ACCESS_TOKEN}`]);
  });

  it("streams Gemini's text from streamGenerateContent under the project and location", async () => {
    server.gemini.enqueue({ text: "Gemini on Vertex answers.", usage: { prompt: 20, candidates: 6 } });
    const events = await collect(vertex({ model: GEMINI, region: "europe-west4" }));

    expect(texts(events)).toBe("Gemini on Vertex answers.");
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 20, outputTokens: 6, cacheReadTokens: 0 }]);
    const request = server.requests.at(-1)!;
    expect(request).toMatchObject({ family: "gemini", apiVersion: "v1beta1", project: "proj-from-profile", location: "europe-west4", model: GEMINI });
    expect(request.query.get("alt")).toBe("sse");
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.headers["x-goog-api-key"]).toBeUndefined();
    expect(request.body.systemInstruction).toMatchObject({ parts: [{ text: "sys" }] });
  });

  it("takes the project and location from the environment when the profile has none, and the project from the key file last", async () => {
    setEnv("GOOGLE_CLOUD_PROJECT", "proj-from-env");
    setEnv("GOOGLE_CLOUD_LOCATION", "us-central1");
    server.gemini.enqueue({ text: "env" });
    await collect(vertex({ model: GEMINI, project: undefined }));
    expect(server.requests.at(-1)).toMatchObject({ project: "proj-from-env", location: "us-central1" });

    // The profile's settings win over the environment.
    server.claude.enqueue({ text: "profile" });
    await collect(vertex({ project: "proj-from-profile", region: "europe-west1" }));
    expect(server.requests.at(-1)).toMatchObject({ project: "proj-from-profile", location: "europe-west1" });

    setEnv("GOOGLE_CLOUD_PROJECT", undefined);
    setEnv("GOOGLE_CLOUD_LOCATION", undefined);
    server.gemini.enqueue({ text: "key" });
    await collect(vertex({ model: GEMINI, project: undefined }));
    // Gemini's default location is the global endpoint.
    expect(server.requests.at(-1)).toMatchObject({ project: "proj-from-key", location: "global" });
  });

  it("without a key file or Application Default Credentials, says to log in with gcloud", async () => {
    const home = mkdtempSync(join(tmpdir(), "kiln-vertex-home-"));
    try {
      setEnv("GOOGLE_APPLICATION_CREDENTIALS", undefined);
      setEnv("HOME", home);
      setEnv("USERPROFILE", home);
      setEnv("APPDATA", home);
      setEnv("CLOUDSDK_CONFIG", join(home, "gcloud"));
      // No metadata server here: the lookup must fail at once, not wait on the network.
      setEnv("METADATA_SERVER_DETECTION", "none");
      setEnv("GCE_METADATA_HOST", `127.0.0.1:${await closedPort()}`);
      usePseudoLocale();
      const err = await failure(vertex({ keyFile: undefined }));
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).kind).toBe("no_key");
      expect((err as ProviderError).message).toContain("gcloud auth application-default login");
      expect(translated((err as ProviderError).message)).toBe(true);
      expect(server.requests).toHaveLength(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("names a key file that is missing or not JSON, without repeating what is in it", async () => {
    const missing = join(dir, "nowhere.json");
    const missingErr = (await failure(vertex({ keyFile: missing }))) as ProviderError;
    expect(missingErr).toBeInstanceOf(ProviderError);
    expect(missingErr.kind).toBe("config");
    expect(missingErr.message).toContain(missing);

    const notJson = join(dir, "key.pem");
    writeFileSync(notJson, PRIVATE_PEM);
    const notJsonErr = (await failure(vertex({ keyFile: notJson }))) as ProviderError;
    expect(notJsonErr.kind).toBe("config");
    expect(notJsonErr.message).toContain(notJson);
    expect(notJsonErr.message).not.toContain("PRIVATE KEY");
    expect(notJsonErr.message).not.toContain(PRIVATE_PEM.split("\n")[1]!.slice(0, 20));
    expect(server.requests).toHaveLength(0);
  });

  it("reports a key the token endpoint refuses as a credentials problem", async () => {
    const err = (await failure(vertex({ keyFile: wrongKeyFile }))) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe("auth");
    expect(err.message).toContain(wrongKeyFile);
    expect(err.message).toContain("invalid_grant");
    expect(server.requests).toHaveLength(0);
  });

  it("maps Vertex's 403 to no_access for both families, named Google Vertex AI", async () => {
    const denied = { status: 403, message: "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/p'.", googleStatus: "PERMISSION_DENIED" };
    server.failNext(denied);
    const claude = (await failure(vertex())) as ProviderError;
    expect(claude).toBeInstanceOf(ProviderError);
    expect(claude.kind).toBe("no_access");
    expect(claude.message).toContain("Google Vertex AI");
    expect(claude.message).toContain("aiplatform.endpoints.predict");

    server.failNext(denied);
    const gemini = (await failure(vertex({ model: GEMINI }))) as ProviderError;
    expect(gemini.kind).toBe("no_access");
    expect(gemini.message).toContain("Google Vertex AI");
  });

  it("says a token the model's endpoint refuses is a credentials problem, not an API key to set", async () => {
    server.failNext({ status: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token.", googleStatus: "UNAUTHENTICATED" });
    const refused = (await failure(vertex())) as ProviderError;
    expect(refused.kind).toBe("auth");
    expect(refused.message).toContain("refused the token of the key file");
    expect(refused.message).toContain("invalid authentication credentials");
    expect(refused.message).not.toContain("Set API Key");
  });

  it("ends with CancelledError when cancelled mid-stream", async () => {
    server.claude.enqueue({ chunks: Array.from({ length: 200 }, (_, i) => `word${i} `), chunkDelayMs: 20 });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of vertex().stream({ system: "sys", messages: [{ role: "user", content: "hello" }], signal: controller.signal })) {
        events.push(event);
        if (events.length === 3) controller.abort();
      }
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CancelledError);
    expect(texts(events).startsWith("word0 word1 word2")).toBe(true);
    expect(texts(events)).not.toContain("word199");
  });

  it("puts its messages through l10n", async () => {
    usePseudoLocale();
    server.failNext({ status: 403, message: "denied", googleStatus: "PERMISSION_DENIED" });
    const denied = (await failure(vertex())) as ProviderError;
    const badFile = (await failure(vertex({ keyFile: join(dir, "nowhere.json") }))) as ProviderError;
    const refused = (await failure(vertex({ keyFile: wrongKeyFile }))) as ProviderError;
    for (const err of [denied, badFile, refused]) expect(translated(err.message), err.message).toBe(true);
  });

  it("lists the known Claude and Gemini models on Vertex", async () => {
    const ids = (await vertex().listModels()).map((m) => m.id);
    expect(ids).toContain(CLAUDE);
    expect(ids).toContain(GEMINI);
  });
});
