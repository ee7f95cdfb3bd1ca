import { afterEach, describe, expect, it } from "vitest";
import { FullTextIndex, type FullTextDoc } from "../../../src/core/codeIndex/fullText";
import { IndexDatabase } from "../../../src/core/codeIndex/indexDatabase";

const opened: IndexDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** An empty full-text index in a database in memory, as CodebaseIndex has one without a store. */
async function emptyIndex(): Promise<FullTextIndex> {
  const { db } = await IndexDatabase.open(undefined, "/workspace");
  opened.push(db);
  return new FullTextIndex(db);
}

async function indexOf(docs: Record<number, FullTextDoc>): Promise<FullTextIndex> {
  const index = await emptyIndex();
  for (const [id, doc] of Object.entries(docs)) index.add(Number(id), doc);
  return index;
}

const ids = (index: FullTextIndex, query: string, options?: Parameters<FullTextIndex["search"]>[1]) => index.search(query, options).map((hit) => hit.id);

/** A small codebase: what the ranking is judged on. */
const CODEBASE: Record<number, FullTextDoc> = {
  1: {
    path: "src/auth/passwords.ts",
    symbols: ["hashPassword"],
    code: `/** Salted, so one password gives two users different hashes. */
export function hashPassword(plain: string, salt: string): string {
  return scryptSync(plain, salt, 64).toString("hex");
}`,
  },
  2: {
    path: "src/auth/passwords.ts",
    symbols: ["verifyPassword"],
    code: `export function verifyPassword(plain: string, salt: string, hash: string): boolean {
  // Compares in constant time: the hashPassword of the attempt against the stored hash.
  return timingSafeEqual(Buffer.from(hashPassword(plain, salt)), Buffer.from(hash));
}`,
  },
  3: {
    path: "src/auth/session.ts",
    symbols: ["refreshSession"],
    code: `export async function refreshSession(token: SessionToken): Promise<SessionToken> {
  if (token.expiresAt > Date.now()) return token;
  return issueToken(token.userId);
}`,
  },
  4: {
    path: "src/ui/loginForm.tsx",
    symbols: ["LoginForm"],
    code: `export function LoginForm({ onSubmit }: Props) {
  // The user types a password here; it is never logged.
  return <form onSubmit={onSubmit}><input type="password" /></form>;
}`,
  },
  5: {
    path: "scripts/migrate_users.py",
    symbols: ["hash_password", "migrate_users"],
    code: `def hash_password(plain):
    return bcrypt.hashpw(plain.encode(), bcrypt.gensalt())

def migrate_users(rows):
    for row in rows:
        row["password"] = hash_password(row["password"])`,
  },
  6: {
    path: "docs/security.md",
    symbols: ["Passwords"],
    code: `## Passwords

We hash every password before it is stored, and never log one.`,
  },
};

describe("FullTextIndex ranking", () => {
  it("ranks the function named after the query above code that merely calls or mentions it", async () => {
    const index = await indexOf(CODEBASE);
    const hits = ids(index, "hashPassword");
    expect(hits[0]).toBe(1);
    // verifyPassword calls hashPassword and says so in a comment: found, but below the definition.
    expect(hits).toContain(2);
    expect(hits.indexOf(2)).toBeGreaterThan(0);
    expect(ids(index, "verify password")[0]).toBe(2);
    expect(ids(index, "hash password")[0]).toBe(1);
  });

  it("matches an identifier in another naming convention (hash_password for hashPassword)", async () => {
    const index = await indexOf(CODEBASE);
    const hits = ids(index, "hashPassword");
    expect(hits).toContain(5);
    expect(ids(index, "HASH_PASSWORD")).toEqual(hits);
    // The doc says "hash" and "password" but never the identifier: below every chunk that has it.
    expect(hits.indexOf(6)).toBeGreaterThan(Math.max(hits.indexOf(1), hits.indexOf(5)));
    // Asked in words, the doc is found too.
    expect(ids(index, "hash password")).toContain(6);
  });

  it("lets path words find a file's code ('auth' finds src/auth/…) and break a tie between equal code", async () => {
    const index = await indexOf(CODEBASE);
    expect(ids(index, "auth").sort()).toEqual([1, 2, 3]);
    const twins = await indexOf({
      1: { path: "src/ui/token.ts", symbols: [], code: "export const tokenTtl = 3600;" },
      2: { path: "src/auth/token.ts", symbols: [], code: "export const tokenTtl = 3600;" },
    });
    expect(ids(twins, "auth token")).toEqual([2, 1]);
    expect(ids(twins, "token ttl")).toEqual([1, 2]);
  });

  it("finds a word in any of its forms", async () => {
    const index = await indexOf(CODEBASE);
    expect(ids(index, "hashing passwords")).toEqual(ids(index, "hash password"));
    expect(ids(index, "refreshing sessions")[0]).toBe(3);
    expect(ids(index, "migrating user")[0]).toBe(5);
  });

  it("ignores stop words, and finds nothing for a query of nothing but them", async () => {
    const index = await indexOf(CODEBASE);
    expect(index.search("")).toEqual([]);
    expect(index.search("   ")).toEqual([]);
    expect(index.search("the function that is const")).toEqual([]);
    expect(index.search("the function that refreshes the session")).toEqual(index.search("refresh session"));
  });

  it("finds nothing for words no code has", async () => {
    expect((await indexOf(CODEBASE)).search("kubernetes helm chart")).toEqual([]);
    expect((await emptyIndex()).search("password")).toEqual([]);
  });

  it("needs half the terms of a query, so a renamed identifier is not found through one of its parts", async () => {
    const index = await indexOf(CODEBASE);
    // "password" alone is in half the codebase; the chunk with "verify" too comes first.
    expect(ids(index, "verify password")[0]).toBe(2);
    expect(ids(index, "login form")[0]).toBe(4);
    // LoginForm has "login" only: one of loginbutton, login, button is not enough.
    expect(index.search("loginButton")).toEqual([]);
  });

  it("forgives missing words, but ranks the chunks with every word first", async () => {
    const index = await indexOf({
      // All four words, once each, in a long chunk.
      1: { path: "src/a.ts", symbols: [], code: `user login session token ${"filler words about other things ".repeat(5)}` },
      // Three of the four, repeated, in a short one: BM25 alone would put it first.
      2: { path: "src/b.ts", symbols: [], code: "login login login session session token token" },
      // Two of four: just enough, last.
      3: { path: "src/c.ts", symbols: [], code: "login session" },
      // One of four: not enough.
      4: { path: "src/d.ts", symbols: [], code: "login unrelated" },
    });
    expect(ids(index, "user login session token")).toEqual([1, 2, 3]);
    // Two words: the chunk with both first, however rare and repeated the one another chunk has.
    const twoWords = await indexOf({
      1: { path: "src/a.ts", symbols: [], code: `user ${"x ".repeat(50)} login` },
      2: { path: "src/b.ts", symbols: [], code: "login login login login" },
      3: { path: "src/c.ts", symbols: [], code: "user user" },
      4: { path: "src/d.ts", symbols: [], code: "profile" },
    });
    expect(ids(twoWords, "user login")[0]).toBe(1);
    expect(ids(twoWords, "user login")).not.toContain(4);
  });

  it("breaks equal scores by id, lowest first", async () => {
    const same: FullTextDoc = { path: "src/same.ts", symbols: ["parseConfig"], code: "function parseConfig() {}" };
    const index = await indexOf({ 9: same, 3: same, 5: same, 7: { path: "src/other.ts", symbols: [], code: "unrelated" } });
    const hits = index.search("parse config");
    expect(hits.map((h) => h.id)).toEqual([3, 5, 9]);
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
  });

  it("returns at most `limit` hits, the best ones", async () => {
    const index = await indexOf(CODEBASE);
    const all = index.search("password");
    expect(all.length).toBeGreaterThan(3);
    expect(all.map((h) => h.score)).toEqual([...all.map((h) => h.score)].sort((a, b) => b - a));
    expect(index.search("password", { limit: 2 })).toEqual(all.slice(0, 2));
    expect(index.search("password", { limit: 0 })).toEqual([]);
  });
});

describe("FullTextIndex upkeep", () => {
  const QUERIES = ["hashPassword", "hash password", "password", "session token", "auth", "user login", "migrate users", "form"];
  const answers = (index: FullTextIndex) => QUERIES.map((q) => index.search(q));

  it("removes a document: no longer found, and an unknown id is no error", async () => {
    const index = await indexOf(CODEBASE);
    expect(index.size).toBe(6);
    index.remove(1);
    expect(index.has(1)).toBe(false);
    expect(index.size).toBe(5);
    expect(ids(index, "hashPassword")).not.toContain(1);
    index.remove(1);
    index.remove(12345);
    expect(index.size).toBe(5);
  });

  it("scores exactly as if a removed document had never been added", async () => {
    const never = await indexOf(CODEBASE);
    const index = await indexOf(CODEBASE);
    index.add(100, { path: "src/auth/extra.ts", symbols: ["hashPasswordTwice"], code: "function hashPasswordTwice() { /* password password login user */ }" });
    index.add(101, { path: "src/new/words.ts", symbols: ["brandNewWord"], code: "unheardof vocabulary" });
    expect(answers(index)).not.toEqual(answers(never));
    index.remove(100);
    index.remove(101);
    expect(answers(index)).toEqual(answers(never));
    expect(index.search("unheardof")).toEqual([]);
  });

  it("re-indexes a document added again under its id", async () => {
    const index = await indexOf(CODEBASE);
    index.add(4, { path: "src/ui/signupForm.tsx", symbols: ["SignupForm"], code: "export function SignupForm() {}" });
    expect(index.size).toBe(6);
    expect(index.search("LoginForm")).toEqual([]);
    expect(ids(index, "signup form")).toEqual([4]);
    // And back: as if it had never changed.
    index.add(4, CODEBASE[4]!);
    expect(answers(index)).toEqual(answers(await indexOf(CODEBASE)));
  });

  it("stays exact through many removals", async () => {
    const doc = (i: number): FullTextDoc => ({ path: `src/mod${i % 7}/file${i}.ts`, symbols: [`handler${i % 13}`], code: `shared words ${i % 2 ? "odd" : "even"} value${i % 5} common` });
    const index = await emptyIndex();
    for (let i = 1; i <= 3000; i++) index.add(i, doc(i));
    const survivors = await emptyIndex();
    for (let i = 1; i <= 3000; i++) {
      if (i % 6 === 0) survivors.add(i, doc(i));
      else index.remove(i);
    }
    expect(index.size).toBe(500);
    for (const query of ["shared words", "odd", "even common", "handler3", "value4", "mod2", "file42"]) {
      expect(index.search(query), query).toEqual(survivors.search(query));
    }
  });

  it("rejects an id that is not a whole number ≥ 1", async () => {
    const index = await emptyIndex();
    for (const id of [0, -1, 1.5, Number.NaN, Infinity]) expect(() => index.add(id, CODEBASE[1]!)).toThrow(/whole number ≥ 1/);
  });

  it("ranks the right document first among 20,000", async () => {
    // A deterministic generator: the same codebase every run.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const vocabulary = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}`);
    const pick = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!;
    const index = await emptyIndex();
    for (let id = 1; id <= 20_000; id++) {
      const code = Array.from({ length: 24 }, pick).join(" ");
      index.add(id, { path: `src/pkg${id % 50}/mod${id}.ts`, symbols: [`${pick()}Handler`], code });
    }
    index.add(12_345, { path: "src/billing/ledger.ts", symbols: ["reconcileLedgerBalance"], code: `${Array.from({ length: 40 }, pick).join(" ")} balance` });
    index.add(777, { path: "src/billing/notes.ts", symbols: [], code: `${Array.from({ length: 40 }, pick).join(" ")} ledger balance reconcile` });
    expect(index.size).toBe(20_000);
    // Four terms (the identifier whole and its three words): the chunk with the three words apart has
    // three of them, enough to be found, but under the definition.
    expect(ids(index, "reconcileLedgerBalance")).toEqual([12_345, 777]);
    expect(ids(index, "reconcile ledger balance", { limit: 5 })).toEqual([12_345, 777]);
    const common = index.search(vocabulary[0]!, { limit: 10 });
    expect(common).toHaveLength(10);
    expect(common.map((h) => h.score)).toEqual([...common.map((h) => h.score)].sort((a, b) => b - a));
    index.remove(12_345);
    expect(ids(index, "reconcile ledger balance")).toEqual([777]);
  });
});
