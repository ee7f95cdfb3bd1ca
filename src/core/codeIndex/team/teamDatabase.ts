import type { Pool, PoolClient, QueryResultRow } from "pg";
import { registerSecret } from "../../llm/redact";
import { checkTeamUrl, displayUrl } from "./teamUrl";

/**
 * A team's codebase index on a PostgreSQL server: the tables every workspace of every repository
 * shares (rows keyed by teamScope.ts's scope), made on first connection by whoever comes first, and
 * the connection itself, through node-postgres (the wire protocol, TLS and SCRAM authentication are
 * not Kiln's craft). pgvector, where the server has it, holds the vectors; without it the index ranks
 * by words alone and says so.
 */

/** Bumped whenever the tables change shape; a server whose tables a newer Kiln made is refused, not altered. */
export const TEAM_SCHEMA_VERSION = 1;
/** One connection does the index's work (reads and writes in order); one more lets a search run during a refresh. */
const POOL_SIZE = 2;
const CONNECT_TIMEOUT_MS = 10_000;
/** Held while the tables are made, so two first clients do not make them at once. */
const SCHEMA_LOCK = 7_305_061_961;

const TABLES = [
  "CREATE TABLE IF NOT EXISTS kiln_index_meta (key text PRIMARY KEY, value text NOT NULL)",
  // Each scope's files as last indexed, by whom does not matter: the newest change wins (teamIndex.ts).
  `CREATE TABLE IF NOT EXISTS kiln_index_files (
     scope text NOT NULL, path text NOT NULL, hash text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (scope, path))`,
  // The chunks, with each field's words as terms.ts cuts them (what bm25f.ts scores) and a tsvector of
  // them (symbols weighted A, path B, code D) that finds the candidates through a GIN index.
  `CREATE TABLE IF NOT EXISTS kiln_index_chunks (
     id bigserial PRIMARY KEY, scope text NOT NULL, path text NOT NULL,
     start_line integer NOT NULL, end_line integer NOT NULL, kind text NOT NULL, symbols text NOT NULL, hash text NOT NULL,
     code_words text NOT NULL, symbol_words text NOT NULL, path_words text NOT NULL,
     code_len integer NOT NULL, symbols_len integer NOT NULL, path_len integer NOT NULL,
     words tsvector GENERATED ALWAYS AS (
       setweight(to_tsvector('simple', symbol_words), 'A') || setweight(to_tsvector('simple', path_words), 'B') || to_tsvector('simple', code_words)) STORED)`,
  "CREATE INDEX IF NOT EXISTS kiln_index_chunks_words ON kiln_index_chunks USING gin (words)",
  "CREATE INDEX IF NOT EXISTS kiln_index_chunks_path ON kiln_index_chunks (scope, path)",
  // Vectors are shared by every scope with the same chunk text; pruning asks which no chunk has.
  "CREATE INDEX IF NOT EXISTS kiln_index_chunks_hash ON kiln_index_chunks (hash)",
  // Each term's document frequency per scope, kept with every change (as SQLite's fts5vocab gives
  // it): counting a common term's rows at each search took most of a search's time.
  "CREATE TABLE IF NOT EXISTS kiln_index_terms (scope text NOT NULL, term text NOT NULL, df integer NOT NULL, PRIMARY KEY (scope, term))",
  // BM25F's chunk count and field lengths per scope, kept with every change. Its row is also the
  // scope's write lock: a writer takes it first, so two writers of one scope go one after the other.
  `CREATE TABLE IF NOT EXISTS kiln_index_totals (
     scope text PRIMARY KEY, docs bigint NOT NULL DEFAULT 0, code bigint NOT NULL DEFAULT 0, symbols bigint NOT NULL DEFAULT 0, path bigint NOT NULL DEFAULT 0)`,
];

/** Where the team index is, and how to sign in beyond what the URL says. */
export interface TeamConnection {
  /** postgres://user@host:port/database?sslmode=…; a password in it works but is better kept out (below). */
  url: string;
  /** From the editor's SecretStorage; otherwise the URL's, PGPASSWORD's or ~/.pgpass's, as psql would. */
  password?: string;
}

export class TeamDatabase {
  private constructor(
    private readonly pool: Pool,
    /** The server has pgvector (or let Kiln create it): vectors can be kept. */
    readonly hasVectors: boolean,
    /** The server as messages name it (no password). */
    readonly server: string,
  ) {}

  /**
   * Connects, makes the tables where they are missing and checks their version. Fails with a message
   * a user can act on: unreachable, refused password, no such database, tables of a newer Kiln.
   * `problems` gets what works less well than it could (no pgvector).
   */
  static async connect(connection: TeamConnection, problems: string[]): Promise<TeamDatabase> {
    checkTeamUrl(connection.url);
    const server = displayUrl(connection.url);
    if (connection.password) registerSecret(connection.password);
    registerSecret(safePassword(connection.url));
    const { default: pg } = await import("pg");
    const pool = new pg.Pool({
      // In the URL: node-postgres lets the connection string's fields override the options, a
      // missing password included.
      connectionString: connection.password ? withPassword(connection.url, connection.password) : connection.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: "kiln-codebase-index",
    });
    // An idle connection the server dropped would otherwise be an unhandled 'error' event.
    pool.on("error", () => undefined);
    try {
      const hasVectors = await prepareTables(pool, problems, server);
      return new TeamDatabase(pool, hasVectors, server);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new Error(`The team index at ${server} cannot be used: ${describePgError(err)}`);
    }
  }

  async query<R extends QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (err) {
      throw new Error(`The team index at ${this.server}: ${describePgError(err)}`);
    }
  }

  /** Runs `work` in one transaction on one connection: committed whole, or rolled back on any throw. */
  async transaction<T>(work: (client: TeamClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new Error(`The team index at ${this.server}: ${describePgError(err)}`);
    }
    try {
      await client.query("BEGIN");
      const result = await work({ query: async (sql, params = []) => (await client.query(sql, params)).rows });
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err instanceof Error && err.message.startsWith("The team index") ? err : new Error(`The team index at ${this.server}: ${describePgError(err)}`);
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** One connection inside a transaction. */
export interface TeamClient {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

/** Makes the tables (once per server, under a lock) and says whether vectors can be kept. */
async function prepareTables(pool: Pool, problems: string[], server: string): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [SCHEMA_LOCK]);
    try {
      const version = await client
        .query<{ value: string }>("SELECT value FROM kiln_index_meta WHERE key = 'schema'")
        .then((r) => Number(r.rows[0]?.value))
        .catch(() => undefined);
      if (version !== undefined && version > TEAM_SCHEMA_VERSION)
        throw new Error(`its tables are version ${version}, made by a newer Kiln; this one reads version ${TEAM_SCHEMA_VERSION} (update Kiln)`);
      for (const sql of TABLES) await client.query(sql);
      await client.query("INSERT INTO kiln_index_meta (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO NOTHING", [String(TEAM_SCHEMA_VERSION)]);
      return await prepareVectors(client, problems, server);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [SCHEMA_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}

/** pgvector's table, where the server has the extension or lets this user create it. */
async function prepareVectors(client: PoolClient, problems: string[], server: string): Promise<boolean> {
  const installed = (await client.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).rowCount! > 0;
  if (!installed) {
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    } catch (err) {
      problems.push(`the team index at ${server} keeps no vectors: pgvector is not available there (${describePgError(err)}); codebase_search ranks by words alone`);
      return false;
    }
  }
  // Any dimension: the embedder decides it, and vectors of another embedder are another embedder's rows.
  await client.query("CREATE TABLE IF NOT EXISTS kiln_index_vectors (embedder text NOT NULL, hash text NOT NULL, embedding vector NOT NULL, PRIMARY KEY (embedder, hash))");
  return true;
}

/** A driver or server error as a sentence a user can act on. */
export function describePgError(err: unknown): string {
  const e = err as { code?: string; message?: string; address?: string; port?: number; errors?: unknown[] };
  const message = e?.message ?? String(err);
  switch (e?.code) {
    case "ECONNREFUSED":
      return `nothing answers at ${e.address ?? "the server"}${e.port ? `:${e.port}` : ""} (connection refused); is PostgreSQL running there?`;
    case "ENOTFOUND":
      return `the host is not known (${message})`;
    case "28P01":
      return `the server refused the password (${message}); set it with the team index password command, PGPASSWORD or ~/.pgpass`;
    case "28000":
      return `the server does not let this user in (${message})`;
    case "3D000":
      return `${message}; create it first (createdb) or name another one in the URL`;
    case "42501":
      return `this user may not make Kiln's tables (${message}); ask the server's owner to grant CREATE on the database, or to run Kiln once as a user who may`;
  }
  if (e?.errors && Array.isArray(e.errors) && e.errors.length > 0) return describePgError(e.errors[0]);
  // node-postgres's words when the server asks for a password (SCRAM) and none was given.
  if (/client password must be a string/.test(message)) return "the server asks for a password and none is set; set it with the team index password command, PGPASSWORD or ~/.pgpass";
  if (/timeout/i.test(message)) return `the server did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (${message})`;
  return message;
}

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

function safePassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
