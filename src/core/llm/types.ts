import type { StreamTimeouts } from "./requestWatch";

export type ProviderKind = "anthropic" | "openai" | "openai-compatible";
export const PROVIDER_KINDS: readonly ProviderKind[] = ["anthropic", "openai", "openai-compatible"];

export interface ProviderSettings {
  kind: ProviderKind;
  /** Empty: the provider's default endpoint. */
  baseUrl: string;
  /** Empty: the provider's default model. */
  model: string;
}

export interface ProviderConfig extends ProviderSettings {
  apiKey: string | undefined;
  /** How long a request may wait on the provider (requestWatch.ts); the defaults when absent. */
  timeouts?: StreamTimeouts;
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
  stream(request: LlmRequest): AsyncIterable<StreamEvent>;
  /** The model ids the endpoint offers (its /models list), for pickers; absent where there is none. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}

export const DEFAULT_MODELS: Record<ProviderKind, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-4.1",
  "openai-compatible": "",
};

/** Secret key under which a provider kind's API key is stored. */
export function apiKeySecretName(kind: ProviderKind): string {
  return `kiln.apiKey.${kind}`;
}
