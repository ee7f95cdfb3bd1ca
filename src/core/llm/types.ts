import { PROVIDER_ENTRIES, type ProviderKind } from "../../shared/providerCatalog";
import type { ModelInfo } from "./models";
import type { StreamTimeouts } from "./requestWatch";
import type { ReasoningSettings } from "../../shared/reasoning";

export { PROVIDER_KINDS, isProviderKind, providerEntry, type ProviderKind } from "../../shared/providerCatalog";

/** Reasoning (effort or thinking budget) is in src/shared/reasoning.ts: each provider maps it to its own shape. */
export interface ProviderSettings extends ReasoningSettings {
  kind: ProviderKind;
  /** Empty: the provider's default endpoint. */
  baseUrl: string;
  /** Empty: the provider's default model. */
  model: string;
  /** Bedrock: the AWS region; Vertex: the location. Empty or absent: the environment's (AWS_REGION, GOOGLE_CLOUD_LOCATION). */
  region?: string;
  /** Bedrock: the named profile in ~/.aws (absent: the standard credential chain). */
  awsProfile?: string;
  /** Vertex: the Google Cloud project (absent: GOOGLE_CLOUD_PROJECT or the key file's). */
  project?: string;
  /** Vertex: a service account key file (absent: Application Default Credentials). */
  keyFile?: string;
  /** Azure OpenAI: the API version (absent: a recent GA one). */
  apiVersion?: string;
}

export interface ProviderConfig extends ProviderSettings {
  apiKey: string | undefined;
  /** How long a request may wait on the provider (requestWatch.ts); the defaults when absent. */
  timeouts?: StreamTimeouts;
}

/** What createProvider hands a provider's client: defaults filled in, the settings checked. */
export interface ResolvedProviderConfig extends ProviderSettings {
  apiKey: string | undefined;
  /** The catalog's default model when none was given. */
  model: string;
  /** The given base URL, else the catalog's default for the kind, else "" (the SDK's own). Never ends in "/". */
  baseUrl: string;
  timeouts: StreamTimeouts;
}

export interface LlmImage {
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  /** Base64, no data: prefix. */
  data: string;
}

export type LlmContent =
  | { type: "text"; text: string }
  | ({ type: "image" } & LlmImage)
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; toolUseId: string; content: string; isError?: boolean; images?: LlmImage[] };

export interface LlmMessage {
  role: "user" | "assistant";
  /** Plain text, or blocks when native tool calls and their results are part of the turn. */
  content: string | LlmContent[];
}

export interface NativeTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface LlmRequest {
  system: string;
  messages: readonly LlmMessage[];
  /** Native tools; absent for plain chat and for the XML protocol. */
  tools?: readonly NativeTool[];
  maxTokens?: number;
  signal?: AbortSignal;
}

/** What every provider's stream is normalized to; the loop never sees an SDK type. */
export type StreamEvent =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool_call_delta"; index: number; id?: string; name?: string; argsDelta: string }
  | { type: "usage"; inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };

export interface Provider {
  readonly kind: ProviderKind;
  readonly model: string;
  /** Where requests go, as the settings gave it ("" for the provider's default): kept in history, so a resumed task goes back there. */
  readonly baseUrl?: string;
  stream(request: LlmRequest): AsyncIterable<StreamEvent>;
  /** The models the endpoint offers (its live list), for pickers; absent where there is none. */
  listModels?(signal?: AbortSignal): Promise<ModelListing[]>;
  /**
   * What the provider itself says about this model (a local server's loaded window, a router's
   * prices), where it says more than the built-in table can; undefined when it says nothing.
   */
  describeModel?(signal?: AbortSignal): Promise<Partial<ModelInfo> | undefined>;
}

/** One model of a provider's live list, with what the list says about it (OpenRouter and Ollama say much, most say only the id). */
export interface ModelListing {
  id: string;
  /** A display name, where the list gives one apart from the id. */
  name?: string;
  info?: Partial<ModelInfo>;
}

/** The model used when none is picked; empty where the server decides. */
export const DEFAULT_MODELS = Object.fromEntries(PROVIDER_ENTRIES.map((e) => [e.kind, e.defaultModel])) as Record<ProviderKind, string>;

/** Secret key under which a provider kind's API key is stored. */
export function apiKeySecretName(kind: ProviderKind): string {
  return `kiln.apiKey.${kind}`;
}
