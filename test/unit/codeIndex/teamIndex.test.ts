import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CodebaseIndex } from "../../../src/core/codeIndex/codebaseIndex";
import { createEmbedder } from "../../../src/core/codeIndex/embedder";
import { TeamIndex } from "../../../src/core/codeIndex/team/teamIndex";
import { repositoryOf } from "../../../src/core/codeIndex/team/teamScope";
import { FakeEmbeddingServer } from "../../fixtures/fakeEmbeddingServer";
import { makeClone } from "../../fixtures/gitClone";
import { startPgliteServer, type PgliteServer } from "../../fixtures/pgliteServer";

// The team index over the real PostgreSQL wire protocol: PGlite (Postgres 18 with pgvector, in
// WebAssembly) behind its socket server, reached by node-postgres as a user's server would be.

let server: PgliteServer;
const folders: string[] = [];
const indexes: TeamIndex[] = [];

beforeAll(async () => {
  server = await startPgliteServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  for (const index of indexes.splice(0)) await index.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  // Each test starts from an empty server.
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query("DROP TABLE IF EXISTS kiln_index_meta, kiln_index_files, kiln_index_chunks, kiln_index_totals, kiln_index_terms, kiln_index_vectors");
  await client.end();
});

const PASSWORDS = `import { scryptSync } from "node:crypto";

/** Salted, so one password gives two users different hashes. */
export function hashPassword(plain: string, salt: string): string {
  return scryptSync(plain, salt, 64).toString("hex");
}

export function verifyPassword(plain: string, salt: string, hash: string): boolean {
  return hashPassword(plain, salt) === hash;
}
`;
const BUTTON = "export function renderButton(label: string): string {\n  // no password here\n  return label;\n}\n";
const GUIDE = "# Guide\n\nHow to start.\n\n## Sessions\n\nA session token is refreshed every hour.\n";

function git(root: string, ...args: string[]): void {
  execFileSync("git", args, { cwd: root, stdio: "ignore" });
}

/** A clone of the team's repository: its own folder, the same origin, on `branch`. */
function clone(branch = "main", remote = "git@github.com:acme/shop.git"): string {
  const root = makeClone({ "src/auth/passwords.ts": PASSWORDS, "src/ui/button.ts": BUTTON, "docs/guide.md": GUIDE }, { remote, branch, commit: true });
  folders.push(root);
  return root;
}

function put(root: string, path: string, text: string, mtime?: Date): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  if (mtime) utimesSync(join(root, path), mtime, mtime);
}

/** Each clone keeps its record of what it sent beside it (as under the extension's global storage), not in it. */
function teamIndex(root: string): TeamIndex {
  const index = new TeamIndex(root, { connection: { url: server.url }, storeDir: `${root}-state` });
  folders.push(`${root}-state`);
  indexes.push(index);
  return index;
}

const paths = (hits: { path: string }[]) => hits.map((hit) => hit.path);

describe("a team index on a PostgreSQL server", () => {
  it("indexes a workspace and answers codebase searches from the server, with the lines as they are on disk", async () => {
    const root = clone();
    const index = teamIndex(root);
    const summary = await index.refresh();
    expect(summary).toMatchObject({ filesDone: 3, filesTotal: 3, changed: 3, removed: 0 });
    expect(summary.chunks).toBeGreaterThanOrEqual(4);

    const hits = await index.search("hash a password");
    expect(hits[0]).toMatchObject({ path: "src/auth/passwords.ts", symbols: ["hashPassword"], score: 1 });
    expect(hits[0]!.text).toContain("scryptSync(plain, salt, 64)");
    expect(await index.search("session token")).toMatchObject([{ path: "docs/guide.md" }]);
    expect(paths(await index.search("password", { under: "src/ui" }))).toEqual(["src/ui/button.ts"]);
    expect(await index.search("zzzunknownword")).toEqual([]);

    const status = await index.status();
    expect(status).toMatchObject({ files: 3, team: { scope: "github.com/acme/shop#main" } });
    expect(status.team!.server).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it("ranks as the workspace's own index does", async () => {
    const root = clone();
    put(root, "src/auth/session.ts", "export function refreshSession(token: string): string {\n  return token; // a password is never stored here\n}\n");
    put(root, "src/billing/ledger.ts", "export function reconcileLedgerBalance(entries: number[]): number {\n  return entries.reduce((a, b) => a + b, 0);\n}\n");
    const team = teamIndex(root);
    await team.refresh();
    const local = new CodebaseIndex(root);
    await local.refresh();
    for (const query of ["password", "hash a password", "refresh the session token", "reconcileLedgerBalance", "render button label", "guide"]) {
      const [fromTeam, fromLocal] = [await team.search(query), await local.search(query)];
      expect(
        fromTeam.map((h) => `${h.path}:${h.startLine}`),
        query,
      ).toEqual(fromLocal.map((h) => `${h.path}:${h.startLine}`));
      expect(
        fromTeam.map((h) => h.score.toFixed(6)),
        query,
      ).toEqual(fromLocal.map((h) => h.score.toFixed(6)));
    }
    await local.close();
  });

  it("is shared by clones of the same repository and branch: the newest change wins, a teammate's file is not taken away", async () => {
    const alice = clone("main", "https://github.com/acme/shop.git");
    const bob = clone("main", "git@github.com:acme/shop.git");
    const aliceIndex = teamIndex(alice);
    const bobIndex = teamIndex(bob);
    expect((await aliceIndex.refresh()).changed).toBe(3);
    // Bob's files are the same bytes: nothing to send.
    expect((await bobIndex.refresh()).changed).toBe(0);

    // Bob adds a file and changes one.
    const CHECKOUT = "export function applyDiscountCoupon(total: number, coupon: string): number {\n  return coupon ? total * 0.9 : total;\n}\n";
    put(bob, "src/cart/checkout.ts", CHECKOUT);
    put(bob, "src/ui/button.ts", "export function renderIconButton(icon: string): string {\n  return icon;\n}\n", new Date(Date.now() + 60_000));
    expect((await bobIndex.refresh()).changed).toBe(2);
    // A hit is shown from the searcher's own disk: Alice has no checkout.ts yet, so it is no answer for her.
    expect(await aliceIndex.search("apply discount coupon")).toEqual([]);
    // Alice's button.ts is older than Bob's change: her refresh leaves his on the server.
    expect((await aliceIndex.refresh()).changed).toBe(0);
    expect(await bobIndex.search("render icon button")).toMatchObject([{ path: "src/ui/button.ts", symbols: ["renderIconButton"] }]);
    // She pulls his commit: nothing to index, and the search finds what Bob sent.
    put(alice, "src/cart/checkout.ts", CHECKOUT);
    expect((await aliceIndex.refresh()).changed).toBe(0);
    expect(await aliceIndex.search("apply discount coupon")).toMatchObject([{ path: "src/cart/checkout.ts", text: CHECKOUT.trimEnd() }]);

    // Bob adds a tax table Alice has not pulled; Alice deletes the guide. The guide leaves the
    // server; the tax table, which she never had, stays.
    put(bob, "src/cart/tax.ts", "export function salesTaxRate(region: string): number {\n  return region === 'EU' ? 0.2 : 0.07;\n}\n");
    await bobIndex.refresh();
    rmSync(join(alice, "docs/guide.md"));
    expect((await aliceIndex.refresh()).removed).toBe(1);
    expect(await bobIndex.search("session token")).toEqual([]);
    expect(paths(await bobIndex.search("sales tax rate"))).toEqual(["src/cart/tax.ts"]);
    expect(await bobIndex.status()).toMatchObject({ files: 4 });
  });

  it("keeps each branch apart: a branch's searches find that branch's code", async () => {
    const root = clone("main");
    const index = teamIndex(root);
    await index.refresh();
    git(root, "checkout", "-q", "-b", "feature/coupons");
    put(root, "src/cart/checkout.ts", "export function applyDiscountCoupon(total: number): number {\n  return total;\n}\n");
    expect(await index.status()).toMatchObject({ files: 0, team: { scope: "github.com/acme/shop#feature/coupons" } });
    // The new branch starts as a copy of main's index on the server: only the new file is read and sent.
    rmSync(join(root, "docs/guide.md"));
    expect(await index.refresh()).toMatchObject({ changed: 1, removed: 1, filesTotal: 3 });
    expect(paths(await index.search("discount coupon"))).toEqual(["src/cart/checkout.ts"]);
    expect(paths(await index.search("hash a password"))[0]).toBe("src/auth/passwords.ts");
    expect(await index.search("session token")).toEqual([]);

    git(root, "checkout", "-q", "main");
    git(root, "checkout", "-q", "--", "docs/guide.md");
    rmSync(join(root, "src/cart"), { recursive: true });
    // main never had the coupon code, and keeps its guide; its index is as main left it.
    expect(await index.search("discount coupon")).toEqual([]);
    expect(paths(await index.search("session token"))).toEqual(["docs/guide.md"]);
    expect(await index.status()).toMatchObject({ files: 3 });
  });

  it("re-sends a file the watcher saw change, and a second run reads only what changed since", async () => {
    const root = clone();
    const index = teamIndex(root);
    await index.refresh();
    put(root, "src/auth/passwords.ts", `${PASSWORDS}\nexport function rotateApiToken(): string {\n  return "new";\n}\n`);
    await index.refreshPaths(["src/auth/passwords.ts", "docs/missing.md"]);
    expect(paths(await index.search("rotate api token"))).toEqual(["src/auth/passwords.ts"]);

    await index.close();
    const again = teamIndex(root);
    expect(await again.refresh()).toMatchObject({ changed: 0, removed: 0, filesTotal: 3 });
  });

  it("Rebuild takes the branch's index off the server and sends it again", async () => {
    const root = clone();
    const index = teamIndex(root);
    await index.refresh();
    await index.clear();
    expect(await index.status()).toMatchObject({ files: 0, chunks: 0 });
    expect((await index.refresh()).changed).toBe(3);
    expect(paths(await index.search("hash password"))[0]).toBe("src/auth/passwords.ts");
  });

  it("says clearly when the server cannot be used, and the index works once it can", async () => {
    const root = clone();
    await expect(new TeamIndex(root, { connection: { url: "http://example.com/db" } }).refresh()).rejects.toThrow(/must start with postgres:\/\//);
    await expect(new TeamIndex(root, { connection: { url: "not a url" } }).refresh()).rejects.toThrow(/is not a URL/);
    const unreachable = new TeamIndex(root, { connection: { url: "postgres://kiln:secret-pass@127.0.0.1:1/db" } });
    const failure = await unreachable.refresh().catch((err: Error) => err);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/The team index at postgres:\/\/kiln@127\.0\.0\.1:1\/db cannot be used: nothing answers at 127\.0\.0\.1:1/);
    expect((failure as Error).message).not.toContain("secret-pass");
    await unreachable.close();
  });

  it("refuses tables a newer Kiln made, and leaves them as they are", async () => {
    const root = clone();
    await teamIndex(root).refresh();
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("UPDATE kiln_index_meta SET value = '99' WHERE key = 'schema'");
    const later = teamIndex(root);
    await expect(later.refresh()).rejects.toThrow(/tables are version 99, made by a newer Kiln; this one reads version 1 \(update Kiln\)/);
    expect((await client.query("SELECT count(*)::int AS n FROM kiln_index_files")).rows[0].n).toBe(3);
    await client.end();
  });
});

describe("a team index with an embedder (pgvector on the server)", () => {
  let embeddings: FakeEmbeddingServer;
  beforeAll(async () => {
    embeddings = await new FakeEmbeddingServer({ apiKey: "sk-embed", models: ["text-embedding-3-small"] }).start();
  });
  afterAll(() => embeddings.close());
  const embedder = () => createEmbedder({ kind: "openai-compatible", model: "text-embedding-3-small", baseUrl: embeddings.openaiBaseUrl, apiKey: "sk-embed" });
  const REMOVAL = "/** Takes the row out of the table and its sessions with it. */\nexport function deleteUser(id: string): void {\n  db.users.destroy(id);\n}\n";

  it("finds code by meaning; a teammate's vectors are used, not made again", async () => {
    const alice = clone();
    put(alice, "src/accounts/removal.ts", REMOVAL);
    const aliceIndex = new TeamIndex(alice, { connection: { url: server.url }, embedder: embedder() });
    indexes.push(aliceIndex);
    const built = await aliceIndex.refresh({ waitForVectors: true });
    expect(built.embedded).toBe(built.chunks);
    expect((await aliceIndex.search("erase a customer account"))[0]).toMatchObject({ path: "src/accounts/removal.ts", symbols: ["deleteUser"] });
    expect(await aliceIndex.status()).toMatchObject({ vectors: built.chunks, embedder: `openai-compatible:text-embedding-3-small@${embeddings.openaiBaseUrl}` });

    const bob = clone();
    put(bob, "src/accounts/removal.ts", REMOVAL);
    const bobIndex = new TeamIndex(bob, { connection: { url: server.url }, embedder: embedder() });
    indexes.push(bobIndex);
    const chunksSent = embeddings.requests.length;
    expect(await bobIndex.refresh({ waitForVectors: true })).toMatchObject({ changed: 0, embedded: 0 });
    expect(embeddings.requests.length).toBe(chunksSent);
    expect((await bobIndex.search("erase a customer account"))[0]?.symbols).toEqual(["deleteUser"]);
    // By words alone, nothing: the code says delete and user.
    await bobIndex.setEmbedder(undefined);
    expect(await bobIndex.search("erase a customer account")).toEqual([]);
  });
});

describe("which repository a remote names", () => {
  it("is the same for every way of writing one remote", () => {
    for (const url of [
      "git@github.com:acme/shop.git",
      "https://github.com/acme/shop",
      "https://me:tok3n@GitHub.com/acme/shop.git",
      "ssh://git@github.com/acme/shop.git/",
      "ssh://git@github.com:22/acme/shop.git",
    ]) {
      expect(repositoryOf(url), url).toBe("github.com/acme/shop");
    }
    expect(repositoryOf("/srv/git/shop.git")).toBe("/srv/git/shop");
  });
});
