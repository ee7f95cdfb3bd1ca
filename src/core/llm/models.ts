import { z } from "zod";
import { DEFAULT_MODELS, type ProviderKind } from "./types";

/**
 * A price step that replaces the base prices once a request's total input passes a threshold
 * (Anthropic's 1M-context Sonnet bills the whole request at the higher rate above 200k input).
 * Omitted cache prices are derived from this tier's inputPrice, not inherited from the base.
 */
export interface PriceTier {
  aboveInputTokens: number;
  inputPrice: number;
  outputPrice: number;
  cacheReadPrice?: number;
  cacheWritePrice?: number;
}

/** Prices are USD per million tokens; undefined means unknown (never "free"). */
export interface ModelInfo {
  /** Input plus output; for gpt-5 that is 400k, of which at most 272k can be input. */
  contextWindow: number;
  maxOutputTokens: number;
  inputPrice?: number;
  outputPrice?: number;
  cacheReadPrice?: number;
  cacheWritePrice?: number;
  supportsImages: boolean;
  supportsNativeTools: boolean;
  tiers?: PriceTier[];
}

export interface ModelResolution {
  info: ModelInfo;
  /** False when neither the table nor the provider gave the model's limits: its reply limit is a guess, left to the server. */
  known: boolean;
  /** The table entry the model id matched, e.g. "claude-sonnet-4-5" for "claude-sonnet-4-5-20250929". */
  matched?: string;
  /** One line per rejected override field; those fields are ignored, the rest still apply. */
  errors: string[];
}

function model(
  contextWindow: number,
  maxOutputTokens: number,
  [inputPrice, outputPrice, cacheReadPrice, cacheWritePrice]: [number, number, number?, number?],
  extra: Partial<ModelInfo> = {},
): ModelInfo {
  return { contextWindow, maxOutputTokens, inputPrice, outputPrice, cacheReadPrice, cacheWritePrice, supportsImages: true, supportsNativeTools: true, ...extra };
}

// Only reached with the 1M-context beta, since without it a request cannot pass 200k input.
const SONNET_LONG_CONTEXT: PriceTier[] = [{ aboveInputTokens: 200_000, inputPrice: 6, outputPrice: 22.5, cacheReadPrice: 0.6, cacheWritePrice: 7.5 }];

// Published list prices (the 2026 line-up from Anthropic's model pages; older ones as of late 2025).
// Cache writes are the 5-minute TTL rate.
const ANTHROPIC_MODELS: Record<string, ModelInfo> = {
  "claude-sonnet-5-5": model(1_000_000, 128_000, [2, 10, 0.2, 2.5]),
  "claude-sonnet-5": model(1_000_000, 128_000, [2, 10, 0.2, 2.5]),
  "claude-opus-5-5": model(1_000_000, 128_000, [4, 20, 0.4, 5]),
  "claude-opus-5": model(1_000_000, 128_000, [5, 25, 0.5, 6.25]),
  "claude-fable-5-1": model(1_000_000, 128_000, [10, 50, 1, 12.5]),
  "claude-sonnet-4-6": model(1_000_000, 128_000, [3, 15, 0.3, 3.75]),
  "claude-opus-4-5": model(200_000, 64_000, [5, 25, 0.5, 6.25]),
  "claude-opus-4-1": model(200_000, 32_000, [15, 75, 1.5, 18.75]),
  "claude-opus-4": model(200_000, 32_000, [15, 75, 1.5, 18.75]),
  "claude-sonnet-4-5": model(200_000, 64_000, [3, 15, 0.3, 3.75], { tiers: SONNET_LONG_CONTEXT }),
  "claude-sonnet-4": model(200_000, 64_000, [3, 15, 0.3, 3.75], { tiers: SONNET_LONG_CONTEXT }),
  "claude-haiku-4-5": model(200_000, 64_000, [1, 5, 0.1, 1.25]),
  "claude-3-7-sonnet": model(200_000, 64_000, [3, 15, 0.3, 3.75]),
  "claude-3-5-sonnet": model(200_000, 8_192, [3, 15, 0.3, 3.75]),
  "claude-3-5-haiku": model(200_000, 8_192, [0.8, 4, 0.08, 1]),
  "claude-3-haiku": model(200_000, 4_096, [0.25, 1.25, 0.03, 0.3]),
};

// OpenAI has no cache-write surcharge, so no cacheWritePrice. The -mini/-pro siblings are listed
// so that prefix matching cannot price them as their (much cheaper or dearer) base model.
const OPENAI_MODELS: Record<string, ModelInfo> = {
  "gpt-5.1": model(400_000, 128_000, [1.25, 10, 0.125]),
  "gpt-5": model(400_000, 128_000, [1.25, 10, 0.125]),
  "gpt-5-mini": model(400_000, 128_000, [0.25, 2, 0.025]),
  "gpt-5-nano": model(400_000, 128_000, [0.05, 0.4, 0.005]),
  "gpt-5-pro": model(400_000, 272_000, [15, 120]),
  "gpt-4.1": model(1_047_576, 32_768, [2, 8, 0.5]),
  "gpt-4.1-mini": model(1_047_576, 32_768, [0.4, 1.6, 0.1]),
  "gpt-4.1-nano": model(1_047_576, 32_768, [0.1, 0.4, 0.025]),
  "gpt-4o": model(128_000, 16_384, [2.5, 10, 1.25]),
  "gpt-4o-mini": model(128_000, 16_384, [0.15, 0.6, 0.075]),
  o3: model(200_000, 100_000, [2, 8, 0.5]),
  "o3-mini": model(200_000, 100_000, [1.1, 4.4, 0.55], { supportsImages: false }),
  "o3-pro": model(200_000, 100_000, [20, 80]),
  "o4-mini": model(200_000, 100_000, [1.1, 4.4, 0.275]),
};

// Google's list prices for prompts up to 200k tokens, with the higher rate above as a tier; the
// window is input plus output (1,048,576 + 65,536). Cache reads are Google's context-caching rate.
const GEMINI_LONG = (inputPrice: number, outputPrice: number, cacheReadPrice: number): PriceTier[] => [{ aboveInputTokens: 200_000, inputPrice, outputPrice, cacheReadPrice }];
const GEMINI_MODELS: Record<string, ModelInfo> = {
  "gemini-3-pro-preview": model(1_114_112, 65_536, [2, 12, 0.2], { tiers: GEMINI_LONG(4, 18, 0.4) }),
  "gemini-2.5-pro": model(1_114_112, 65_536, [1.25, 10, 0.125], { tiers: GEMINI_LONG(2.5, 15, 0.25) }),
  "gemini-2.5-flash": model(1_114_112, 65_536, [0.3, 2.5, 0.03]),
  "gemini-2.5-flash-lite": model(1_114_112, 65_536, [0.1, 0.4, 0.01]),
  "gemini-2.0-flash": model(1_056_768, 8_192, [0.1, 0.4, 0.025]),
};

// An openai-compatible endpoint may serve anything under any name (a local "gpt-4o" is not
// OpenAI's), so it never matches a table: its window and prices come from overrides only.
// Only providers whose ids name one vendor's model have a table; the others learn windows and prices
// from their live list (modelListings.ts) or the user's overrides.
const MODEL_TABLES: Partial<Record<ProviderKind, Record<string, ModelInfo>>> = {
  anthropic: ANTHROPIC_MODELS,
  openai: OPENAI_MODELS,
  azure: OPENAI_MODELS,
  gemini: GEMINI_MODELS,
  // Claude on Bedrock and Vertex is billed at Anthropic's list prices; Vertex's Gemini at Google's.
  bedrock: ANTHROPIC_MODELS,
  vertex: { ...ANTHROPIC_MODELS, ...GEMINI_MODELS },
};

/**
 * The id as the table knows it. Bedrock names a model with its region group and vendor around it
 * ("us.anthropic.claude-sonnet-4-5-20250929-v1:0"); Gemini's list prefixes "models/".
 */
function tableId(kind: ProviderKind, model: string): string {
  const id = model.trim().toLowerCase();
  if (kind === "bedrock") return id.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, "").replace(/-v\d+(?::\d+)?$/, "");
  if (kind === "gemini" || kind === "vertex") return id.replace(/^models\//, "");
  return id;
}

/** The ids of the built-in table for a kind: the list a picker falls back to when the provider lists none. */
export function builtinModelIds(kind: ProviderKind): string[] {
  return Object.keys(MODEL_TABLES[kind] ?? {});
}

/** Conservative enough to work with most servers; native tools are assumed, callers may fall back. */
export const DEFAULT_MODEL_INFO: Readonly<ModelInfo> = Object.freeze({
  contextWindow: 128_000,
  maxOutputTokens: 8_192,
  supportsImages: false,
  supportsNativeTools: true,
});

/**
 * Longest table id that the model id starts with, followed by nothing, "-" (dated suffixes,
 * "-latest") or "@" (Vertex's "claude-sonnet-4-5@20250929"). The boundary keeps "gpt-5" from
 * claiming a future "gpt-5.2", which may be priced differently.
 */
export function matchModelId(kind: ProviderKind, model: string): string | undefined {
  const id = tableId(kind, model);
  let best: string | undefined;
  for (const key of Object.keys(MODEL_TABLES[kind] ?? {})) {
    const next = id.charAt(key.length);
    if (id.startsWith(key) && (next === "" || next === "-" || next === "@") && key.length > (best?.length ?? -1)) best = key;
  }
  return best;
}

const TOKENS = "must be a positive whole number of tokens";
const PRICE = "must be a non-negative number (USD per million tokens)";
// zod 4's number() already rejects NaN and ±Infinity.
const tokenCount = z.number({ error: TOKENS }).int({ error: TOKENS }).positive({ error: TOKENS });
const price = z.number({ error: PRICE }).nonnegative({ error: PRICE });
const tierSchema = z.strictObject({
  aboveInputTokens: tokenCount,
  inputPrice: price,
  outputPrice: price,
  cacheReadPrice: price.optional(),
  cacheWritePrice: price.optional(),
});
const FIELD_SCHEMAS: { [K in keyof ModelInfo]-?: z.ZodType<ModelInfo[K]> } = {
  contextWindow: tokenCount,
  maxOutputTokens: tokenCount,
  inputPrice: price,
  outputPrice: price,
  cacheReadPrice: price,
  cacheWritePrice: price,
  supportsImages: z.boolean(),
  supportsNativeTools: z.boolean(),
  tiers: z.array(tierSchema),
};

function issuePath(field: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === "number" ? `${acc}[${p}]` : `${acc}.${String(p)}`), field);
}

/**
 * Overrides come from user settings, so they are checked field by field: one bad field must not
 * discard the good ones beside it.
 */
function validateOverrides(overrides: unknown): { valid: Partial<ModelInfo>; errors: string[] } {
  const valid: Record<string, unknown> = {};
  const errors: string[] = [];
  if (overrides === undefined || overrides === null) return { valid, errors };
  if (typeof overrides !== "object" || Array.isArray(overrides)) return { valid, errors: ["model overrides: expected an object"] };
  for (const [field, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const schema = (FIELD_SCHEMAS as Record<string, z.ZodType>)[field];
    if (!schema) {
      errors.push(`${field}: unknown model setting (expected one of ${Object.keys(FIELD_SCHEMAS).join(", ")})`);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) valid[field] = parsed.data;
    else errors.push(...parsed.error.issues.map((i) => `${issuePath(field, i.path)}: ${i.message}`));
  }
  return { valid: valid as Partial<ModelInfo>, errors };
}

/**
 * An empty model means the provider's default model, as in ProviderSettings. What the provider said
 * about the model (`live`, from Provider.describeModel) wins over the table; the user's overrides win
 * over both.
 */
export function resolveModelInfo(kind: ProviderKind, model: string, overrides?: unknown, live?: Partial<ModelInfo>): ModelResolution {
  const id = model.trim() || DEFAULT_MODELS[kind];
  const matched = matchModelId(kind, id);
  const base = matched ? MODEL_TABLES[kind]?.[matched] : undefined;
  const { valid, errors } = validateOverrides(overrides);
  const learned = validateOverrides(live ?? {}).valid;
  const info: ModelInfo = { ...(base ?? DEFAULT_MODEL_INFO), ...learned, ...valid };
  // Tier objects are shared with the table; a caller that edits its copy must not reprice everyone.
  if (info.tiers) info.tiers = info.tiers.map((t) => ({ ...t }));
  return { info, known: base !== undefined || learned.maxOutputTokens !== undefined, ...(matched ? { matched } : {}), errors };
}

/**
 * How a provider's usage event counts input tokens.
 * - "anthropic": inputTokens excludes cache reads and writes, which are reported and billed apart.
 * - "openai": inputTokens (prompt_tokens) includes cacheReadTokens, which are billed at the cached rate.
 */
export type UsageConvention = "anthropic" | "openai";

/**
 * The convention of the usage events that this kind's provider emits. Bedrock's Converse counts cache
 * reads and writes apart, as Anthropic does; Gemini's prompt count holds its cached tokens, as OpenAI's
 * does. Vertex serves both, so there the model decides.
 */
export function usageConvention(kind: ProviderKind, model = ""): UsageConvention {
  if (kind === "anthropic" || kind === "bedrock") return "anthropic";
  if (kind === "vertex") return model.trim().toLowerCase().startsWith("claude") ? "anthropic" : "openai";
  return "openai";
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/**
 * USD for one request, or undefined when the input or output price is unknown.
 * A missing cache price is derived rather than making the whole cost unknown: Anthropic's cache
 * rates are a fixed 0.1x (read) and 1.25x (write) of input on every model, and an OpenAI-style
 * server that does not say otherwise bills cached tokens at the full input rate (an upper bound).
 * Tiers are chosen by the request's total input, cached tokens included.
 */
export function costOf(usage: TokenUsage, info: ModelInfo, convention: UsageConvention): number | undefined {
  const cacheRead = Math.max(0, usage.cacheReadTokens ?? 0);
  const cacheWrite = Math.max(0, usage.cacheWriteTokens ?? 0);
  const input = Math.max(0, usage.inputTokens);
  const output = Math.max(0, usage.outputTokens);
  const totalInput = convention === "anthropic" ? input + cacheRead + cacheWrite : input;
  // OpenAI's count already holds the cached tokens; clamp in case a server reports them inconsistently.
  const uncached = convention === "anthropic" ? input : Math.max(0, input - cacheRead - cacheWrite);

  const tier = (info.tiers ?? [])
    .filter((t) => totalInput > t.aboveInputTokens)
    .reduce<PriceTier | undefined>((best, t) => (!best || t.aboveInputTokens > best.aboveInputTokens ? t : best), undefined);
  const prices = tier ?? info;
  const { inputPrice, outputPrice } = prices;
  if (inputPrice === undefined || outputPrice === undefined) return undefined;
  const readPrice = prices.cacheReadPrice ?? (convention === "anthropic" ? inputPrice * 0.1 : inputPrice);
  const writePrice = prices.cacheWritePrice ?? (convention === "anthropic" ? inputPrice * 1.25 : inputPrice);

  return (uncached * inputPrice + cacheRead * readPrice + cacheWrite * writePrice + output * outputPrice) / 1_000_000;
}

/** Four decimals below a dollar, since a single request usually costs cents or less. */
export function formatUsd(n: number): string {
  if (!Number.isFinite(n)) return "$?";
  const abs = Math.abs(n);
  const sign = n < 0 ? "-" : "";
  if (abs > 0 && abs < 0.00005) return `${sign}<$0.0001`;
  return `${sign}$${abs.toFixed(abs >= 1 ? 2 : 4)}`;
}
