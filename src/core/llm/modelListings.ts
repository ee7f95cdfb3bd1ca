import { z } from "zod";
import type { ModelInfo } from "./models";
import type { ModelListing } from "./types";

/**
 * Model lists as providers publish them, read into ModelListing. A list is outside input: each entry
 * is checked on its own, one odd entry is skipped without losing the rest, and only plausible ids
 * and numbers get through.
 */
export type ListingShape = "openai" | "openrouter" | "lmstudio";

const id = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !/[\u0000-\u001f]/.test(s));
const tokens = z.number().int().positive().max(100_000_000);
/** OpenRouter's prices are strings of USD per token; "-1" or "" means the price varies (a router). */
const perToken = z.union([z.string(), z.number()]).transform((v) => {
  const n = typeof v === "number" ? v : v.trim() === "" ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e6 * 1e6) / 1e6 : undefined;
});

const openAiModel = z.looseObject({
  id,
  // Not OpenAI's own fields: vLLM's max_model_len, and the context_length / context_window some servers add.
  context_length: tokens.optional().catch(undefined),
  context_window: tokens.optional().catch(undefined),
  max_model_len: tokens.optional().catch(undefined),
});

const openRouterModel = z.looseObject({
  id,
  name: z.string().max(200).optional().catch(undefined),
  context_length: tokens.optional().catch(undefined),
  architecture: z
    .looseObject({ input_modalities: z.array(z.string()).optional() })
    .optional()
    .catch(undefined),
  pricing: z.looseObject({ prompt: perToken.optional(), completion: perToken.optional(), input_cache_read: perToken.optional(), input_cache_write: perToken.optional() }).optional().catch(undefined),
  top_provider: z
    .looseObject({ context_length: tokens.nullish().catch(undefined), max_completion_tokens: tokens.nullish().catch(undefined) })
    .optional()
    .catch(undefined),
  supported_parameters: z.array(z.string()).optional().catch(undefined),
});

const lmStudioModel = z.looseObject({
  id,
  type: z.string().optional(),
  state: z.string().optional(),
  max_context_length: tokens.optional().catch(undefined),
  loaded_context_length: tokens.optional().catch(undefined),
  capabilities: z.array(z.string()).optional().catch(undefined),
});

function defined(info: Partial<ModelInfo>): Partial<ModelInfo> {
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as Partial<ModelInfo>;
}

function openAiListing(raw: unknown): ModelListing | undefined {
  const m = openAiModel.safeParse(raw);
  if (!m.success) return undefined;
  const window = m.data.context_length ?? m.data.context_window ?? m.data.max_model_len;
  return window ? { id: m.data.id, info: { contextWindow: window } } : { id: m.data.id };
}

function openRouterListing(raw: unknown): ModelListing | undefined {
  const m = openRouterModel.safeParse(raw);
  if (!m.success) return undefined;
  const { pricing, top_provider: top, architecture, supported_parameters: params } = m.data;
  const info = defined({
    contextWindow: top?.context_length ?? m.data.context_length,
    maxOutputTokens: top?.max_completion_tokens ?? undefined,
    inputPrice: pricing?.prompt,
    outputPrice: pricing?.completion,
    cacheReadPrice: pricing?.input_cache_read,
    cacheWritePrice: pricing?.input_cache_write,
    supportsImages: architecture?.input_modalities ? architecture.input_modalities.includes("image") : undefined,
    supportsNativeTools: params ? params.includes("tools") : undefined,
  });
  return { id: m.data.id, ...(m.data.name && m.data.name !== m.data.id ? { name: m.data.name } : {}), info };
}

function lmStudioListing(raw: unknown): ModelListing | undefined {
  const m = lmStudioModel.safeParse(raw);
  if (!m.success || m.data.type === "embeddings") return undefined;
  // A loaded model runs with the context length it was loaded with, often far below what it could take.
  const window = m.data.state === "loaded" ? (m.data.loaded_context_length ?? m.data.max_context_length) : m.data.max_context_length;
  const info = defined({
    contextWindow: window,
    // Local: nothing to pay per token.
    inputPrice: 0,
    outputPrice: 0,
    supportsImages: m.data.type === "vlm",
    supportsNativeTools: m.data.capabilities ? m.data.capabilities.includes("tool_use") : undefined,
  });
  return { id: m.data.id, info };
}

const READERS: Record<ListingShape, (raw: unknown) => ModelListing | undefined> = {
  openai: openAiListing,
  openrouter: openRouterListing,
  lmstudio: lmStudioListing,
};

/** The entries of a `{ data: [...] }` list (or a bare array, as some servers send), each read on its own; each id once. */
export function listingsFrom(shape: ListingShape, body: unknown): ModelListing[] {
  const entries = Array.isArray(body) ? body : Array.isArray((body as { data?: unknown } | null)?.data) ? (body as { data: unknown[] }).data : [];
  const seen = new Set<string>();
  const out: ModelListing[] = [];
  for (const raw of entries) {
    const listing = READERS[shape](raw);
    if (!listing || seen.has(listing.id)) continue;
    seen.add(listing.id);
    out.push(listing);
  }
  return out;
}
