import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodebaseIndex } from "../../src/core/codeIndex/codebaseIndex";
import { TeamIndex } from "../../src/core/codeIndex/team/teamIndex";
import { makeClone } from "../fixtures/gitClone";
import { asAdmin, startDebianPostgres, type DebianPostgres } from "../fixtures/debianPostgres";
import { buildCli, runCli } from "./cliProcess";

// The team index against Debian's PostgreSQL server (no pgvector): connecting, signing in with a
// password (SCRAM), a user who may not make tables, and the full-text path, as a team's server would
// have them. The test starts the server in a folder of its own and stops it after.

let postgres: DebianPostgres;
let cli: string;
const folders: string[] = [];

beforeAll(async () => {
  [postgres, cli] = await Promise.all([startDebianPostgres(), buildCli()]);
  await asAdmin(
    postgres,
    "CREATE ROLE team_member LOGIN PASSWORD 'member-pass-7'",
    "CREATE DATABASE shop OWNER team_member",
    "CREATE ROLE visitor LOGIN PASSWORD 'visitor-pass-3'",
    "CREATE DATABASE readonly_shop OWNER kiln_admin",
  );
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const FILES = {
  "src/auth/passwords.ts": "/** Salted, so one password gives two users different hashes. */\nexport function hashPassword(plain: string, salt: string): string {\n  return plain + salt;\n}\n",
  "src/auth/session.ts": "export function refreshSession(token: string): string {\n  return token; // a password is never stored here\n}\n",
  "src/ui/button.ts": "export function renderButton(label: string): string {\n  return label;\n}\n",
  "docs/guide.md": "# Guide\n\n## Sessions\n\nA session token is refreshed every hour.\n",
};

function clone(): string {
  const root = makeClone(FILES, { remote: "git@gitlab.example.com:acme/shop.git" });
  folders.push(root, `${root}-state`);
  return root;
}

describe("a team index on Debian's PostgreSQL", () => {
  it("signs in with the password it is given, indexes, and ranks as the workspace's own index does; without pgvector it says so", async () => {
    const root = clone();
    const index = new TeamIndex(root, { connection: { url: postgres.urlFor("team_member", "shop"), password: "member-pass-7" }, storeDir: `${root}-state` });
    try {
      const summary = await index.refresh();
      expect(summary).toMatchObject({ changed: 4, filesTotal: 4 });
      expect(summary.problems).toEqual([
        expect.stringMatching(
          /^the team index at postgres:\/\/team_member@127\.0\.0\.1:\d+\/shop keeps no vectors: pgvector is not available there \(.*vector.*\); codebase_search ranks by words alone$/,
        ),
      ]);
      const local = new CodebaseIndex(root);
      await local.refresh();
      for (const query of ["hash a password", "refresh the session token", "render button", "password"]) {
        const [team, mine] = [await index.search(query), await local.search(query)];
        expect(team.length, query).toBeGreaterThan(0);
        expect(
          team.map((h) => [h.path, h.startLine, h.score.toFixed(6)]),
          query,
        ).toEqual(mine.map((h) => [h.path, h.startLine, h.score.toFixed(6)]));
      }
      await local.close();
      expect(await index.status()).toMatchObject({ files: 4, team: { scope: "gitlab.example.com/acme/shop#main" } });
    } finally {
      await index.close();
    }
  });

  it("a wrong password is refused with a way to fix it, and the password is not repeated", async () => {
    const index = new TeamIndex(clone(), { connection: { url: postgres.urlFor("team_member", "shop"), password: "wrong-guess-42" } });
    const failure = (await index.refresh().catch((err: Error) => err)) as Error;
    expect(failure.message).toMatch(
      /^The team index at postgres:\/\/team_member@127\.0\.0\.1:\d+\/shop cannot be used: the server refused the password \(.*password authentication failed for user "team_member".*\); set it with the team index password command, PGPASSWORD or ~\/\.pgpass$/,
    );
    expect(failure.message).not.toContain("wrong-guess-42");
    await index.close();
  });

  it("a database that does not exist, and a user who may not make Kiln's tables, are each named", async () => {
    const missing = new TeamIndex(clone(), { connection: { url: postgres.urlFor("team_member", "no_such_db"), password: "member-pass-7" } });
    await expect(missing.refresh()).rejects.toThrow(/database "no_such_db" does not exist; create it first \(createdb\) or name another one in the URL/);
    await missing.close();
    const visitor = new TeamIndex(clone(), { connection: { url: postgres.urlFor("visitor", "readonly_shop"), password: "visitor-pass-3" } });
    await expect(visitor.refresh()).rejects.toThrow(/this user may not make Kiln's tables \(permission denied for schema public\); ask the server's owner to grant CREATE/);
    await visitor.close();
  });

  it("kiln index takes the password from PGPASSWORD", async () => {
    const root = clone();
    const result = await runCli(cli, ["index", "--workspace", root, "--index-dir", mkdtempSync(join(tmpdir(), "kiln-team-state-")), "--index-postgres", postgres.urlFor("team_member", "shop")], {
      PGPASSWORD: "member-pass-7",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Team codebase index of .* \(gitlab\.example\.com\/acme\/shop#main\): 4 files, \d+ chunks on postgres:\/\/team_member@127\.0\.0\.1:\d+\/shop/);
    expect(result.stderr).toContain("keeps no vectors: pgvector is not available there");
  });
});
