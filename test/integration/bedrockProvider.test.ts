import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BedrockProvider, controlEndpoint } from "../../src/core/llm/bedrock";
import { CancelledError, ProviderError } from "../../src/core/llm/errors";
import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from "../../src/core/llm/requestWatch";
import type { LlmMessage, LlmRequest, ResolvedProviderConfig, StreamEvent } from "../../src/core/llm/types";
import { NativeToolCallAssembler } from "../../src/core/toolcall/native/NativeToolCallAssembler";
import { FakeBedrockServer, type BedrockFault } from "../fixtures/fakeBedrockServer";
import { translated, useEnglish, usePseudoLocale } from "../unit/pseudoL10n";

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const ENV_KEY_ID = "AKIDENVIRONMENT01";
const PROFILE_KEY_ID = "AKIDPROFILE000002";
const API_KEY = "bedrock-api-key-ABSKtest";

const FOUNDATION_MODELS = [
  {
    modelArn: "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0",
    modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    modelName: "Claude Sonnet 4.5",
    providerName: "Anthropic",
    inputModalities: ["TEXT", "IMAGE"],
    outputModalities: ["TEXT"],
    responseStreamingSupported: true,
    inferenceTypesSupported: ["INFERENCE_PROFILE"],
    modelLifecycle: { status: "ACTIVE" },
  },
  {
    modelArn: "arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-micro-v1:0",
    modelId: "amazon.nova-micro-v1:0",
    modelName: "Nova Micro",
    providerName: "Amazon",
    inputModalities: ["TEXT"],
    outputModalities: ["TEXT"],
    inferenceTypesSupported: ["ON_DEMAND", "INFERENCE_PROFILE"],
    modelLifecycle: { status: "ACTIVE" },
  },
  {
    modelArn: "arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-embed-text-v2:0",
    modelId: "amazon.titan-embed-text-v2:0",
    modelName: "Titan Text Embeddings V2",
    inputModalities: ["TEXT"],
    outputModalities: ["EMBEDDING"],
    inferenceTypesSupported: ["ON_DEMAND"],
  },
  { modelId: 42, modelName: "not a model" },
  { modelId: "meta.llama3-70b-instruct-v1:0", modelName: "Llama 3 70B Instruct", outputModalities: ["TEXT"], inferenceTypesSupported: ["PROVISIONED"] },
];

const PROFILE_PAGES = [
  [
    {
      inferenceProfileName: "US Anthropic Claude Sonnet 4.5",
      inferenceProfileArn: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      inferenceProfileId: MODEL,
      status: "ACTIVE",
      type: "SYSTEM_DEFINED",
      models: [
        { modelArn: "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0" },
        { modelArn: "arn:aws:bedrock:us-west-2::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0" },
      ],
      createdAt: "2025-09-29T00:00:00Z",
      updatedAt: "2025-09-29T00:00:00Z",
    },
  ],
  [
    {
      inferenceProfileName: "US Titan Embeddings",
      inferenceProfileArn: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.titan-embed-text-v2:0",
      inferenceProfileId: "us.amazon.titan-embed-text-v2:0",
      status: "ACTIVE",
      type: "SYSTEM_DEFINED",
      models: [{ modelArn: "arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-embed-text-v2:0" }],
    },
    {
      inferenceProfileName: "US Nova Micro",
      inferenceProfileArn: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-micro-v1:0",
      inferenceProfileId: "us.amazon.nova-micro-v1:0",
      status: "ACTIVE",
      type: "SYSTEM_DEFINED",
      models: [{ modelArn: "arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-micro-v1:0" }],
    },
  ],
];

let server: FakeBedrockServer;
let home: string;
const savedEnv: Record<string, string | undefined> = {};

/** What the tests run with: keys from the environment, and nothing of this machine's own AWS setup. */
function cleanAwsEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(process.env)) if (name.startsWith("AWS_")) env[name] = undefined;
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    AWS_CONFIG_FILE: join(home, "no-config"),
    AWS_SHARED_CREDENTIALS_FILE: join(home, "no-credentials"),
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: ENV_KEY_ID,
    AWS_SECRET_ACCESS_KEY: "environment-secret",
  };
}

function setEnv(vars: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** Runs `fn` with these environment variables changed, then puts them back. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  setEnv(vars);
  try {
    return await fn();
  } finally {
    setEnv(before);
  }
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "kiln-bedrock-"));
  const env = cleanAwsEnv();
  for (const name of Object.keys(env)) savedEnv[name] = process.env[name];
  setEnv(env);
  server = await new FakeBedrockServer({
    accessKeyIds: [ENV_KEY_ID, PROFILE_KEY_ID],
    bearerTokens: [API_KEY],
    foundationModels: FOUNDATION_MODELS,
    inferenceProfilePages: PROFILE_PAGES,
  }).start();
});

afterAll(async () => {
  await server.close();
  setEnv(savedEnv);
  rmSync(home, { recursive: true, force: true });
});

afterEach(() => server.clearQueue());

function provider(overrides: Partial<ResolvedProviderConfig> = {}): BedrockProvider {
  return new BedrockProvider({ kind: "bedrock", apiKey: undefined, model: MODEL, baseUrl: server.endpoint, timeouts: DEFAULT_STREAM_TIMEOUTS, region: "us-east-1", ...overrides });
}

const HELLO: LlmMessage[] = [{ role: "user", content: "hello" }];

async function collect(p: BedrockProvider, request: Partial<LlmRequest> = {}): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of p.stream({ system: "sys", messages: HELLO, ...request })) out.push(event);
  return out;
}

/** The events that came before the failure, and the failure. */
async function failing(p: BedrockProvider, request: Partial<LlmRequest> = {}): Promise<{ events: StreamEvent[]; error: ProviderError }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of p.stream({ system: "sys", messages: HELLO, ...request })) events.push(event);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return { events, error: err as ProviderError };
  }
  throw new Error("expected the stream to fail");
}

async function failure(p: BedrockProvider, request: Partial<LlmRequest> = {}): Promise<ProviderError> {
  return (await failing(p, request)).error;
}

function texts(events: StreamEvent[], type: "text" | "reasoning" = "text"): string[] {
  return events.flatMap((e) => (e.type === type ? [e.text] : []));
}

function lastConverse() {
  const request = server.requests.filter((r) => r.modelId !== undefined).at(-1);
  if (!request) throw new Error("no converse-stream request was recorded");
  return request;
}

describe("Bedrock ConverseStream over the real SDK", () => {
  it("streams text piece by piece, with reasoning and usage that counts the cache apart", async () => {
    server.enqueue({ text: "The answer is forty two.", reasoning: "think it through", usage: { input: 12, output: 7, cacheRead: 300, cacheWrite: 40 } });
    const events = await collect(provider());
    expect(texts(events).length).toBeGreaterThan(3);
    expect(texts(events).join("")).toBe("The answer is forty two.");
    expect(texts(events, "reasoning").join("")).toBe("think it through");
    expect(events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", inputTokens: 12, outputTokens: 7, cacheReadTokens: 300, cacheWriteTokens: 40 }]);
    const request = lastConverse();
    expect(request.httpVersion).toBe("2.0");
    expect(request.path).toMatch(/^\/model\/.+\/converse-stream$/);
    expect(request.modelId).toBe(MODEL);
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDENVIRONMENT01\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
  });

  it("sends the system prompt, the token limit and the tools in Converse's shape", async () => {
    const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
    server.enqueue({ text: "ok" }, { text: "ok" });
    await collect(provider(), { maxTokens: 1234, tools: [{ name: "read_file", description: "Reads a file.", parameters: schema }] });
    const withTools = lastConverse().body;
    // Claude Sonnet 4.5 caches: a cache point after the tools, the system prompt and the user's turn.
    const point = { cachePoint: { type: "default" } };
    expect(withTools.system).toEqual([{ text: "sys" }, point]);
    expect(withTools.inferenceConfig).toEqual({ maxTokens: 1234 });
    expect(withTools.messages).toEqual([{ role: "user", content: [{ text: "hello" }, point] }]);
    expect(withTools.toolConfig).toEqual({ tools: [{ toolSpec: { name: "read_file", description: "Reads a file.", inputSchema: { json: schema } } }, point] });
    await collect(provider());
    expect(lastConverse().body).not.toHaveProperty("toolConfig");
  });

  it("plays a two-step native tool exchange: the call streamed in pieces, then its result sent back by id", async () => {
    const input = { path: "src/app.ts", start_line: 10, note: "a longer argument that arrives in several pieces" };
    server.enqueue({ text: "Reading the file.", toolUses: [{ toolUseId: "tooluse_abc123", name: "read_file", input }] });
    const first = await collect(provider());
    const deltas = first.filter((e) => e.type === "tool_call_delta");
    expect(deltas[0]).toMatchObject({ id: "tooluse_abc123", name: "read_file" });
    expect(deltas.length).toBeGreaterThan(2);
    const assembler = new NativeToolCallAssembler();
    for (const delta of deltas) assembler.add(delta);
    expect(assembler.finalize()).toEqual([expect.objectContaining({ id: "tooluse_abc123", name: "read_file", input })]);

    server.enqueue({ text: "The file exports App." });
    const second = await collect(provider(), {
      messages: [
        { role: "user", content: "what does app.ts export?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading the file." },
            { type: "tool_use", id: "tooluse_abc123", name: "read_file", input },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "tooluse_abc123", content: "export class App {}" },
            { type: "tool_result", toolUseId: "tooluse_other", content: "", isError: true },
          ],
        },
      ],
    });
    expect(texts(second).join("")).toBe("The file exports App.");
    // The last two user turns end in a cache point: the newest writes this prefix, the other reads the last request's.
    const point = { cachePoint: { type: "default" } };
    expect(lastConverse().body.messages).toEqual([
      { role: "user", content: [{ text: "what does app.ts export?" }, point] },
      { role: "assistant", content: [{ text: "Reading the file." }, { toolUse: { toolUseId: "tooluse_abc123", name: "read_file", input } }] },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tooluse_abc123", content: [{ text: "export class App {}" }], status: "success" } },
          { toolResult: { toolUseId: "tooluse_other", content: [{ text: "(no output)" }], status: "error" } },
          point,
        ],
      },
    ]);
  });

  it("sends images as their bytes with the format, in a message and in a tool result", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 8, 7]);
    server.enqueue({ text: "A small picture." });
    await collect(provider(), {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image", mediaType: "image/png", data: png.toString("base64") },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "screenshot", input: {} }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: "taken", images: [{ mediaType: "image/jpeg", data: jpeg.toString("base64") }] }] },
      ],
    });
    const messages = lastConverse().body.messages as { content: Record<string, unknown>[] }[];
    // Blobs travel base64 in the JSON body; what Bedrock decodes must be the very bytes.
    const image = messages[0]!.content[1] as { image: { format: string; source: { bytes: string } } };
    expect(image.image.format).toBe("png");
    expect(Buffer.from(image.image.source.bytes, "base64").equals(png)).toBe(true);
    const result = messages[2]!.content[0] as { toolResult: { content: { text?: string; image?: { format: string; source: { bytes: string } } }[] } };
    expect(result.toolResult.content[0]).toEqual({ text: "taken" });
    expect(result.toolResult.content[1]!.image!.format).toBe("jpeg");
    expect(Buffer.from(result.toolResult.content[1]!.image!.source.bytes, "base64").equals(jpeg)).toBe(true);
  });

  it("signs with the named profile's keys and takes its region when none is set", async () => {
    const credentials = join(home, "profile-credentials");
    const config = join(home, "profile-config");
    writeFileSync(
      credentials,
      `[default]\naws_access_key_id = AKIDDEFAULTWRONG\naws_secret_access_key = nope\n\n[kiln-test]\naws_access_key_id = ${PROFILE_KEY_ID}\naws_secret_access_key = profile-secret\n`,
    );
    writeFileSync(config, "[profile kiln-test]\nregion = eu-west-3\n");
    server.enqueue({ text: "signed by the profile" });
    const events = await withEnv({ AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_REGION: undefined, AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_CONFIG_FILE: config }, () =>
      collect(provider({ awsProfile: "kiln-test", region: undefined })),
    );
    expect(texts(events).join("")).toBe("signed by the profile");
    expect(lastConverse().accessKeyId).toBe(PROFILE_KEY_ID);
    expect(lastConverse().headers.authorization).toContain(`Credential=${PROFILE_KEY_ID}/`);
    expect(lastConverse().headers.authorization).toMatch(/\/eu-west-3\/bedrock\/aws4_request/);
  });

  it("sends a Bedrock API key as a bearer token instead of signing", async () => {
    server.enqueue({ text: "hello by key" });
    const events = await collect(provider({ apiKey: API_KEY }));
    expect(texts(events).join("")).toBe("hello by key");
    expect(lastConverse().headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("lists the inference profiles and the on-demand text models, with names and image support", async () => {
    const listed = await provider().listModels();
    expect(listed).toEqual([
      { id: MODEL, name: "US Anthropic Claude Sonnet 4.5", info: { supportsImages: true } },
      { id: "us.amazon.nova-micro-v1:0", name: "US Nova Micro", info: { supportsImages: false } },
      { id: "amazon.nova-micro-v1:0", name: "Nova Micro", info: { supportsImages: false } },
    ]);
    const foundation = server.requests.filter((r) => r.path === "/foundation-models").at(-1)!;
    expect(foundation.query.byOutputModality).toBe("TEXT");
    expect(foundation.accessKeyId).toBe(ENV_KEY_ID);
    // Both pages of inference profiles were read.
    expect(server.requests.filter((r) => r.path === "/inference-profiles").map((r) => r.query.nextToken ?? "")).toEqual(expect.arrayContaining(["", "1"]));
  });

  it("still lists the foundation models when the inference profiles cannot be listed", async () => {
    const bare = await new FakeBedrockServer({ foundationModels: FOUNDATION_MODELS, inferenceProfilesError: "AccessDeniedException" }).start();
    try {
      const listed = await provider({ baseUrl: bare.endpoint }).listModels();
      expect(listed.map((m) => m.id)).toEqual(["amazon.nova-micro-v1:0"]);
    } finally {
      await bare.close();
    }
  });

  it("lists from the control plane's host when the endpoint is Bedrock's runtime host, from the same endpoint otherwise", () => {
    expect(controlEndpoint("https://bedrock-runtime.eu-west-1.amazonaws.com")).toBe("https://bedrock.eu-west-1.amazonaws.com");
    expect(controlEndpoint("https://bedrock-runtime-fips.us-east-1.amazonaws.com/")).toBe("https://bedrock-fips.us-east-1.amazonaws.com");
    expect(controlEndpoint("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
    expect(controlEndpoint("https://proxy.example.com/bedrock-runtime")).toBe("https://proxy.example.com/bedrock-runtime");
  });

  it("reports a listing refused for bad credentials as an auth error", async () => {
    const err = await withEnv({ AWS_ACCESS_KEY_ID: "AKIDUNKNOWN0000000" }, () =>
      provider()
        .listModels()
        .then(
          () => undefined,
          (e: unknown) => e,
        ),
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("auth");
  });
});

describe("Bedrock errors", () => {
  it.each([
    ["ThrottlingException", "Too many requests, please wait before trying again.", "rate_limit", 429],
    ["AccessDeniedException", "You don't have access to the model with the specified model ID.", "no_access", 403],
    ["ResourceNotFoundException", "Model not found: the provided model identifier is invalid.", "model_not_found", 404],
    ["ValidationException", "Input is too long for requested model.", "context_too_long", 400],
    ["ValidationException", "The model returned the following errors: the request exceeds the context limit", "context_too_long", 400],
    ["ValidationException", "messages.1.content: blank text", "bad_request", 400],
    ["ServiceUnavailableException", "Bedrock is unable to process your request.", "overloaded", 503],
    ["InternalServerException", "An internal server error occurred.", "server", 500],
    ["ExpiredTokenException", "The security token included in the request is expired", "auth", 403],
  ] as const)("%s (%s) is a %s error that keeps Bedrock's words", async (exception, message, kind, status) => {
    server.enqueue({ fault: { type: "http", exception, message } });
    const err = await failure(provider());
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.message).toContain(message);
    expect(err.message).toContain("Amazon Bedrock");
  });

  it("reports credentials Bedrock does not know as an auth error", async () => {
    const err = await withEnv({ AWS_ACCESS_KEY_ID: "AKIDUNKNOWN0000000", AWS_SECRET_ACCESS_KEY: "some-secret-value" }, () => failure(provider()));
    expect(err.kind).toBe("auth");
    expect(err.message).toContain("The security token included in the request is invalid.");
    // The way out is the AWS credentials, not Kiln's API key command.
    expect(err.message).toMatch(/rejected the AWS credentials.*aws sso login/);
    expect(err.message).not.toContain("Set API Key");
    expect(err.message).not.toContain("some-secret-value");
  });

  it("reports a Bedrock API key it does not take as a bad API key", async () => {
    const err = await failure(provider({ apiKey: "bedrock-api-key-WRONG" }));
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/rejected the API key/);
    expect(lastConverse().headers.authorization).toBe("Bearer bedrock-api-key-WRONG");
  });

  it("says how to give AWS credentials when there are none at all, without asking the network", async () => {
    const before = server.requests.length;
    const err = await withEnv({ AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_SESSION_TOKEN: undefined }, () => failure(provider()));
    expect(err.kind).toBe("no_key");
    expect(err.message).toMatch(/No AWS credentials/);
    expect(err.message).toContain("AWS_ACCESS_KEY_ID");
    expect(err.message).toContain("aws sso login");
    expect(server.requests.length).toBe(before);
  });

  it("says the same for a named profile that does not exist, naming it", async () => {
    const err = await withEnv({ AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }, () => failure(provider({ awsProfile: "no-such-profile" })));
    expect(err.kind).toBe("no_key");
    expect(err.message).toContain('"no-such-profile"');
    expect(err.message).toContain("aws sso login --profile no-such-profile");
  });

  it("asks for a region when none is set anywhere", async () => {
    const err = await withEnv({ AWS_REGION: undefined, AWS_DEFAULT_REGION: undefined }, () => failure(provider({ region: undefined })));
    expect(err.kind).toBe("config");
    expect(err.message).toMatch(/region/);
  });

  it.each([
    ["throttlingException", "rate_limit", 429],
    ["serviceUnavailableException", "overloaded", 503],
    ["internalServerException", "server", 500],
    ["modelStreamErrorException", "stream", 424],
    ["validationException", "bad_request", 400],
  ] as const)("an exception event mid-stream (%s) ends the reply as a %s error, after the text that came", async (exception, kind, status) => {
    server.enqueue({ text: "one two three four five", fault: { type: "exception", exception, message: `mid-stream ${exception}`, afterEvents: 3 } });
    const { events, error } = await failing(provider());
    expect(texts(events).length).toBeGreaterThan(0);
    expect(error.kind).toBe(kind);
    // The status AWS gives the same exception as an HTTP error: the retry logic reads it.
    expect(error.status).toBe(status);
    expect(error.message).toContain(`mid-stream ${exception}`);
  });

  it("reports a frame with a bad CRC as a reply it could not read", async () => {
    server.enqueue({ text: "fine so far and then", fault: { type: "badCrc", afterEvents: 3 } });
    const { events, error } = await failing(provider());
    expect(texts(events).length).toBeGreaterThan(0);
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/could not read.*checksum/);
  });

  it("reports a connection cut mid-stream after the text that arrived", async () => {
    server.enqueue({ text: "one two three four five six", fault: { type: "cut", afterEvents: 3 } });
    const { events, error } = await failing(provider());
    expect(texts(events).length).toBeGreaterThan(0);
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/before it was complete/);
  });

  it("reports a reply that ends without messageStop", async () => {
    server.enqueue({ text: "half a sentence and then", fault: { type: "truncate", afterEvents: 3 } });
    const err = await failure(provider());
    expect(err.kind).toBe("stream");
    expect(err.message).toMatch(/before it was complete/);
  });

  it("a server that is down is a network error", async () => {
    const down = await new FakeBedrockServer().start();
    const endpoint = down.endpoint;
    await down.close();
    const err = await failure(provider({ baseUrl: endpoint }));
    expect(err.kind).toBe("network");
  });
});

describe("Bedrock cancel and timeouts", () => {
  const short: StreamTimeouts = { firstReplyMs: 400, idleMs: 400 };

  it("stops with CancelledError when cancelled mid-stream, though the server goes silent", async () => {
    server.enqueue({ text: "a b c d e f g h", fault: { type: "stall", afterEvents: 3 } });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of provider().stream({ system: "", messages: HELLO, signal: controller.signal })) {
        if (event.type === "text") {
          seen.push(event.text);
          controller.abort();
        }
      }
    })();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(seen.length).toBeGreaterThan(0);
    // The SDK lets go of the request too: the server sees the client leave rather than a stream held open.
    const request = lastConverse();
    await vi.waitFor(() => expect(request.closed).toBe(true), { timeout: 10_000 });
  });

  it("gives up on a server that accepts the request and sends nothing (the first-reply timeout)", async () => {
    server.enqueue({ fault: { type: "stall" } });
    const err = await failure(provider({ timeouts: short }));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/first-reply timeout/);
  });

  it("gives up on a reply that goes silent after it began (the idle timeout)", async () => {
    server.enqueue({ text: "one two three four", fault: { type: "stall", afterEvents: 3 } });
    const { events, error } = await failing(provider({ timeouts: short }));
    expect(texts(events).length).toBeGreaterThan(0);
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/idle timeout/);
  });
});

describe("Bedrock messages in the display language", () => {
  it("says each failure through l10n, with Bedrock's own words kept", async () => {
    usePseudoLocale();
    try {
      const faults: BedrockFault[] = [
        { type: "http", exception: "ThrottlingException", message: "slow down" },
        { type: "badCrc", afterEvents: 2 },
        { type: "truncate", afterEvents: 2 },
        { type: "exception", exception: "modelStreamErrorException", message: "model stream broke", afterEvents: 2 },
      ];
      const errors: ProviderError[] = [];
      for (const fault of faults) {
        server.enqueue({ text: "some words here", fault });
        errors.push(await failure(provider()));
      }
      errors.push(await withEnv({ AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }, () => failure(provider())));
      errors.push(await withEnv({ AWS_REGION: undefined }, () => failure(provider({ region: undefined }))));
      server.enqueue({ fault: { type: "stall" } });
      errors.push(await failure(provider({ timeouts: { firstReplyMs: 300, idleMs: 300 } })));
      errors.push(await withEnv({ AWS_ACCESS_KEY_ID: "AKIDUNKNOWN0000000" }, () => failure(provider())));
      errors.push(await withEnv({ AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }, () => failure(provider({ awsProfile: "missing-profile" }))));
      for (const err of errors) expect(translated(err.message), err.message).toBe(true);
      expect(errors[0]!.message).toContain("slow down");
      expect(errors[3]!.message).toContain("model stream broke");
      expect(errors.map((e) => e.kind)).toEqual(["rate_limit", "stream", "stream", "stream", "no_key", "config", "network", "auth", "no_key"]);
    } finally {
      useEnglish();
    }
  });
});

describe("Bedrock prompt caching", () => {
  it("marks only the models that cache: a model that cannot would have the request refused", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" });
    await collect(provider({ model: "meta.llama3-70b-instruct-v1:0" }));
    expect(JSON.stringify(lastConverse().body)).not.toContain("cachePoint");
    await collect(provider({ model: "us.anthropic.claude-haiku-4-5-20251001-v1:0" }));
    expect(lastConverse().body.system).toEqual([{ text: "sys" }, { cachePoint: { type: "default" } }]);
  });
});

describe("Bedrock reasoning settings", () => {
  const callTurn = { reasoning: "I should read the file first", toolUses: [{ toolUseId: "tooluse_think01", name: "read_file", input: { path: "a.ts" } }] };
  const afterCall = (id: string): LlmMessage[] => [
    { role: "user", content: "what is in a.ts?" },
    { role: "assistant", content: [{ type: "tool_use", id, name: "read_file", input: { path: "a.ts" } }] },
    { role: "user", content: [{ type: "tool_result", toolUseId: id, content: "export const a = 1;" }] },
  ];

  it("asks Claude to think with the profile's budget, and sends its signed thinking back before the calls it led to", async () => {
    server.enqueue(callTurn, { text: "a.ts exports a." });
    await collect(provider({ thinkingBudget: 4096 }), { maxTokens: 64_000 });
    expect(lastConverse().body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 4096 } });
    expect(lastConverse().body.inferenceConfig).toEqual({ maxTokens: 64_000 });

    await collect(provider({ thinkingBudget: 4096 }), { maxTokens: 64_000, messages: afterCall("tooluse_think01") });
    const assistant = (lastConverse().body.messages as { role: string; content: Record<string, unknown>[] }[])[1]!;
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: { text: "I should read the file first", signature: "fake-signature" } } });
    expect(assistant.content[1]).toHaveProperty("toolUse");
    expect(lastConverse().body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 4096 } });
  });

  it("turns an effort into a budget, and leaves thinking off where the called turn's thinking is gone or the model is not Claude", async () => {
    server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" });
    await collect(provider({ reasoningEffort: "medium" }));
    // No known output limit: the budget comes on top of the default reply room.
    expect(lastConverse().body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 8192 } });
    expect((lastConverse().body.inferenceConfig as { maxTokens: number }).maxTokens).toBeGreaterThan(8192);

    // A resumed task's tool call whose thinking this process never saw: Claude would refuse thinking without it.
    await collect(provider({ reasoningEffort: "medium" }), { messages: afterCall("tooluse_from_before_a_restart") });
    expect(lastConverse().body).not.toHaveProperty("additionalModelRequestFields");

    await collect(provider({ model: "us.amazon.nova-micro-v1:0", reasoningEffort: "high" }));
    expect(lastConverse().body).not.toHaveProperty("additionalModelRequestFields");
  });
});
