import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { credentialShape, isCredentialName } from "../llm/secretShapes";
import { providerEntry, type ProviderKind } from "../../shared/providerCatalog";
import type { ImportedProfile, ProfilesPlan, Skipped } from "./types";
import { withoutBom } from "./textShape";

/**
 * Provider profiles from a settings export of Roo Code, Kilo Code (v5) or Zoo Code ("Export
 * settings": `{ providerProfiles: { currentApiConfigName, apiConfigs: { name: settings },
 * modeApiConfigs: { mode: profile id } }, globalSettings }`), mapped to Kiln's provider kinds.
 *
 * Credentials never come over. Each provider's mapping picks the few fields Kiln has a place for
 * (endpoint, model, region…) by name, so a key field is never read into the result, whatever it is
 * called; a profile that held one is marked, so the user can be told where Kiln reads its key. No
 * value from the file reaches a message unless it is a name the user gave (a profile, a provider id
 * of the expected shape), and none of those is kept when it looks like a credential. Reads only.
 */

/** The agents whose settings export this reads (Cline writes none). */
export const SETTINGS_EXPORT_SOURCES = ["kilo", "roo", "zoo"] as const;
export type SettingsExportSource = (typeof SETTINGS_EXPORT_SOURCES)[number];

export function hasSettingsExport(kind: string): kind is SettingsExportSource {
  return (SETTINGS_EXPORT_SOURCES as readonly string[]).includes(kind);
}

const EXPORT_HINT = "Roo Code, Kilo Code and Zoo Code write one with Export settings";
const MODE_SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]*$/;
/** A provider id as these agents spell them ("openai-native", "vscode-lm"): safe to repeat in a message. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,40}$/;
const MAX_NAME = 64;

const ExportSchema = z.object({
  providerProfiles: z.object(
    {
      currentApiConfigName: z.string({ error: "must be a profile's name" }).nullish(),
      apiConfigs: z.record(z.string(), z.unknown(), {
        error: (issue) => (issue.input === undefined ? "missing: the export holds no profiles" : "must be an object of profiles by name"),
      }),
      modeApiConfigs: z.record(z.string(), z.unknown(), { error: "must be an object of profile ids by mode" }).nullish(),
    },
    { error: (issue) => (issue.input === undefined ? `missing: this is not a settings export (${EXPORT_HINT})` : "must be an object") },
  ),
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a settings field holds a credential, by its name: apiKey, openRouterApiKey, awsSecretKey,
 * awsSessionToken, vertexJsonCredentials, kilocodeToken. Names ending in another word say where one
 * is (vertexKeyFile) or whether one is used (awsUseApiKey, a flag). The codebase index's own keys
 * ride along in every profile; they are no key of the profile's provider.
 */
function isCredentialField(name: string): boolean {
  return !name.startsWith("codeIndex") && isCredentialName(name);
}

const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret/i;

/** The profile kept a credential: a filled key field, or a header that carries one (openAiHeaders). */
function heldCredential(raw: Record<string, unknown>): boolean {
  for (const [field, value] of Object.entries(raw)) {
    if (typeof value === "string" && value.trim() !== "" && isCredentialField(field)) return true;
  }
  const headers = raw.openAiHeaders;
  return isRecord(headers) && Object.keys(headers).some((name) => CREDENTIAL_HEADER.test(name));
}

/** A field that is there but cannot be used; the profile is skipped with it. */
class FieldProblem extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

const textField = z.string().nullish();
const flagField = z.boolean().nullish();

/** Reads the fields a mapping asks for, each checked when asked: a field of another provider's, left over in the profile, is never looked at. */
class Fields {
  constructor(private readonly raw: Record<string, unknown>) {}

  /** Trimmed text; undefined when absent or empty. */
  text(field: string): string | undefined {
    const parsed = textField.safeParse(this.raw[field]);
    if (!parsed.success) throw new FieldProblem(field, "must be text");
    const value = parsed.data?.trim();
    if (!value) return undefined;
    const shape = credentialShape(value);
    if (shape) throw new FieldProblem(field, `looks like ${/^[AEIOU]/.test(shape) ? "an" : "a"} ${shape}, which Kiln never copies`);
    return value;
  }

  flag(field: string): boolean {
    const parsed = flagField.safeParse(this.raw[field]);
    if (!parsed.success) throw new FieldProblem(field, "must be true or false");
    return parsed.data === true;
  }

  /** An endpoint: http(s), without a user name, password or key in it. */
  url(field: string): string | undefined {
    const value = this.text(field);
    if (value === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new FieldProblem(field, "must be an http(s) URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new FieldProblem(field, "must be an http(s) URL");
    if (url.username || url.password) throw new FieldProblem(field, "has a user name or password in it, which Kiln never copies");
    if ([...url.searchParams.keys()].some((name) => CREDENTIAL_HEADER.test(name) || name.toLowerCase() === "key")) {
      throw new FieldProblem(field, "has a key in its query, which Kiln never copies");
    }
    return value;
  }
}

/** A profile in Kiln's terms, before its name and key mark are added. */
type Mapped = Omit<ImportedProfile, "name" | "needsKey">;
type Mapping = (fields: Fields) => Mapped;

/** Z.ai's four API lines (`zaiApiLine`); the international API is Kiln's default endpoint. */
const ZAI_LINES: Record<string, string | undefined> = {
  international_api: undefined,
  international_coding: "https://api.z.ai/api/coding/paas/v4",
  china_api: "https://open.bigmodel.cn/api/paas/v4",
  china_coding: "https://open.bigmodel.cn/api/coding/paas/v4",
};

/** LiteLLM's address when the profile names none, as these agents assume. */
const LITELLM_DEFAULT_URL = "http://localhost:4000";

/** Leaves out what is undefined, so the result holds only what the source set. */
function defined(mapped: Mapped): Mapped {
  return Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== undefined)) as Mapped;
}

/** A vendor where only the model (apiModelId) and perhaps an endpoint field carry over. */
const vendor =
  (kind: ProviderKind, urlField?: string): Mapping =>
  (f) => ({ kind, baseUrl: urlField === undefined ? undefined : f.url(urlField), model: f.text("apiModelId") });

/** The source's provider ids Kiln has a provider for, each with the fields that carry over. */
const MAPPINGS: Record<string, Mapping> = {
  anthropic: vendor("anthropic", "anthropicBaseUrl"),
  "openai-native": vendor("openai", "openAiNativeBaseUrl"),
  // "OpenAI Compatible": any server, or Azure OpenAI (flagged, or named by its host); without a URL these agents call OpenAI itself.
  openai: (f) => {
    const baseUrl = f.url("openAiBaseUrl");
    const model = f.text("openAiModelId");
    const azureHost = baseUrl !== undefined && new URL(baseUrl).hostname.toLowerCase().endsWith(".openai.azure.com");
    if (f.flag("openAiUseAzure") || azureHost) return { kind: "azure", baseUrl, model, apiVersion: f.text("azureApiVersion") };
    return { kind: baseUrl === undefined ? "openai" : "openai-compatible", baseUrl, model };
  },
  openrouter: (f) => ({ kind: "openrouter", baseUrl: f.url("openRouterBaseUrl"), model: f.text("openRouterModelId") }),
  gemini: vendor("gemini", "googleGeminiBaseUrl"),
  vertex: (f) => ({ kind: "vertex", model: f.text("apiModelId"), project: f.text("vertexProjectId"), region: f.text("vertexRegion"), keyFile: f.text("vertexKeyFile") }),
  bedrock: (f) => ({
    kind: "bedrock",
    // A custom ARN (an inference profile) is what these agents call when one is set.
    model: f.text("awsCustomArn") ?? f.text("apiModelId"),
    region: f.text("awsRegion"),
    awsProfile: f.flag("awsUseProfile") ? f.text("awsProfile") : undefined,
    baseUrl: f.flag("awsBedrockEndpointEnabled") ? f.url("awsBedrockEndpoint") : undefined,
  }),
  ollama: (f) => ({ kind: "ollama", baseUrl: f.url("ollamaBaseUrl"), model: f.text("ollamaModelId") }),
  lmstudio: (f) => ({ kind: "lmstudio", baseUrl: f.url("lmStudioBaseUrl"), model: f.text("lmStudioModelId") }),
  litellm: (f) => ({ kind: "openai-compatible", baseUrl: f.url("litellmBaseUrl") ?? LITELLM_DEFAULT_URL, model: f.text("litellmModelId") }),
  deepseek: vendor("deepseek", "deepSeekBaseUrl"),
  moonshot: vendor("moonshot", "moonshotBaseUrl"),
  mistral: vendor("mistral"),
  xai: vendor("xai"),
  groq: vendor("groq"),
  cerebras: vendor("cerebras"),
  fireworks: vendor("fireworks"),
  zai: (f) => {
    const line = f.text("zaiApiLine");
    if (line !== undefined && !Object.hasOwn(ZAI_LINES, line)) throw new FieldProblem("zaiApiLine", `must be one of ${Object.keys(ZAI_LINES).join(", ")}`);
    return { kind: "zai", baseUrl: line === undefined ? undefined : ZAI_LINES[line], model: f.text("apiModelId") };
  },
};

/** Providers Kiln knowingly has nothing like, with the reason a person can act on. */
const SIGNS_IN = "signs in with that tool's own account, which Kiln cannot use";
const NOT_MAPPED: Record<string, string> = {
  "vscode-lm": "calls VS Code's language models (GitHub Copilot), which Kiln does not",
  "claude-code": SIGNS_IN,
  "gemini-cli": SIGNS_IN,
  "openai-codex": SIGNS_IN,
  "qwen-code": SIGNS_IN,
  kilocode: "goes through Kilo Code's own gateway and account; use OpenRouter or the model's vendor instead",
  "human-relay": "has a person paste the replies; Kiln has nothing like it",
  "fake-ai": "is a test provider",
};

function unknownProvider(provider: string): string {
  const named = PROVIDER_ID.test(provider) && credentialShape(provider) === undefined ? `"${provider}"` : "this provider";
  return `Kiln has no provider for ${named}; add the profile by hand (as openai-compatible where the service has an OpenAI-compatible API)`;
}

/** Why a profile name cannot be used as it is, or undefined when it can. */
function nameProblem(name: string): string | undefined {
  if (name.trim() === "") return "its name is empty";
  if (name.length > MAX_NAME) return `its name is longer than ${MAX_NAME} characters`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return "its name has control characters";
  if (credentialShape(name)) return "its name looks like a credential";
  return undefined;
}

function syntaxProblem(file: string, text: string, error: ParseError): string {
  const before = text.slice(0, error.offset);
  const line = before.split("\n").length;
  const column = error.offset - before.lastIndexOf("\n");
  // Position and kind only: JSON.parse's message would quote the text around it, a key perhaps.
  return `${file}:${line}:${column}: not valid JSON (${printParseErrorCode(error.error)})`;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

export type SettingsExportRead = { ok: true; plan: ProfilesPlan } | { ok: false; error: string };

/**
 * A settings export's text, read into profiles. A file that is no settings export is one error
 * naming the file and the field; a profile that cannot come over is skipped with its reason.
 */
export function parseSettingsExport(text: string, file: string): SettingsExportRead {
  const body = withoutBom(text);
  const errors: ParseError[] = [];
  const raw: unknown = parse(body, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0) return { ok: false, error: syntaxProblem(file, body, errors[0]!) };
  if (!isRecord(raw)) return { ok: false, error: `${file}: must hold one JSON object with providerProfiles (${EXPORT_HINT})` };
  const checked = ExportSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { ok: false, error: `${file}: ${formatPath(issue.path)}: ${issue.message}` };
  }
  const { apiConfigs, modeApiConfigs, currentApiConfigName } = checked.data.providerProfiles;

  const profiles: ImportedProfile[] = [];
  const skipped: Skipped[] = [];
  const notes: string[] = [];
  /** Source profile id → its name, for the mode pins; only profiles that came over. */
  const idToName = new Map<string, string>();
  let position = 0;
  for (const [name, settings] of Object.entries(apiConfigs)) {
    position++;
    const badName = nameProblem(name);
    if (badName) {
      skipped.push({ name: `profile #${position}`, reason: badName });
      continue;
    }
    if (!isRecord(settings)) {
      skipped.push({ name, reason: "must be an object of a profile's settings" });
      continue;
    }
    const provider = settings.apiProvider;
    if (provider === undefined || provider === null || provider === "") {
      skipped.push({ name, reason: "it names no provider (apiProvider); it was never set up" });
      continue;
    }
    if (typeof provider !== "string") {
      skipped.push({ name, reason: "apiProvider: must be text" });
      continue;
    }
    const mapping = Object.hasOwn(MAPPINGS, provider) ? MAPPINGS[provider] : undefined;
    if (!mapping) {
      skipped.push({ name, reason: Object.hasOwn(NOT_MAPPED, provider) ? `${provider} ${NOT_MAPPED[provider]}` : unknownProvider(provider) });
      continue;
    }
    let mapped: Mapped;
    try {
      mapped = defined(mapping(new Fields(settings)));
    } catch (err) {
      if (!(err instanceof FieldProblem)) throw err;
      skipped.push({ name, reason: err.message });
      continue;
    }
    // An export may leave keys out; a provider that cannot be called without one needs one either way.
    profiles.push({ name, ...mapped, needsKey: heldCredential(settings) || providerEntry(mapped.kind).needsKey });
    if (typeof settings.id === "string" && settings.id !== "") idToName.set(settings.id, name);
  }

  const modeProfiles: Record<string, string> = {};
  let badPins = 0;
  for (const [slug, id] of Object.entries(modeApiConfigs ?? {})) {
    if (!MODE_SLUG.test(slug) || typeof id !== "string") {
      badPins++;
      continue;
    }
    const name = idToName.get(id);
    if (name !== undefined) modeProfiles[slug] = name;
    else notes.push(`mode ${slug}: its profile was not imported, so it is pinned to none`);
  }
  if (badPins > 0) notes.push(`${badPins} mode pin${badPins === 1 ? "" : "s"} in providerProfiles.modeApiConfigs could not be read and were left out`);

  const current = typeof currentApiConfigName === "string" && profiles.some((p) => p.name === currentApiConfigName) ? currentApiConfigName : undefined;
  return { ok: true, plan: { file, profiles, skipped, ...(current !== undefined && { current }), modeProfiles, notes } };
}

/** The environment variable Kiln reads the kind's key from; undefined where credentials come from elsewhere (AWS, Google). */
export function keyVariable(kind: ProviderKind): string | undefined {
  return providerEntry(kind).keyEnv;
}
