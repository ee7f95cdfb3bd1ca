import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeClone } from "../fixtures/gitClone";
import { startPgliteServer, type PgliteServer } from "../fixtures/pgliteServer";
import { cliWithModelServer, readOnlyRunArgs, runCli, xmlTurn } from "./cliProcess";

// `--index-postgres`: the CLI's codebase index on a team's PostgreSQL server (PGlite with pgvector
// behind its socket server, over the real wire protocol).

const env = cliWithModelServer();
let postgres: PgliteServer;

beforeAll(async () => {
  postgres = await startPgliteServer();
}, 60_000);
afterAll(async () => {
  await postgres?.close();
});

const PASSWORDS = "/** Salted scrypt, so two users with one password get different hashes. */\nexport function hashPassword(plain: string): string {\n  return plain;\n}\n";

/** A clone of the team's repository in a folder of its own. */
const clone = () =>
  makeClone({ "src/auth/passwords.ts": PASSWORDS, "src/ui/button.ts": "export function renderButton(label: string): string {\n  return label;\n}\n" }, { remote: "https://github.com/acme/shop.git" });

describe("a team codebase index (--index-postgres)", () => {
  it("kiln index sends a clone's files; kiln run in another clone searches them with nothing to send", async () => {
    const alice = clone();
    const built = await runCli(env.cli, ["index", "--workspace", alice, "--index-dir", mkdtempSync(join(tmpdir(), "kiln-team-state-")), "--index-postgres", postgres.url], {});
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toContain("kiln: 2 files sent to the team index, 0 files taken off");
    expect(built.stdout).toMatch(/Team codebase index of .* \(github\.com\/acme\/shop#main\): 2 files, 2 chunks on postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);

    const bob = clone();
    const bobState = mkdtempSync(join(tmpdir(), "kiln-team-state-"));
    const status = await runCli(env.cli, ["index", "--status", "--json", "--workspace", bob, "--index-dir", bobState], { KILN_INDEX_POSTGRES: postgres.url });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ files: 2, chunks: 2, team: { scope: "github.com/acme/shop#main" } });

    env.server.enqueue(xmlTurn("codebase_search", { query: "hash password" }), xmlTurn("attempt_completion", { result: "Found." }));
    const run = await runCli(env.cli, readOnlyRunArgs(env.server, bob, ["--index-dir", bobState, "--index-postgres", postgres.url]), { OPENAI_API_KEY: "sk-team-index" });
    expect(run.code, run.stderr).toBe(0);
    const sent = JSON.stringify(env.server.requests.at(-1)!.body.messages);
    expect(sent).toMatch(/## src\/auth\/passwords\.ts:1-4 score 1\.00 \(hashPassword\)/);
    expect(sent).toContain("2 | export function hashPassword(plain: string): string {");
  });

  it("a server that cannot be reached is one line on stderr and exit 1, with the password nowhere", async () => {
    const result = await runCli(
      env.cli,
      ["index", "--workspace", clone(), "--index-dir", mkdtempSync(join(tmpdir(), "kiln-team-state-")), "--index-postgres", "postgres://kiln:hunter2-team@127.0.0.1:1/shop"],
      {},
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("kiln: The team index at postgres://kiln@127.0.0.1:1/shop cannot be used: nothing answers at 127.0.0.1:1 (connection refused); is PostgreSQL running there?");
    expect(result.stdout + result.stderr).not.toContain("hunter2");
  });

  it("refuses flags that do not fit before it connects", async () => {
    const workspace = clone();
    const notPostgres = await runCli(env.cli, ["index", "--workspace", workspace, "--index-postgres", "mysql://db.example/shop"], {});
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain("kiln: --index-postgres: The team index URL must start with postgres:// or postgresql://, not mysql://.");
    const noIndex = await runCli(env.cli, ["run", "--workspace", workspace, "--no-index", "--index-postgres", postgres.url, "hi"], {});
    expect(noIndex.code).toBe(2);
    expect(noIndex.stderr).toContain("--index-postgres names where the codebase index is: drop --no-index");
  });
});
