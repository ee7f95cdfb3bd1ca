import { describe, expect, it } from "vitest";
import { isSecretName, redactToolResult, registerSecret, registerSecretEnvironment } from "../../../src/core/llm/redact";
import { redactSecretShapes, SECRET_SHAPES } from "../../../src/core/llm/secretShapes";

const redact = (text: string) => redactSecretShapes(text, "[redacted]");

// The samples are put together from pieces, so that secret scanners (push protection, the test
// itself when it reads this file) do not take this file for a leak.
const join = (...parts: string[]) => parts.join("");
const BASE62 = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ9rS1tU3vW5xY7zA9bC1dE3fG5hJ7kL9mN1pQ";

/** For each shape: a real-looking credential in context, what is left of it, and a near miss that must stay. */
const CASES: { shape: string; also?: string[]; sample: string; redacted: string; nearMiss: string }[] = [
  {
    shape: "Anthropic API key",
    sample: `ANTHROPIC_API_KEY=${join("sk-ant-", "api03-", BASE62, "-AbCdEfAA")}`,
    redacted: "ANTHROPIC_API_KEY=[redacted]",
    nearMiss: "keys start with sk-ant-api03-… (see the console)",
  },
  {
    shape: "OpenAI API key",
    sample: `key: ${join("sk-", "proj-", BASE62.slice(0, 40), "T3BlbkFJ", BASE62.slice(0, 40))}`,
    redacted: "key: [redacted]",
    nearMiss: "git checkout sk-reduce-memory-usage-in-the-test-suite-2",
  },
  {
    shape: "OpenAI API key",
    sample: `openai.api_key = "${join("sk-", BASE62.slice(0, 20), "T3BlbkFJ", BASE62.slice(20, 40))}"`,
    redacted: 'openai.api_key = "[redacted]"',
    nearMiss: "sk-1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed is a lower-case id",
  },
  {
    shape: "OpenRouter API key",
    sample: `Authorization header from ${join("sk-or-v1-", "0123456789abcdef".repeat(4))} here`,
    redacted: "Authorization header from [redacted] here",
    nearMiss: "sk-or-v1-0123456789abcdef-custom",
  },
  {
    shape: "GitHub token",
    sample: `remote: https://x-access-token:${join("ghs_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")}@github.com/o/r.git\n${join("gho_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")}`,
    redacted: "remote: https://x-access-token:[redacted]@github.com/o/r.git\n[redacted]",
    nearMiss: "export GH=ghp_example and ghp_ are prefixes",
  },
  {
    shape: "GitHub token",
    sample: `token ${join("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")}.`,
    redacted: "token [redacted].",
    nearMiss: "ghp_A1b2C3d4E5f6 is too short to be one",
  },
  {
    shape: "GitHub fine-grained token",
    sample: join("github_pat_", "11ABCDEFG0123456789abc_", "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW"),
    redacted: "[redacted]",
    nearMiss: "github_pat_ tokens are fine-grained",
  },
  {
    shape: "AWS secret access key",
    also: ["AWS access key id"],
    sample: join("[default]\naws_access_key_id = AKIA", "2E0A8F3B244C9986\naws_secret_access_key = ", "7CE556A3BC234cC1FF9E8A5C324C0BB70aa21B6D\n"),
    redacted: "[default]\naws_access_key_id = [redacted]\naws_secret_access_key = [redacted]\n",
    nearMiss: "AKIA keys are 20 characters; AKIAEXAMPLE is not one, nor is akia2e0a8f3b244c9986",
  },
  {
    // The layout of the CSV file the AWS console offers.
    shape: "AWS secret access key after its key id",
    sample: join("Access key ID,Secret access key\nAKIA", "2E0A8F3B244C9986,", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"),
    redacted: "Access key ID,Secret access key\n[redacted],[redacted]\n",
    nearMiss: "Access key ID,Secret access key\nAKIA…,wJalr…",
  },
  {
    shape: "Google API key",
    sample: `const maps = "${join("AIza", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q")}";`,
    redacted: 'const maps = "[redacted]";',
    nearMiss: "AIzaSy is how Google keys start",
  },
  {
    shape: "Slack token",
    sample: `SLACK=${join("xoxb-", "123456789012-1234567890123-", "AbCdEfGhIjKlMnOpQrStUvWx")}`,
    redacted: "SLACK=[redacted]",
    nearMiss: "xoxb- tokens are bot tokens; xoxz-123456789012-abcdefghijkl is no kind of Slack token",
  },
  {
    shape: "Stripe secret key",
    sample: `stripe.api_key = ${join("sk_", "live_", "51HqLyjWDarjtT1zdp7dcXYZabcdefghijklmnop")}`,
    redacted: "stripe.api_key = [redacted]",
    // The publishable key is public by design.
    nearMiss: "pk_live_51HqLyjWDarjtT1zdp7dcXYZabcdefghijklmnop",
  },
  {
    shape: "private key (PEM)",
    sample: join(
      "-----BEGIN RSA ",
      "PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n",
      "MIIEowIBAAKCAQEAx0Yw6Yt8nRZ9K3zQ\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUA\nabc=\n-----END RSA PRIVATE KEY-----\nafter",
    ),
    redacted: "-----BEGIN RSA PRIVATE KEY-----\n[redacted]\n-----END RSA PRIVATE KEY-----\nafter",
    // A PEM parser's source names the header without any key after it.
    nearMiss: 'if (text.startsWith("-----BEGIN PRIVATE KEY-----\\n")) return parse(text);',
  },
  {
    // A GCP service account file: JSON escapes the newlines.
    shape: "private key (PEM)",
    sample: join('{"type": "service_account", "private_key": "-----BEGIN ', 'PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\\nggSjAgEAAoIBAQC7==\\n-----END PRIVATE KEY-----\\n"}'),
    redacted: '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n[redacted]\\n-----END PRIVATE KEY-----\\n"}',
    nearMiss: "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----",
  },
  {
    shape: "JSON Web Token",
    sample: `cookie: session=${join("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")}; Path=/`,
    redacted: "cookie: session=[redacted]; Path=/",
    // A JWT's header alone is base64 of public JSON.
    nearMiss: "the header eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 says HS256",
  },
  {
    shape: "Authorization header",
    sample: "curl -H 'Authorization: Bearer abcdef0123456789xyz' -H \"authorization: token 9f8e7d6c5b4a\" https://api.example.com",
    redacted: "curl -H 'Authorization: Bearer [redacted]' -H \"authorization: token [redacted]\" https://api.example.com",
    // Code that builds the header names a variable, not a credential.
    nearMiss: 'fetch(url, { headers: { Authorization: authHeader } }); curl -H "Authorization: Bearer ${TOKEN}"',
  },
  {
    shape: "bearer token",
    sample: `{"token_type": "Bearer", "header": "Bearer ${join("ya29.", "a0AfH6SMBx3dE5fG7hJ9kL1mN3pQ5rS7")}"}`,
    redacted: '{"token_type": "Bearer", "header": "Bearer [redacted]"}',
    nearMiss: "Bearer tokens are sent in the Authorization header by the client",
  },
  {
    shape: "password in a URL",
    sample: "DATABASE_URL=postgres://admin:hunter2secret@db.example.com:5432/app",
    redacted: "DATABASE_URL=postgres://admin:[redacted]@db.example.com:5432/app",
    nearMiss: "open https://example.com:8080/path?user=a@b.c, mail admin@example.com, or postgres://u:${DB_PASSWORD}@db/app",
  },
];

describe("credentials of a known shape", () => {
  it.each(CASES)("$shape: redacted, and a near miss stays", ({ sample, redacted, nearMiss }) => {
    expect(redact(sample)).toBe(redacted);
    expect(redact(nearMiss)).toBe(nearMiss);
  });

  it("covers every shape in the table with a case", () => {
    const tested = new Set(CASES.flatMap((c) => [c.shape, ...(c.also ?? [])]));
    expect(SECRET_SHAPES.map((s) => s.name).filter((name) => !tested.has(name))).toEqual([]);
  });

  it("leaves a 40-character commit hash beside an access key id: a secret key has mixed case", () => {
    const hash = "4f9c1e2b3a7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f";
    expect(redact(`${join("AKIA", "2E0A8F3B244C9986")} was added in ${hash}`)).toBe(`[redacted] was added in ${hash}`);
  });

  it("is idempotent: a result redacted twice reads the same", () => {
    for (const { sample } of CASES) expect(redact(redact(sample))).toBe(redact(sample));
  });

  it("takes linear time on a large result with long runs that almost match", () => {
    const big = `${"A".repeat(1_000_000)} sk-${"aZ0".repeat(50_000)} https://${"u".repeat(50_000)} ${"-----BEGIN PRIVATE KEY-----\n".repeat(1_000)}`;
    const started = performance.now();
    redact(big);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("secret-named environment variables", () => {
  it.each([
    "GITHUB_TOKEN",
    "ANTHROPIC_API_KEY",
    "OPENAI_APIKEY",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "PGPASSWORD",
    "DB_PASSWORD",
    "SECRET_KEY_BASE",
    "BASIC_AUTH",
    "SMTP_PASS",
    "GITHUB_PAT",
    "MYSQL_PWD",
    "npm_config__authToken",
    "clientSecret",
    "GPG_PASSPHRASE",
    "AZURE_CREDENTIALS",
  ])("%s is secret", (name) => expect(isSecretName(name)).toBe(true));

  it.each(["PATH", "HOME", "PWD", "OLDPWD", "GIT_AUTHOR_NAME", "AUTH_DOMAIN", "SSH_AUTH_SOCK", "GIT_ASKPASS", "KEYBOARD_LAYOUT", "XAUTHORITY", "TOKEN_URL", "SECRETS_DIR", "AWS_ACCESS_KEY_ID"])(
    "%s is not",
    (name) => expect(isSecretName(name)).toBe(false),
  );
});

describe("redactToolResult", () => {
  // Module state: this file's values, registered once (as the hosts do at start).
  const KEY = join("my-llm-", "key-", "0123456789");
  const DB_PASSWORD = "correct-horse-battery";
  const TOKEN = join("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
  registerSecret(KEY);
  registerSecretEnvironment({ DB_PASSWORD, GIT_AUTHOR_NAME: "Ada Lovelace Byron", SHORT_TOKEN: "abc", PATH: "/usr/local/bin:/usr/bin" });
  const output = `key=${KEY} db=${DB_PASSWORD} gh=${TOKEN} author=Ada Lovelace Byron short=abc path=/usr/local/bin:/usr/bin`;

  it("replaces the API key, secret-named variables' values (8 characters or more) and key shapes; other values stay", () => {
    expect(redactToolResult(output, true)).toBe("key=[redacted] db=[redacted] gh=[redacted] author=Ada Lovelace Byron short=abc path=/usr/local/bin:/usr/bin");
  });

  it("with redaction off replaces only the API key", () => {
    expect(redactToolResult(output, false)).toBe(`key=[redacted] db=${DB_PASSWORD} gh=${TOKEN} author=Ada Lovelace Byron short=abc path=/usr/local/bin:/usr/bin`);
  });

  it("finds a variable's value where JSON escaped it", () => {
    registerSecretEnvironment({ SERVICE_SECRET: 'quote"and\\slash' });
    expect(redactToolResult(JSON.stringify({ value: 'quote"and\\slash' }), true)).toBe('{"value":"[redacted]"}');
  });
});
