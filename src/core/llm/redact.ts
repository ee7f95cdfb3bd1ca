/**
 * The values of the API keys in use, and their removal from text that leaves Kiln: requests to the
 * model, task history, the CLI's output. A command's output (`env`, `cat .env`), an MCP tool's result
 * or a provider's error (a proxy echoing the `Authorization` header) can carry a key; none of those
 * readers needs it, and the model or a log file is not where a key may end up.
 */

export const REDACTED = "[redacted]";

/** Shorter values are no real key, and replacing them would mangle ordinary text. */
const MIN_SECRET_CHARS = 8;

/** Longest first, so a key that contains another is replaced whole. */
let secrets: string[] = [];

/** Adds a key's value to what is redacted, for the rest of this process. */
export function registerSecret(value: string | undefined): void {
  const trimmed = value?.trim();
  // Called for each request (the provider is made per request), mostly with a key already known.
  if (!trimmed || trimmed.length < MIN_SECRET_CHARS || secrets.includes(trimmed)) return;
  // JSON carries the value escaped: a key with a quote or a backslash would pass in JSON output.
  const forms = [trimmed, JSON.stringify(trimmed).slice(1, -1)];
  secrets = [...new Set([...secrets, ...forms])].sort((a, b) => b.length - a.length);
}

/** `text` with every registered key replaced by [redacted]. */
export function redactSecrets(text: string): string {
  if (secrets.length === 0 || !text) return text;
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
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
