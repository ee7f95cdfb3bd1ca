/**
 * Credentials recognised by their shape, wherever they come from: a `cat .env`, a config file, an MCP
 * result, a page's console. Kiln does not know these values (unlike the API key it was given), so the
 * shape is all there is to go on. Each pattern asks for enough of the real format (prefix, length,
 * character set, mixed case or digits) that code about keys, placeholders like `${TOKEN}` and ordinary
 * words stay as they are.
 *
 * Why not a library: secretlint's recommended rules (the well-kept option on npm) miss OpenAI project
 * keys, AWS key pairs outside its exact layout, Google API keys, Stripe keys, JWTs and bearer headers,
 * and come as an asynchronous, ESM-only linter rather than patterns; this table is small and tested
 * (test/unit/llm/secretShapes.test.ts), one real-looking sample and one near miss per shape.
 *
 * Every quantifier that follows an unbounded run is bounded or anchored on a literal prefix, so a
 * megabyte of base64 in a result costs linear time.
 */
export interface SecretShape {
  name: string;
  /** Global; the named group `secret` is what is replaced when present, else the whole match. */
  pattern: RegExp;
}

/** A run of at least `min` token characters with an upper-case letter and a digit somewhere in it. */
const mixed = (chars: string, min: number) => `(?=[${chars}]{0,300}?[A-Z])(?=[${chars}]{0,300}?\\d)[${chars}]{${min},}`;

/** A newline as text has it, or as JSON and most config formats escape it (`\n` inside a string). */
const NL = String.raw`(?:\r?\n|(?:\\r)?\\n)`;

export const SECRET_SHAPES: readonly SecretShape[] = [
  {
    // The body only: the BEGIN and END lines stay, so the reader still sees what kind of file it was.
    // Headers (Proc-Type, DEK-Info) and base64 lines must follow; a BEGIN line alone (in a parser's
    // source code) is no key. Quoted JSON (a GCP service account file) has `\n` for its newlines.
    name: "private key (PEM)",
    pattern: new RegExp(
      String.raw`(?<pre>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----${NL})(?<secret>(?:[ \t]*[A-Za-z-]+: [^\r\n\\]{0,200}${NL})*(?:[ \t]*${NL})?[ \t]*[A-Za-z0-9+/=]{16,}(?:${NL}[ \t]*[A-Za-z0-9+/=]{4,})*)`,
      "g",
    ),
  },
  { name: "Anthropic API key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "OpenRouter API key", pattern: /\bsk-or-v1-[a-f0-9]{64}\b/g },
  // Legacy keys are sk- and 48 characters, project and service keys far longer, all of mixed case with digits.
  { name: "OpenAI API key", pattern: new RegExp(String.raw`\bsk-(?:proj-|svcacct-|admin-)?${mixed("A-Za-z0-9_-", 32)}`, "g") },
  { name: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { name: "GitHub fine-grained token", pattern: /\bgithub_pat_[A-Za-z0-9_]{50,}\b/g },
  {
    // A secret key is 40 characters of base64, which alone looks like any hash: it is taken where it
    // is labelled, or within a couple of lines after an access key id (the CSV and `aws configure` layouts).
    name: "AWS secret access key",
    pattern: /(?<pre>(?:aws_?)?secret_?access_?key["']?\s{0,10}[:=]\s{0,10}["']?)(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
  },
  {
    name: "AWS secret access key after its key id",
    pattern:
      /(?<pre>\b(?:AKIA|ASIA)[A-Z0-9]{16}\b[^\n]{0,80}?(?:\n[^\n]{0,80}?)?)(?<![A-Za-z0-9/+])(?<secret>(?=[A-Za-z0-9/+]{0,40}[a-z])(?=[A-Za-z0-9/+]{0,40}[A-Z])[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
  },
  { name: "AWS access key id", pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { name: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: "Slack token", pattern: /\bxox[abprs]-(?:[0-9]{1,20}-){1,3}[A-Za-z0-9-]{10,}/g },
  // Secret and restricted keys; the publishable pk_ keys are meant to be public.
  { name: "Stripe secret key", pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { name: "JSON Web Token", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
  {
    // The credential of an Authorization header, with or without its scheme, in a header, curl -H or
    // JSON. A digit is required: an identifier in code (`Authorization: authHeader`) has none.
    name: "Authorization header",
    pattern: /(?<pre>\b(?:Proxy-)?Authorization["']?\s{0,10}[:=]\s{0,10}["']?(?:(?:Bearer|Basic|Token|Bot|Digest)\s{1,10})?)(?<secret>(?=[A-Za-z0-9._~+/-]{0,300}?\d)[A-Za-z0-9._~+/-]{8,}=*)/gi,
  },
  { name: "bearer token", pattern: /(?<pre>\bBearer\s{1,10})(?<secret>(?=[A-Za-z0-9._~+/-]{0,300}?\d)[A-Za-z0-9._~+/-]{20,}=*)/g },
  {
    // scheme://user:password@host: the user and host stay. A placeholder (`${DB_PASSWORD}`, `<pass>`) is no password.
    name: "password in a URL",
    pattern: /(?<pre>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s:@/?#"'<>]{1,256}:)(?<secret>(?![$<{])[^\s@/?#"'<>]{1,256})(?=@)/g,
  },
];

/**
 * Whether a field's name says it holds a credential: apiKey, token, clientSecret, password. A name
 * that ends in another word (keyFile, apiKeyEnv) names where one is, and counted tokens (maxTokens)
 * are no token.
 */
export function isCredentialName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words.at(-1) ?? "";
  return ["key", "keys", "apikey"].includes(last) || words.some((w) => ["token", "secret", "secrets", "password", "passwd", "passphrase", "credential", "credentials", "authorization"].includes(w));
}

/** The name of the credential shape a value has, if any; the value itself is never said. */
export function credentialShape(value: string): string | undefined {
  for (const shape of SECRET_SHAPES) {
    shape.pattern.lastIndex = 0;
    const found = shape.pattern.test(value);
    shape.pattern.lastIndex = 0;
    if (found) return shape.name;
  }
  return undefined;
}

/** `text` with every credential of a known shape replaced by `mark` (redact.ts passes [redacted]). */
export function redactSecretShapes(text: string, mark: string): string {
  let out = text;
  for (const { pattern } of SECRET_SHAPES) {
    pattern.lastIndex = 0;
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      // With named groups, the last argument is their object; without, it is the whole input.
      const last = rest.at(-1);
      const groups = typeof last === "object" ? (last as Record<string, string | undefined>) : undefined;
      if (groups?.secret === undefined) return mark;
      // The named groups cover the match from its start: what follows the secret is left as it was.
      const pre = groups.pre ?? "";
      return `${pre}${mark}${match.slice(pre.length + groups.secret.length)}`;
    });
  }
  return out;
}
