import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { createEmbedder, type EmbedderConfig } from "../../../src/core/codeIndex/embedder";
import { indexDirFor } from "../../../src/core/codeIndex/indexDatabase";
import { FakeEmbeddingServer } from "../../fixtures/fakeEmbeddingServer";

/** Search by meaning: a real OpenAI SDK (and Ollama's API) over HTTP against an embeddings endpoint that speaks their wire formats. */
let server: FakeEmbeddingServer;
let root: string;
let storeParent: string;
const opened: CodebaseIndex[] = [];

beforeAll(async () => {
  server = await new FakeEmbeddingServer({
    apiKey: "sk-embed",
    models: ["text-embedding-3-small", "nomic-embed-text", "other-model", "gemini-embedding-001", "amazon.titan-embed-text-v2:0", "us.cohere.embed-english-v3"],
  }).start();
});
afterAll(() => server.close());

function put(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const openai = (model = "text-embedding-3-small"): EmbedderConfig => ({ kind: "openai-compatible", model, baseUrl: server.openaiBaseUrl, apiKey: "sk-embed" });

/** The workspace's index, with the embedder `config` describes ("none": words alone). */
function open(config: EmbedderConfig | "none" = openai()): CodebaseIndex {
  const index = new CodebaseIndex(root, { storeDir: indexDirFor(storeParent, root), ...(config !== "none" && { embedder: createEmbedder(config) }) });
  opened.push(index);
  return index;
}

beforeEach(() => {
  server.requests.length = 0;
  server.failWith = undefined;
  root = mkdtempSync(join(tmpdir(), "kiln-embed-ws-"));
  storeParent = mkdtempSync(join(tmpdir(), "kiln-embed-store-"));
  put("src/accounts/removal.ts", "/** Takes the row out of the table and its sessions with it. */\nexport function deleteUser(id: string): void {\n  db.users.destroy(id);\n}\n");
  put("src/billing/invoices.ts", "export function emailInvoice(invoice: Invoice): Promise<void> {\n  return mailer.send(invoice.customer, render(invoice));\n}\n");
  put("src/server/main.ts", "export async function bootServer(port: number): Promise<void> {\n  await http.listen(port);\n}\n");
});
afterEach(async () => {
  for (const index of opened.splice(0)) await index.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(storeParent, { recursive: true, force: true });
});

describe("codebase_search with an embedder", () => {
  it("finds code by what it does when the query shares no word with it, and says how many chunks have vectors", async () => {
    const words = open("none");
    await words.refresh();
    // By words alone, "erase a customer's account" finds nothing: the code says delete and user.
    expect(await words.search("erase a customer account")).toEqual([]);
    await words.close();

    const index = open();
    const summary = await index.refresh({ waitForVectors: true });
    expect(summary).toMatchObject({ changed: 0, restored: true, embedded: 3 });
    expect((await index.search("erase a customer account"))[0]).toMatchObject({ path: "src/accounts/removal.ts", symbols: ["deleteUser"] });
    expect((await index.search("deliver the bill by mail"))[0]?.path).toBe("src/billing/invoices.ts");
    expect(await index.status()).toMatchObject({ chunks: 3, vectors: 3, embedder: `openai-compatible:text-embedding-3-small@${server.openaiBaseUrl}` });
    // The official SDK asked for base64 and got it: each request carried the key.
    expect(server.requests.every((r) => r.authorization === "Bearer sk-embed")).toBe(true);
  });

  it("a search does not wait for the vectors: it answers by words while the embedder works, by meaning once it is through", async () => {
    const index = open();
    const summary = await index.refresh();
    expect(summary.embedded).toBeUndefined();
    expect((await index.search("delete user"))[0]?.symbols).toEqual(["deleteUser"]);
    expect(await index.vectorsDone()).toBe(3);
    expect((await index.search("erase a customer account"))[0]?.symbols).toEqual(["deleteUser"]);
  });

  it("merges the two rankings (reciprocal rank fusion): the definition both put first leads, the other chunk words find follows", async () => {
    put("src/accounts/audit.ts", "// Records who deleted which user, for the auditors.\nexport const AUDIT_LOG = 'audit';\n");
    const index = open();
    await index.refresh({ waitForVectors: true });
    const hits = await index.search("delete user");
    expect(hits[0]?.symbols).toEqual(["deleteUser"]);
    expect(hits[0]?.score).toBe(1);
    expect(hits.map((h) => h.path)).toContain("src/accounts/audit.ts");
  });

  it("a changed file's unchanged chunks keep their vectors; only the new text is sent", async () => {
    const index = open();
    await index.refresh({ waitForVectors: true });
    expect(server.textsEmbedded).toBe(3);
    put(
      "src/billing/invoices.ts",
      `${"export function emailInvoice(invoice: Invoice): Promise<void> {\n  return mailer.send(invoice.customer, render(invoice));\n}\n"}\nexport function chargeCard(card: Card): void {\n  stripe.charge(card);\n}\n`,
    );
    server.requests.length = 0;
    await index.refreshPaths(["src/billing/invoices.ts"]);
    expect(await index.vectorsDone()).toBe(1);
    const sent = server.requests.flatMap((r) => r.inputs);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("export function chargeCard(card: Card): void {");
    expect((await index.status()).vectors).toBe(4);
    // A new session reads nothing and sends nothing but its queries.
    await index.close();
    server.requests.length = 0;
    expect(await open().refresh({ waitForVectors: true })).toMatchObject({ changed: 0, embedded: 0, restored: true });
    expect(server.requests).toEqual([]);
  });

  it("another embedder makes every vector again, without chunking a file again", async () => {
    await open().refresh({ waitForVectors: true });
    server.requests.length = 0;
    const other = open(openai("other-model"));
    expect(await other.refresh({ waitForVectors: true })).toMatchObject({ changed: 0, embedded: 3 });
    expect(new Set(server.requests.map((r) => r.model))).toEqual(new Set(["other-model"]));
    expect((await other.status()).embedder).toContain("openai-compatible:other-model@");
  });

  it("an embedder that fails is said, and searches go on by words", async () => {
    server.failWith = 503;
    const index = open();
    const summary = await index.refresh({ waitForVectors: true });
    expect(summary.embedded).toBe(0);
    expect(summary.problems).toEqual([expect.stringMatching(/the embedder openai-compatible:text-embedding-3-small@.*; codebase_search ranks by words alone until the embedder answers$/)]);
    expect((await index.search("delete user"))[0]?.symbols).toEqual(["deleteUser"]);
    // Back: the next refresh makes what is missing.
    server.failWith = undefined;
    expect(await index.refresh({ waitForVectors: true })).toMatchObject({ embedded: 3 });
  });

  it("a long run of batches leaves no listeners piling up (no MaxListenersExceededWarning)", async () => {
    for (let i = 0; i < 400; i++) put(`src/many/f${i}.ts`, `export function handler${i}(): number {\n  return ${i};\n}\n`);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const summary = await open().refresh({ waitForVectors: true });
      expect(summary.embedded).toBe(403);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });

  it("a wrong key is said as the provider says it", async () => {
    const index = open({ ...openai(), apiKey: "sk-wrong" });
    const summary = await index.refresh({ waitForVectors: true });
    expect(summary.problems?.[0]).toMatch(/401|API key/i);
    expect((await index.status()).vectors).toBe(0);
  });

  it("Ollama's own /api/embed works the same way", async () => {
    const index = open({ kind: "ollama", model: "nomic-embed-text", baseUrl: server.origin });
    expect(await index.refresh({ waitForVectors: true })).toMatchObject({ embedded: 3 });
    expect(server.requests[0]).toMatchObject({ protocol: "ollama", model: "nomic-embed-text" });
    expect((await index.search("launch the server"))[0]?.symbols).toEqual(["bootServer"]);
  });

  it("Gemini's batchEmbedContents through @google/genai works the same way", async () => {
    const index = open({ kind: "gemini", model: "gemini-embedding-001", baseUrl: server.origin, apiKey: "sk-embed" });
    expect(await index.refresh({ waitForVectors: true })).toMatchObject({ embedded: 3 });
    expect(server.requests[0]).toMatchObject({ protocol: "gemini", model: "gemini-embedding-001", authorization: "Bearer sk-embed" });
    expect((await index.search("deliver the bill by mail"))[0]?.symbols).toEqual(["emailInvoice"]);
    // A base URL copied from Google's docs (ending in /v1beta) works too; a wrong key is refused as Google says it.
    const refused = createEmbedder({ kind: "gemini", model: "gemini-embedding-001", baseUrl: `${server.origin}/v1beta`, apiKey: "not-it" });
    await expect(refused.embed(["x"])).rejects.toThrow(/API key not valid|400/);
  });

  it("Bedrock's InvokeModel through the AWS SDK: Titan one text a request, Cohere a batch; a refusal as Bedrock says it", async () => {
    const titan = open({ kind: "bedrock", model: "amazon.titan-embed-text-v2:0", baseUrl: server.origin, region: "us-east-1", apiKey: "sk-embed" });
    expect(await titan.refresh({ waitForVectors: true })).toMatchObject({ embedded: 3 });
    expect(server.requests.map((r) => [r.protocol, r.model, r.inputs.length, r.authorization])).toEqual(
      Array.from({ length: 3 }, () => ["bedrock", "amazon.titan-embed-text-v2:0", 1, "Bearer sk-embed"]),
    );
    expect((await titan.search("erase a customer account"))[0]?.symbols).toEqual(["deleteUser"]);
    expect((await titan.status()).embedder).toBe(`bedrock:amazon.titan-embed-text-v2:0@${server.origin}`);
    await titan.close();

    server.requests.length = 0;
    const cohere = createEmbedder({ kind: "bedrock", model: "us.cohere.embed-english-v3", baseUrl: server.origin, region: "us-east-1", apiKey: "sk-embed" });
    const vectors = await cohere.embed(["delete the user", "send the invoice"]);
    expect(vectors.map((v) => v.length)).toEqual([64, 64]);
    expect(server.requests).toMatchObject([{ protocol: "bedrock", inputs: ["delete the user", "send the invoice"] }]);

    const refused = createEmbedder({ kind: "bedrock", model: "amazon.titan-embed-text-v2:0", baseUrl: server.origin, region: "us-east-1", apiKey: "not-it" });
    await expect(refused.embed(["x"])).rejects.toThrow(/Amazon Bedrock.*(403|API Key)/i);
    expect(() => createEmbedder({ kind: "bedrock", model: "anthropic.claude-3-haiku" })).toThrow("knows Amazon Titan (amazon.titan-embed-text-v2:0) and Cohere Embed");
  });

  it("Mistral is OpenAI's protocol at Mistral's address, with its key", () => {
    expect(createEmbedder({ kind: "mistral", model: "codestral-embed", apiKey: "k" }).id).toBe("mistral:codestral-embed@https://api.mistral.ai/v1");
    expect(() => createEmbedder({ kind: "mistral", model: "codestral-embed" })).toThrow("needs an API key (from console.mistral.ai)");
  });

  it("refuses a configuration it cannot use, saying what to fix", () => {
    expect(() => createEmbedder({ kind: "gemini", model: "gemini-embedding-001" })).toThrow("needs an API key (from Google AI Studio)");
    expect(() => createEmbedder({ kind: "openai-compatible", model: "m" })).toThrow("needs a base URL");
    expect(() => createEmbedder({ kind: "openai", model: "text-embedding-3-small" })).toThrow("needs an API key");
    expect(() => createEmbedder({ kind: "ollama", model: " " })).toThrow("needs a model (e.g. nomic-embed-text)");
    expect(() => createEmbedder({ kind: "ollama", model: "m", baseUrl: "ftp://x" })).toThrow("is not an http(s) URL");
    expect(() => createEmbedder({ kind: "cohere" as never, model: "m" })).toThrow('Unknown embedder "cohere"');
  });
});
