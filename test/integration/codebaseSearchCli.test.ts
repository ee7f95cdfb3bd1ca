import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeEmbeddingServer } from "../fixtures/fakeEmbeddingServer";
import { cliWithModelServer, readOnlyRunArgs, runCli, xmlTurn } from "./cliProcess";

const env = cliWithModelServer();
let workspace: string;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(workspace, path)), { recursive: true });
  writeFileSync(join(workspace, path), text);
}

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "kiln-codebase-search-"));
  put(
    "src/auth/passwords.ts",
    [
      'import { scryptSync, randomBytes } from "node:crypto";',
      "",
      "/** Salted scrypt, so two users with one password get different hashes. */",
      "export function hashPassword(plain: string): string {",
      '  const salt = randomBytes(16).toString("hex");',
      '  return `${salt}:${scryptSync(plain, salt, 64).toString("hex")}`;',
      "}",
      "",
    ].join("\n"),
  );
  put("src/ui/button.ts", "export function renderButton(label: string): string {\n  return `<button>${label}</button>`;\n}\n");
  put("README.md", "# Demo\n\nA demo app.\n\n## Passwords\n\nStored hashed, never in plain text.\n");
});

/** The text of everything the CLI sent in its last request: the tool's result is in it. */
const lastRequest = () => JSON.stringify(env.server.requests.at(-1)!.body.messages);

function run(extra: string[] = []) {
  return runCli(env.cli, readOnlyRunArgs(env.server, workspace, extra), { OPENAI_API_KEY: "sk-codebase-search" });
}

describe("kiln run: codebase_search", () => {
  it("indexes the workspace on first use and sends the model the function that matches, as path:lines with its code", async () => {
    env.server.enqueue(xmlTurn("codebase_search", { query: "hash password" }), xmlTurn("attempt_completion", { result: "Found." }));
    const result = await run();
    expect(result.code, result.stderr).toBe(0);
    const sent = lastRequest();
    expect(sent).toContain("# src/auth/passwords.ts");
    expect(sent).toMatch(/## src\/auth\/passwords\.ts:\d+-7 score 1\.00 \(hashPassword\)/);
    expect(sent).toContain("4 | export function hashPassword(plain: string): string {");
    expect(sent).not.toContain("renderButton");
    // The tool is offered in the prompt, in the read group.
    expect(JSON.stringify(env.server.requests.at(-2)!.body)).toContain("## codebase_search");
  });

  it("--no-index: the tool is not offered, and a call to it says the index is off", async () => {
    env.server.enqueue(xmlTurn("codebase_search", { query: "hash password" }), xmlTurn("attempt_completion", { result: "Done." }));
    const result = await run(["--no-index"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(env.server.requests.at(-2)!.body)).not.toContain("## codebase_search");
    expect(lastRequest()).toContain("The codebase index is turned off here");
  });
});

describe("kiln index", () => {
  const index = (extra: string[], indexDir: string) => runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, ...extra], {});

  it("builds the index once and saves it; later runs, kiln run's included, read only what changed", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    const none = await index(["--status"], indexDir);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain(`No codebase index is saved for ${workspace} yet; kiln index builds it`);

    const built = await index([], indexDir);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain("kiln: indexed from nothing: 3 files read, 0 files dropped");
    expect(built.stdout).toMatch(new RegExp(`Codebase index of ${workspace}: 3 files, \\d+ chunks; [\\d.]+ KB saved \\d{4}-\\d\\d-\\d\\dT`));

    put("src/ui/button.ts", "export function renderIconButton(icon: string): string {\n  return icon;\n}\n");
    env.server.enqueue(xmlTurn("codebase_search", { query: "icon button" }), xmlTurn("attempt_completion", { result: "Found." }));
    const ran = await runCli(
      env.cli,
      ["run", "--provider", "openai", "--base-url", env.server.openaiBaseUrl, "--workspace", workspace, "--index-dir", indexDir, "--approve", "read", "--no-checkpoints", "Find it"],
      { OPENAI_API_KEY: "sk-codebase-search" },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(lastRequest()).toContain("renderIconButton");
    // kiln run saved what it read: nothing is left to read.
    const again = await index(["--json"], indexDir);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ workspace, changed: 0, removed: 0, restored: true, files: 3 });

    const rebuilt = await index(["--rebuild"], indexDir);
    expect(rebuilt.stdout).toContain("kiln: indexed from nothing: 3 files read");
    const status = await index(["--status", "--json"], indexDir);
    expect(JSON.parse(status.stdout)).toMatchObject({ workspace, files: 3, saved: { bytes: expect.any(Number) } });
  });

  it("a damaged saved index is said on stderr and built again", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    await index([], indexDir);
    const [folder] = readdirSync(indexDir);
    writeFileSync(join(indexDir, folder!, "index.sqlite"), "{ not a database");
    const result = await index([], indexDir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/kiln: the saved index cannot be used: SQLite cannot read it \(file is not a database\); the workspace is indexed again/);
    expect(result.stdout).toContain("kiln: indexed from nothing: 3 files read");
  });

  it("refuses flags that do not fit, before it touches anything", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    const both = await index(["--status", "--rebuild"], indexDir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("kiln: give --status or --rebuild, not both");
    const off = await index(["--no-index"], indexDir);
    expect(off.stderr).toContain("kiln index builds the index: drop --no-index");
    const words = await index(["src"], indexDir);
    expect(words.stderr).toContain('kiln index takes no text ("src"); --workspace DIR names the folder');
    const elsewhere = await runCli(env.cli, ["run", "--rebuild", "hi"], {});
    expect(elsewhere.stderr).toContain("kiln: --rebuild is for kiln index");
    expect(readdirSync(indexDir)).toEqual([]);
  });
});

describe("kiln index and kiln run with an embedder", () => {
  let embeddings: FakeEmbeddingServer;
  beforeAll(async () => {
    embeddings = await new FakeEmbeddingServer({ apiKey: "sk-embeddings", models: ["text-embedding-3-small"] }).start();
  });
  afterAll(() => embeddings.close());
  const flags = () => ["--embedder", "openai-compatible", "--embedder-base-url", embeddings.openaiBaseUrl, "--embedder-model", "text-embedding-3-small"];

  it("gives the chunks vectors, and codebase_search then finds code the query names in other words", async () => {
    put("src/accounts/removal.ts", "export function deleteUser(id: string): void {\n  db.users.destroy(id);\n}\n");
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    const built = await runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, "--json", ...flags()], { KILN_EMBEDDER_API_KEY: "sk-embeddings" });
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout)).toMatchObject({ changed: 4, embedded: 5, chunks: 5, vectors: 5, embedder: `openai-compatible:text-embedding-3-small@${embeddings.openaiBaseUrl}` });

    env.server.enqueue(xmlTurn("codebase_search", { query: "erase a customer account" }), xmlTurn("attempt_completion", { result: "Found." }));
    const ran = await runCli(env.cli, readOnlyRunArgs(env.server, workspace, ["--index-dir", indexDir, ...flags()]), { OPENAI_API_KEY: "sk-codebase-search", KILN_EMBEDDER_API_KEY: "sk-embeddings" });
    expect(ran.code, ran.stderr).toBe(0);
    expect(lastRequest()).toMatch(/## src\/accounts\/removal\.ts:1-3 score 1\.00 \(deleteUser\)/);
    // The embedder's key went to the embedder, and nowhere near the model.
    expect(JSON.stringify(env.server.requests)).not.toContain("sk-embeddings");
  });

  it("a wrong key is said on stderr; the index is built and searched by words all the same", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    const built = await runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, ...flags()], { KILN_EMBEDDER_API_KEY: "sk-wrong" });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/kiln: .*embedder openai-compatible:text-embedding-3-small@.*; codebase_search ranks by words alone until the embedder answers/);
    expect(built.stdout).toContain("0 chunks given vectors");
  });

  it("refuses an embedder it cannot use before it indexes anything", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "kiln-index-dir-"));
    const unknown = await runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, "--embedder", "word2vec"], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("kiln: --embedder word2vec: use openai, openai-compatible, mistral, ollama, gemini, bedrock");
    const noUrl = await runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, "--embedder", "openai-compatible", "--embedder-model", "m"], {});
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("needs a base URL");
    const alone = await runCli(env.cli, ["index", "--workspace", workspace, "--index-dir", indexDir, "--embedder-model", "m"], {});
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--embedder-model, --embedder-base-url and --embedder-region need --embedder openai|openai-compatible|mistral|ollama|gemini|bedrock");
    expect(readdirSync(indexDir)).toEqual([]);
  });
});
