import * as assert from "node:assert/strict";
import type { KilnTestApi } from "../../../src/hosts/vscode/extension";
import type { HostToWebview, TaskInfo } from "../../../src/shared/protocol/messages";
import { FakeModelServer } from "../../fixtures/fakeModelServer";
import { FakeOllamaServer } from "../../fixtures/fakeOllamaServer";
import { FakeGeminiServer } from "../../fixtures/fakeGeminiServer";
import { FakeBedrockServer } from "../../fixtures/fakeBedrockServer";
import { FakeVertexServer } from "../../fixtures/fakeVertexServer";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendedErrors, configure, exchange, kiln, setKiln, xmlCall } from "./helpers";

/** The chat's task line after the turn: tokens, cost, the window in use. */
function lastTask(posted: readonly HostToWebview[]): TaskInfo | undefined {
  const found = posted.filter((m) => m.type === "chat/task").at(-1);
  return found?.type === "chat/task" ? found.task : undefined;
}

function completion(posted: readonly HostToWebview[]): string | undefined {
  for (const m of posted) if (m.type === "chat/appended" && m.item.role === "completion") return m.item.result;
  return undefined;
}

/** One task from the sidebar per provider family, each against a local server that speaks its wire format. */
describe("a task from the sidebar on each provider family", () => {
  let api: KilnTestApi;
  let restore: () => Promise<void>;

  beforeEach(async () => {
    api = await kiln();
    restore = await setKiln({ profiles: undefined, activeProfile: undefined, "provider.kind": undefined, "provider.baseUrl": undefined, "provider.model": undefined, "provider.protocol": undefined });
    api.sidebar.newTask();
  });
  afterEach(async () => {
    api.sidebar.newTask();
    await restore();
  });

  it("a preset (DeepSeek) sends to its endpoint with its key from the secret storage", async () => {
    const server = await new FakeModelServer({ apiKey: "sk-deepseek-test" }).start();
    try {
      await configure("deepseek", server.openaiBaseUrl, "deepseek-chat");
      await api.setSecretForTest("deepseek", "sk-deepseek-test");
      server.enqueue(xmlCall("attempt_completion", { result: "Answered by the preset." }));
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Say hello" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Answered by the preset.");
      const sent = server.requests.at(-1)!;
      assert.equal(sent.path, "/v1/chat/completions");
      assert.equal(sent.headers.authorization, "Bearer sk-deepseek-test");
      assert.equal(sent.body.model, "deepseek-chat");
    } finally {
      await api.setSecretForTest("deepseek", undefined);
      await server.close();
    }
  });

  it("OpenRouter: the task's cost is priced from OpenRouter's own model list, and the profile's reasoning is sent", async () => {
    let restoreBudget: (() => Promise<void>) | undefined;
    const server = await new FakeModelServer({
      routes: {
        "/v1/models": {
          data: [{ id: "vendor/coder", name: "Vendor: Coder", context_length: 200_000, pricing: { prompt: "0.000002", completion: "0.00001" }, top_provider: { max_completion_tokens: 32_000 } }],
        },
      },
    }).start();
    try {
      await configure("openrouter", server.openaiBaseUrl, "vendor/coder");
      // The default profile's reasoning, a kiln.provider.* setting, goes in OpenRouter's own field.
      restoreBudget = await setKiln({ "provider.thinkingBudget": 12_000 });
      await api.setSecretForTest("openrouter", "sk-or-test");
      server.enqueue({ ...xmlCall("attempt_completion", { result: "Priced." }), usage: { input: 100_000, output: 10_000 } });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Price me" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      const task = lastTask(posted);
      // 100k in at $2/M and 10k out at $10/M: $0.20 + $0.10.
      assert.ok(task?.cost !== undefined && Math.abs(task.cost - 0.3) < 1e-9, `cost ${String(task?.cost)}`);
      assert.equal(task?.context?.window, 200_000);
      assert.equal(server.requests.at(-1)!.body.max_completion_tokens, 32_000);
      assert.deepEqual(server.requests.at(-1)!.body.reasoning, { max_tokens: 12_000 });
    } finally {
      await restoreBudget?.();
      await api.setSecretForTest("openrouter", undefined);
      await server.close();
    }
  });

  it("Ollama: the native API with the model's whole window as num_ctx, and the chat's window says so", async () => {
    const server = await new FakeOllamaServer({ models: [{ name: "qwen3-coder:30b", architecture: "qwen3moe", contextLength: 65_536, capabilities: ["completion", "tools"] }] }).start();
    try {
      await configure("ollama", server.baseUrl, "qwen3-coder:30b");
      server.enqueue({ text: "Done.\n<attempt_completion>\n<result>Local model finished.</result>\n</attempt_completion>", usage: { input: 3_000, output: 40 } });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Work locally" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Local model finished.");
      const chat = server.to("/api/chat").at(-1)!;
      assert.equal((chat.body.options as { num_ctx?: number }).num_ctx, 65_536);
      assert.equal(lastTask(posted)?.context?.window, 65_536);
      assert.equal(lastTask(posted)?.cost, 0, "a local model costs nothing");
    } finally {
      await server.close();
    }
  });

  const DONE = (result: string) => `Done.\n<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;

  it("Gemini: its SDK, loaded at the first request inside the bundled extension, answers the task", async () => {
    const server = await new FakeGeminiServer({ apiKey: "gemini-test-key" }).start();
    try {
      await configure("gemini", server.baseUrl, "gemini-2.5-flash");
      await api.setSecretForTest("gemini", "gemini-test-key");
      server.enqueue({ text: DONE("Answered by Gemini.") });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Say hello" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Answered by Gemini.");
      assert.match(server.requests.at(-1)!.path, /gemini-2\.5-flash:streamGenerateContent$/);
    } finally {
      await api.setSecretForTest("gemini", undefined);
      await server.close();
    }
  });

  it("Bedrock: the default profile's region setting and a Bedrock API key, over ConverseStream", async () => {
    const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const server = await new FakeBedrockServer({ bearerTokens: ["bedrock-api-key-test"] }).start();
    const restoreRegion = await setKiln({ "provider.region": "eu-west-1" });
    try {
      await configure("bedrock", server.endpoint, model);
      await api.setSecretForTest("bedrock", "bedrock-api-key-test");
      server.enqueue({ text: DONE("Answered by Bedrock."), usage: { input: 1_000, output: 20, cacheRead: 4_000 } });
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Say hello" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Answered by Bedrock.");
      const sent = server.requests.filter((r) => r.modelId !== undefined).at(-1)!;
      assert.equal(sent.modelId, model);
      assert.equal(sent.headers.authorization, "Bearer bedrock-api-key-test");
      // Claude Sonnet 4.5's prices, the cache read at a tenth: 1,000 in at $3/M, 20 out at $15/M, 4,000 read at $0.30/M.
      const cost = lastTask(posted)?.cost ?? NaN;
      assert.ok(Math.abs(cost - (0.003 + 0.0003 + 0.0012)) < 1e-9, `cost ${cost}`);
    } finally {
      await restoreRegion();
      await api.setSecretForTest("bedrock", undefined);
      await server.close();
    }
  });

  it("Azure OpenAI: the deployment's URL, the api-key header and the API version setting", async () => {
    const server = await new FakeModelServer().start();
    const restoreVersion = await setKiln({ "provider.apiVersion": "2025-04-01-preview" });
    try {
      await configure("azure", server.anthropicBaseUrl, "team-gpt");
      await api.setSecretForTest("azure", "azure-test-key");
      server.enqueue(xmlCall("attempt_completion", { result: "Answered by Azure." }));
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Say hello" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Answered by Azure.");
      const sent = server.requests.at(-1)!;
      assert.equal(sent.path, "/openai/deployments/team-gpt/chat/completions");
      assert.equal(new URLSearchParams(sent.query).get("api-version"), "2025-04-01-preview");
      assert.equal(sent.headers["api-key"], "azure-test-key");
    } finally {
      await restoreVersion();
      await api.setSecretForTest("azure", undefined);
      await server.close();
    }
  });
  it("Vertex: Claude with a service account key file, the project and the region from the settings", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const server = await new FakeVertexServer({ publicKey, accessToken: "ya29.in-host-token" }).start();
    const dir = mkdtempSync(join(tmpdir(), "kiln-vertex-host-"));
    const keyFile = join(dir, "sa.json");
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: "service_account",
        project_id: "proj-from-key",
        private_key_id: "key-1",
        private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        client_email: "kiln@proj-from-key.iam.gserviceaccount.com",
        client_id: "1",
        token_uri: server.tokenUri,
      }),
    );
    const restoreVertex = await setKiln({ "provider.keyFile": keyFile, "provider.project": "team-project", "provider.region": "europe-west1" });
    try {
      await configure("vertex", server.baseUrl, "claude-sonnet-4-5@20250929");
      server.claude.enqueue(xmlCall("attempt_completion", { result: "Answered by Claude on Vertex." }));
      const posted = await exchange(api.sidebar, { type: "chat/send", text: "Say hello" }, 30_000);
      assert.deepEqual(appendedErrors(posted), []);
      assert.equal(completion(posted), "Answered by Claude on Vertex.");
      const sent = server.requests.at(-1)!;
      assert.deepEqual([sent.family, sent.project, sent.location, sent.model], ["claude", "team-project", "europe-west1", "claude-sonnet-4-5@20250929"]);
      // The key file was exchanged for a token at its own token_uri, and only the token went to the model.
      assert.equal(server.tokenRequests.length > 0, true);
      assert.equal(sent.headers.authorization, "Bearer ya29.in-host-token");
    } finally {
      await restoreVertex();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
