/**
 * Every provider Kiln can talk to, as data: what the settings, the profile editor, the CLI and the
 * core all agree on. The core decides how to speak to each (its `family`); this file only says what a
 * user picks and what Kiln fills in for them. Product names are not translated.
 */

/** How a provider is spoken to: which client in src/core/llm serves it. */
export type ProviderFamily = "anthropic" | "openai" | "azure" | "gemini" | "bedrock" | "vertex" | "ollama" | "lmstudio";

export const PROVIDER_KINDS = [
  "anthropic",
  "openai",
  "openai-compatible",
  "openrouter",
  "gemini",
  "bedrock",
  "vertex",
  "azure",
  "ollama",
  "lmstudio",
  "deepseek",
  "mistral",
  "xai",
  "groq",
  "cerebras",
  "fireworks",
  "together",
  "moonshot",
  "qwen",
  "zai",
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(value: unknown): value is ProviderKind {
  return typeof value === "string" && (PROVIDER_KINDS as readonly string[]).includes(value);
}

/**
 * Quirks of servers that speak the OpenAI Chat Completions wire format but not all of it.
 * - tokenLimitField: the name of the reply-length limit; OpenAI renamed it, most others kept the old one.
 * - streamUsage: whether the server takes `stream_options.include_usage` (some answer 400 to it).
 * - reasoning: how the server takes a reasoning setting (src/shared/reasoning.ts): `reasoning_effort`
 *   ("effort"), OpenRouter's `reasoning` object, DashScope's `enable_thinking` and `thinking_budget`,
 *   Z.ai's `thinking` switch; "none" where the vendor's reasoning models think on their own and an
 *   unknown field would be refused.
 */
export interface CompatQuirks {
  tokenLimitField: "max_completion_tokens" | "max_tokens";
  streamUsage: boolean;
  reasoning: "effort" | "openrouter" | "qwen" | "zai" | "none";
}

/** Settings only some providers have, beside the URL and model. */
export const PROVIDER_OPTIONS = ["region", "awsProfile", "project", "keyFile", "apiVersion"] as const;
export type ProviderOption = (typeof PROVIDER_OPTIONS)[number];

/** Which of those each family reads. */
export const FAMILY_OPTIONS: Record<ProviderFamily, readonly ProviderOption[]> = {
  anthropic: [],
  openai: [],
  azure: ["apiVersion"],
  gemini: [],
  bedrock: ["region", "awsProfile"],
  vertex: ["project", "region", "keyFile"],
  ollama: [],
  lmstudio: [],
};

export interface ProviderEntry {
  kind: ProviderKind;
  /** The product's name, as its vendor writes it. */
  label: string;
  family: ProviderFamily;
  /** Where requests go when the user gives no base URL; absent where one must be given (or the SDK knows). */
  defaultBaseUrl?: string;
  /** The environment variable the key is read from; absent where credentials come from elsewhere (AWS, Google ADC). */
  keyEnv?: string;
  /** A request cannot be made without a key (local servers take none). */
  needsKey: boolean;
  /** No default endpoint: the user must give one (an Azure resource, any compatible server). */
  needsBaseUrl: boolean;
  /** The model used when none is picked; empty where the server decides and the user must name one. */
  defaultModel: string;
  /** Only for the OpenAI family. */
  quirks?: CompatQuirks;
  /** A preset: a vendor's OpenAI-compatible endpoint with its URL, key variable and quirks filled in. */
  preset?: boolean;
}

const OPENAI_QUIRKS: CompatQuirks = { tokenLimitField: "max_completion_tokens", streamUsage: true, reasoning: "effort" };
/** What most OpenAI-compatible servers accept: the older limit name, usage in the stream, OpenAI's effort field. */
const COMPAT_QUIRKS: CompatQuirks = { tokenLimitField: "max_tokens", streamUsage: true, reasoning: "effort" };
/** Vendors whose reasoning models think on their own and take no setting for it. */
const NO_REASONING_FIELD: CompatQuirks = { ...COMPAT_QUIRKS, reasoning: "none" };

function preset(kind: ProviderKind, label: string, defaultBaseUrl: string, keyEnv: string, defaultModel: string, quirks: CompatQuirks = COMPAT_QUIRKS): ProviderEntry {
  return { kind, label, family: "openai", defaultBaseUrl, keyEnv, needsKey: true, needsBaseUrl: false, defaultModel, quirks, preset: true };
}

const ENTRIES: Record<ProviderKind, ProviderEntry> = {
  anthropic: { kind: "anthropic", label: "Anthropic", family: "anthropic", keyEnv: "ANTHROPIC_API_KEY", needsKey: true, needsBaseUrl: false, defaultModel: "claude-sonnet-5-5" },
  openai: { kind: "openai", label: "OpenAI", family: "openai", keyEnv: "OPENAI_API_KEY", needsKey: true, needsBaseUrl: false, defaultModel: "gpt-4.1", quirks: OPENAI_QUIRKS },
  "openai-compatible": {
    kind: "openai-compatible",
    label: "OpenAI-compatible",
    family: "openai",
    keyEnv: "KILN_API_KEY",
    needsKey: false,
    needsBaseUrl: true,
    defaultModel: "",
    quirks: OPENAI_QUIRKS,
  },
  openrouter: {
    ...preset("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", "anthropic/claude-sonnet-4.5", { ...OPENAI_QUIRKS, reasoning: "openrouter" }),
    preset: false,
  },
  gemini: { kind: "gemini", label: "Google Gemini", family: "gemini", keyEnv: "GEMINI_API_KEY", needsKey: true, needsBaseUrl: false, defaultModel: "gemini-2.5-pro" },
  bedrock: { kind: "bedrock", label: "Amazon Bedrock", family: "bedrock", needsKey: false, needsBaseUrl: false, defaultModel: "us.anthropic.claude-sonnet-4-5-20250929-v1:0" },
  vertex: { kind: "vertex", label: "Google Vertex AI", family: "vertex", needsKey: false, needsBaseUrl: false, defaultModel: "claude-sonnet-4-5@20250929" },
  azure: { kind: "azure", label: "Azure OpenAI", family: "azure", keyEnv: "AZURE_OPENAI_API_KEY", needsKey: true, needsBaseUrl: true, defaultModel: "" },
  ollama: { kind: "ollama", label: "Ollama", family: "ollama", defaultBaseUrl: "http://localhost:11434", keyEnv: "OLLAMA_API_KEY", needsKey: false, needsBaseUrl: false, defaultModel: "" },
  lmstudio: { kind: "lmstudio", label: "LM Studio", family: "lmstudio", defaultBaseUrl: "http://localhost:1234", needsKey: false, needsBaseUrl: false, defaultModel: "", quirks: COMPAT_QUIRKS },
  deepseek: preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", "deepseek-chat", NO_REASONING_FIELD),
  mistral: preset("mistral", "Mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY", "devstral-medium-latest", NO_REASONING_FIELD),
  xai: preset("xai", "xAI", "https://api.x.ai/v1", "XAI_API_KEY", "grok-code-fast-1"),
  groq: preset("groq", "Groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY", "openai/gpt-oss-120b"),
  cerebras: preset("cerebras", "Cerebras", "https://api.cerebras.ai/v1", "CEREBRAS_API_KEY", "gpt-oss-120b", OPENAI_QUIRKS),
  fireworks: preset("fireworks", "Fireworks AI", "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY", "accounts/fireworks/models/kimi-k2-instruct-0905"),
  together: preset("together", "Together AI", "https://api.together.xyz/v1", "TOGETHER_API_KEY", "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8"),
  moonshot: preset("moonshot", "Moonshot AI", "https://api.moonshot.ai/v1", "MOONSHOT_API_KEY", "kimi-k2-0905-preview", NO_REASONING_FIELD),
  qwen: preset("qwen", "Qwen (DashScope)", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY", "qwen3-coder-plus", { ...COMPAT_QUIRKS, reasoning: "qwen" }),
  zai: preset("zai", "Z.ai", "https://api.z.ai/api/paas/v4", "ZAI_API_KEY", "glm-4.6", { ...COMPAT_QUIRKS, reasoning: "zai" }),
};

/** Whether Kiln can send the provider a reasoning setting (the profile editor shows the control only then). */
export function takesReasoning(entry: ProviderEntry): boolean {
  return entry.quirks?.reasoning !== "none";
}

/** A server the user runs (any compatible URL, Ollama, LM Studio): named by its URL, not by a product. */
export function isSelfHosted(entry: ProviderEntry): boolean {
  return entry.kind === "openai-compatible" || entry.family === "ollama" || entry.family === "lmstudio";
}

export function providerEntry(kind: ProviderKind): ProviderEntry {
  return ENTRIES[kind];
}

export const PROVIDER_ENTRIES: readonly ProviderEntry[] = PROVIDER_KINDS.map((k) => ENTRIES[k]);
