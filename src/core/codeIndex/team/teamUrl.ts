/**
 * A team index's server URL (kiln.index.postgresUrl, --index-postgres): checked before anything
 * connects, and shown without its password. Apart from teamDatabase.ts so that a host can check and
 * show one without loading the PostgreSQL driver, which only the index's worker needs.
 */

/** The URL without its password, for messages and status. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/** Checks a team index URL before anything connects: a clear error naming what is wrong. */
export function checkTeamUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The team index URL "${displayUrl(url)}" is not a URL; write it as postgres://user@host:5432/database.`);
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") throw new Error(`The team index URL must start with postgres:// or postgresql://, not ${parsed.protocol}//.`);
  if (!parsed.hostname) throw new Error(`The team index URL "${displayUrl(url)}" names no host.`);
}
