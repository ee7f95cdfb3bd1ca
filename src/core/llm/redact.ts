/**
 * The values of the API keys in use, and their removal from text that leaves Kiln: requests to the
 * model, task history, the CLI's output. A command's output (`env`, `cat .env`), an MCP tool's result
 * or a provider's error (a proxy echoing the `Authorization` header) can carry a key; none of those
 * readers needs it, and the model or a log file is not where a key may end up.
 *
 * Tool results go further (redactToolResult): credentials Kiln was never given, recognised by their
 * shape or as the value of a secret-named environment variable, are removed too, unless turned off.
 */

import { redactSecretShapes } from "./secretShapes";

export const REDACTED = "[redacted]";

/** Shorter values are no real key, and replacing them would mangle ordinary text. */
const MIN_SECRET_CHARS = 8;

/** Longest first, so a key that contains another is replaced whole. */
let secrets: string[] = [];

/**
 * Values of the environment's secret-named variables (registerSecretEnvironment): redacted from tool
 * results unless the user turned that off, unlike the keys above, which always are. Same order.
 */
let environmentSecrets: string[] = [];

/** `list` with `value` added (unless too short or known), longest first. */
function withValue(list: string[], value: string | undefined): string[] {
  const trimmed = value?.trim();
  if (!trimmed || trimmed.length < MIN_SECRET_CHARS || list.includes(trimmed)) return list;
  // JSON carries the value escaped: a key with a quote or a backslash would pass in JSON output.
  const forms = [trimmed, JSON.stringify(trimmed).slice(1, -1)];
  return [...new Set([...list, ...forms])].sort((a, b) => b.length - a.length);
}

/** Adds a key's value to what is redacted, for the rest of this process. */
export function registerSecret(value: string | undefined): void {
  // Called for each request (the provider is made per request), mostly with a key already known.
  secrets = withValue(secrets, value);
}

/** `text` with every registered key replaced by [redacted]. */
export function redactSecrets(text: string): string {
  return replaceAll(text, secrets);
}

function replaceAll(text: string, values: readonly string[]): string {
  if (values.length === 0 || !text) return text;
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}

/**
 * The last part of a name that holds a location or a setting about a secret rather than the secret:
 * SSH_AUTH_SOCK, GOOGLE_APPLICATION_CREDENTIALS_FILE, TOKEN_URL. Their values (paths, addresses)
 * show up in ordinary output, where redacting them only confuses the reader.
 */
const NOT_SECRET_LAST_PART = new Set(["FILE", "FILES", "PATH", "DIR", "SOCK", "SOCKET", "HOME", "URL", "URI", "HOST", "ENDPOINT", "NAME", "TYPE", "MODE"]);

/**
 * Whether an environment variable's name says it holds a secret: TOKEN, SECRET, PASSW(OR)D,
 * CREDENTIAL or PASSPHRASE in any part (GITHUB_TOKEN, PGPASSWORD, SECRET_KEY_BASE, npm's _authToken);
 * or a last part that ends in KEY or is AUTH, PASS, PAT, PWD (ANTHROPIC_API_KEY, OPENAI_APIKEY,
 * BASIC_AUTH, SMTP_PASS, MYSQL_PWD). KEY and AUTH elsewhere name other things: GIT_AUTHOR_NAME,
 * AUTH_DOMAIN, KEYBOARD_LAYOUT; PWD alone is the working folder.
 */
export function isSecretName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  const last = parts.at(-1);
  if (!last || NOT_SECRET_LAST_PART.has(last)) return false;
  if (parts.some((part) => /TOKEN|SECRET|PASSW|CREDENTIAL|PASSPHRASE/.test(part))) return true;
  return /KEYS?$/.test(last) || last === "AUTH" || last === "PASS" || last === "PAT" || (last === "PWD" && parts.length > 1);
}

/**
 * Registers the values of `env`'s secret-named variables (isSecretName), at least 8 characters long,
 * for redaction from tool results: a command that prints them (`env`, `echo $DB_PASSWORD`, a stack
 * trace with the connection string) sends them nowhere. Both hosts call it once at start.
 */
export function registerSecretEnvironment(env: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(env)) if (isSecretName(name)) environmentSecrets = withValue(environmentSecrets, value);
}

/**
 * A tool result as the model, the chat and task history get it. The registered keys are always
 * replaced; with `thorough` (kiln.redactSecrets, off with the CLI's --no-redact) also the values of
 * the environment's secret-named variables and every credential of a known shape (secretShapes.ts).
 */
export function redactToolResult(text: string, thorough: boolean): string {
  const keysOut = redactSecrets(text);
  if (!thorough || !keysOut) return keysOut;
  return redactSecretShapes(replaceAll(keysOut, environmentSecrets), REDACTED);
}

/**
 * `value` with every string in it (at any depth of plain objects and arrays) redacted. Returns the
 * same object when nothing changed, so the common case, no key in the text, copies nothing.
 */
export function redactDeep<T>(value: T): T {
  if (secrets.length === 0) return value;
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) {
    const out = value.map(redactValue);
    return out.some((item, i) => item !== value[i]) ? out : value;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    const out = entries.map(([k, v]) => [k, redactValue(v)] as const);
    return out.some(([, v], i) => v !== entries[i]![1]) ? Object.fromEntries(out) : value;
  }
  return value;
}
