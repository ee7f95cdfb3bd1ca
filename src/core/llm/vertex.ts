import { createPrivateKey, createSign } from "node:crypto";
import { readFile } from "node:fs/promises";
import * as l10n from "@vscode/l10n";
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { GoogleGenAI } from "@google/genai";
import { AuthClient, GoogleAuth, type gaxios } from "google-auth-library";
import { z } from "zod";
import { providerEntry } from "../../shared/providerCatalog";
import { AnthropicProvider } from "./anthropic";
import { ProviderError, toProviderError } from "./errors";
import { registerSecret } from "./redact";
import { GeminiProvider } from "./gemini";
import { RequestWatch, type StreamTimeouts } from "./requestWatch";
import type { LlmRequest, ModelListing, Provider, ResolvedProviderConfig, StreamEvent } from "./types";

/**
 * Google Vertex AI: Claude through `@anthropic-ai/vertex-sdk` (Anthropic's Messages API at
 * `projects/{p}/locations/{l}/publishers/anthropic/models/{model}:streamRawPredict`) and Gemini
 * through `@google/genai` with `vertexai: true` (`…/publishers/google/models/{model}:streamGenerateContent`).
 * The model id picks the family: ids starting with "claude" are Claude, everything else Gemini.
 * The streaming itself is AnthropicProvider's and GeminiProvider's, handed a Vertex client.
 *
 * Credentials: a service account key file from the profile (signed JWT exchanged at the file's
 * token_uri), else Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, the gcloud
 * login, the metadata server). One OAuth client serves both SDKs.
 */

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** Google's documented body version for Claude on Vertex; the SDK would otherwise copy Anthropic's API version header. */
const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";
/**
 * Pinned (the SDK's Vertex default) so GOOGLE_GENAI_API_VERSION changes nothing: function
 * declarations as JSON schema and thought summaries are served there.
 */
const GEMINI_API_VERSION = "v1beta1";
/**
 * Where a model runs when neither the profile nor GOOGLE_CLOUD_LOCATION says: Claude is served in
 * a few regions (us-east5 has them all; newer ones also in "global"), current Gemini models on the
 * global endpoint (Gemini 3 previews only there).
 */
const DEFAULT_CLAUDE_REGION = "us-east5";
const DEFAULT_GEMINI_LOCATION = "global";
/** A token is fetched again this long before it expires, so none runs out mid-request. */
const TOKEN_MARGIN_MS = 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Vertex has no per-project list of the publisher models it serves; these are the ones known to
 * be there (window and prices come from the built-in table by id).
 */
const KNOWN_MODELS: readonly ModelListing[] = [
  { id: "claude-sonnet-4-5@20250929", name: "Claude Sonnet 4.5" },
  { id: "claude-opus-4-5@20251101", name: "Claude Opus 4.5" },
  { id: "claude-haiku-4-5@20251001", name: "Claude Haiku 4.5" },
  { id: "claude-opus-4-1@20250805", name: "Claude Opus 4.1" },
  { id: "claude-sonnet-4@20250514", name: "Claude Sonnet 4" },
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro" },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash" },
  { id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash-Lite" },
  { id: "gemini-3-pro-preview", name: "Gemini 3 Pro Preview" },
];

function providerName(): string {
  return providerEntry("vertex").label;
}

export type VertexFamily = "claude" | "gemini";

export function vertexFamily(model: string): VertexFamily {
  return model.trim().toLowerCase().startsWith("claude") ? "claude" : "gemini";
}

const serviceAccountSchema = z.looseObject({
  type: z.literal("service_account"),
  client_email: z.string().min(3).max(500),
  private_key: z.string().min(1).max(20_000),
  private_key_id: z.string().max(200).optional(),
  project_id: z.string().min(1).max(200).optional(),
  token_uri: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});

interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  keyId?: string;
  projectId?: string;
  tokenUri: string;
}

function badKeyFile(keyFile: string, why: string): ProviderError {
  return new ProviderError("config", l10n.t("The Google Cloud key file {0} cannot be used ({1}). Set the path of a service account key (JSON) in the profile.", keyFile, why));
}

/**
 * The key file as a service account, or the parsed JSON of another credential type (an
 * authorized_user or external_account file), which google-auth-library knows how to use.
 * No message repeats the file's content: it holds a private key.
 */
async function readKeyFile(keyFile: string): Promise<ServiceAccount | { other: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(keyFile, "utf8");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw badKeyFile(keyFile, typeof code === "string" ? code : "unreadable");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse quotes the text around the error, which may be the key itself.
    throw badKeyFile(keyFile, "not JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw badKeyFile(keyFile, "not a JSON object");
  const record = json as Record<string, unknown>;
  if (record.type !== "service_account") return { other: record };
  const account = serviceAccountSchema.safeParse(record);
  if (!account.success) throw badKeyFile(keyFile, `missing or invalid ${account.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  try {
    createPrivateKey(account.data.private_key);
  } catch {
    throw badKeyFile(keyFile, "private_key is not a PEM private key");
  }
  return {
    clientEmail: account.data.client_email,
    privateKey: account.data.private_key,
    keyId: account.data.private_key_id,
    projectId: account.data.project_id,
    tokenUri: account.data.token_uri ?? GOOGLE_TOKEN_URI,
  };
}

const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1).max(10_000),
  expires_in: z
    .number()
    .positive()
    .max(86_400 * 7)
    .optional(),
});
const tokenErrorSchema = z.looseObject({ error: z.string().max(200), error_description: z.string().max(500).optional() });

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/**
 * A service account's access tokens by the JWT bearer grant (RFC 7523) at the key file's own
 * token_uri, which google-auth-library's JWT client ignores (it always posts to Google's).
 */
class ServiceAccountClient extends AuthClient {
  private token: { value: string; expiresAt: number } | undefined;
  private fetching: Promise<string> | undefined;

  constructor(
    private readonly account: ServiceAccount,
    private readonly keyFile: string,
  ) {
    super();
    this.projectId = account.projectId;
  }

  override async getAccessToken(): Promise<{ token: string }> {
    return { token: await this.accessToken() };
  }

  override async getRequestHeaders(): Promise<Headers> {
    return new Headers({ authorization: `Bearer ${await this.accessToken()}` });
  }

  override async request<T>(options: gaxios.GaxiosOptions): Promise<gaxios.GaxiosResponse<T>> {
    const headers = new Headers(options.headers);
    headers.set("authorization", `Bearer ${await this.accessToken()}`);
    return this.transporter.request<T>({ ...options, headers });
  }

  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - TOKEN_MARGIN_MS > Date.now()) return Promise.resolve(this.token.value);
    // Concurrent requests share one exchange.
    this.fetching ??= this.exchange().finally(() => (this.fetching = undefined));
    return this.fetching;
  }

  private async exchange(): Promise<string> {
    const { clientEmail, privateKey, keyId, tokenUri } = this.account;
    const issuedAt = Math.floor(Date.now() / 1000);
    const unsigned = `${base64UrlJson({ alg: "RS256", typ: "JWT", ...(keyId ? { kid: keyId } : {}) })}.${base64UrlJson({
      iss: clientEmail,
      scope: CLOUD_PLATFORM_SCOPE,
      aud: tokenUri,
      iat: issuedAt,
      exp: issuedAt + 3600,
    })}`;
    const assertion = `${unsigned}.${createSign("RSA-SHA256").update(unsigned).sign(privateKey, "base64url")}`;
    let response: Response;
    try {
      response = await fetch(tokenUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: unknown } }).cause?.code;
      const why = typeof cause === "string" ? cause : err instanceof Error ? err.message : String(err);
      throw new ProviderError("network", l10n.t("Could not reach Google's token endpoint {0} ({1}). Check the network.", tokenUri, why));
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const refusal = tokenErrorSchema.safeParse(body);
      const detail = refusal.success ? [refusal.data.error, refusal.data.error_description].filter(Boolean).join(": ") : `HTTP ${response.status}`;
      throw new ProviderError(
        "auth",
        l10n.t("Google refused the service account key {0} (HTTP {1}: {2}). Check that the key is still valid, or create a new one.", this.keyFile, response.status, detail),
        response.status,
      );
    }
    const token = tokenResponseSchema.safeParse(body);
    if (!token.success) throw new ProviderError("auth", l10n.t("Google's token endpoint {0} sent an answer Kiln could not read.", tokenUri));
    // A bearer token is a key for its hour: cut out of whatever a server or a tool echoes back.
    registerSecret(token.data.access_token);
    this.token = { value: token.data.access_token, expiresAt: Date.now() + (token.data.expires_in ?? 3600) * 1000 };
    return token.data.access_token;
  }
}

interface Session {
  auth: AuthClient;
  provider: Provider;
}

/** Vertex's Claude and Gemini models, the family chosen by the model id. Constructed as `new VertexProvider(config)`. */
export class VertexProvider implements Provider {
  readonly kind = "vertex" as const;
  readonly model: string;
  readonly baseUrl: string;
  readonly family: VertexFamily;
  private readonly config: ResolvedProviderConfig;
  private readonly timeouts: StreamTimeouts;
  /** Set once credentials and project were found; a failure leaves it unset, so the next request looks again. */
  private session: Session | undefined;
  private opening: Promise<Session> | undefined;

  constructor(config: ResolvedProviderConfig) {
    this.config = config;
    this.model = config.model;
    this.baseUrl = config.baseUrl;
    this.timeouts = config.timeouts;
    this.family = vertexFamily(config.model);
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    const session = await this.ready(request.signal);
    try {
      yield* session.provider.stream(request);
    } catch (err) {
      // The model's endpoint took a token and refused it: Google credentials, not an API key, are the way out.
      if (!(err instanceof ProviderError) || err.kind !== "auth") throw err;
      const keyFile = this.config.keyFile?.trim();
      const detail = err.providerDetail ?? err.message;
      throw new ProviderError(
        "auth",
        keyFile
          ? l10n.t("{0} refused the token of the key file {1} (HTTP {2}: {3}). Check the key file in the profile.", providerName(), keyFile, err.status ?? 401, detail)
          : l10n.t('{0} refused the Application Default Credentials (HTTP {1}: {2}). Run "gcloud auth application-default login" again.', providerName(), err.status ?? 401, detail),
        err.status,
        undefined,
        err.providerDetail,
      );
    }
  }

  /** Vertex lists no publisher models per project: the known ones. */
  listModels(): Promise<ModelListing[]> {
    return Promise.resolve(KNOWN_MODELS.map((m) => ({ ...m })));
  }

  /** The session, with a token that is good now: a failure to get one is told apart from the model's own errors. */
  private async ready(signal: AbortSignal | undefined): Promise<Session> {
    const name = providerName();
    const watch = new RequestWatch(signal, this.timeouts, name);
    try {
      return await watch.guard(this.authorized());
    } catch (err) {
      throw toProviderError(watch.failure(err), name);
    } finally {
      watch.dispose();
    }
  }

  private async authorized(): Promise<Session> {
    if (!this.session) {
      this.opening ??= this.open().finally(() => (this.opening = undefined));
      this.session = await this.opening;
    }
    await authorize(this.session.auth, this.config.keyFile?.trim());
    return this.session;
  }

  private async open(): Promise<Session> {
    const auth = await this.credentials();
    await authorize(auth, this.config.keyFile?.trim());
    const project = this.config.project?.trim() || env("GOOGLE_CLOUD_PROJECT") || auth.projectId || auth.quotaProjectId;
    if (!project) {
      throw new ProviderError("config", l10n.t("No Google Cloud project is set for {0}. Set the project in the profile (or GOOGLE_CLOUD_PROJECT in the environment).", providerName()));
    }
    const location = this.config.region?.trim() || env("GOOGLE_CLOUD_LOCATION") || (this.family === "claude" ? DEFAULT_CLAUDE_REGION : DEFAULT_GEMINI_LOCATION);
    // One root for both SDKs: the Anthropic one wants the version in its base URL, GenAI adds its own.
    const root = this.config.baseUrl.replace(/\/+$/, "").replace(/\/(v1|v1beta1)$/, "");
    const host = { providerName: providerName() };
    if (this.family === "claude") {
      const client = new AnthropicVertex({
        projectId: project,
        region: location,
        ...(root ? { baseURL: `${root}/v1` } : {}),
        authClient: auth,
        // Retries belong to the loop (it shows them and honours Retry-After), not to the SDK.
        maxRetries: 0,
        defaultHeaders: { "anthropic-version": VERTEX_ANTHROPIC_VERSION },
      });
      return { auth, provider: new AnthropicProvider("", this.model, { baseUrl: this.baseUrl, timeouts: this.timeouts, host: { ...host, client }, reasoning: this.config }) };
    }
    const client = new GoogleGenAI({
      vertexai: true,
      project,
      location,
      apiVersion: GEMINI_API_VERSION,
      googleAuthOptions: { authClient: auth, scopes: [CLOUD_PLATFORM_SCOPE] },
      // No retryOptions: retries belong to the loop.
      ...(root ? { httpOptions: { baseUrl: root } } : {}),
    });
    return { auth, provider: new GeminiProvider(this.config, { ...host, client }) };
  }

  private async credentials(): Promise<AuthClient> {
    const keyFile = this.config.keyFile?.trim();
    if (keyFile) {
      const key = await readKeyFile(keyFile);
      if (!("other" in key)) return new ServiceAccountClient(key, keyFile);
      try {
        return await new GoogleAuth({ credentials: key.other, scopes: [CLOUD_PLATFORM_SCOPE] }).getClient();
      } catch (err) {
        throw badKeyFile(keyFile, (err instanceof Error ? err.message : String(err)).slice(0, 200));
      }
    }
    try {
      return await new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] }).getClient();
    } catch {
      throw new ProviderError(
        "no_key",
        l10n.t('No Google Cloud credentials were found for {0}. Run "gcloud auth application-default login", or set a service account key file in the profile.', providerName()),
      );
    }
  }
}

/** Fetches (or reuses) the access token, so the SDKs find one ready and a refusal reads as a credentials problem. */
async function authorize(auth: AuthClient, keyFile: string | undefined): Promise<void> {
  try {
    await auth.getRequestHeaders();
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    const detail = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    throw new ProviderError(
      "auth",
      keyFile
        ? l10n.t("Google refused the credentials in the key file {0} ({1}). Check the key file in the profile.", keyFile, detail)
        : l10n.t('Google refused the Application Default Credentials ({0}). Run "gcloud auth application-default login" again.', detail),
    );
  }
}

function env(name: string): string | undefined {
  return process.env[name]?.trim() || undefined;
}
