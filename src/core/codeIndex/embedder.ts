import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { z } from "zod";
import { toProviderError } from "../llm/errors";
import { EMBEDDER_KINDS, type EmbedderKind } from "../../shared/embedders";
import { bedrockEmbed } from "./bedrockEmbedder";

export { EMBEDDER_KINDS, type EmbedderKind } from "../../shared/embedders";

/**
 * What turns chunks of code (and queries) into vectors, so that codebase_search finds code by what
 * it means as well as by its words. Optional: without one, the index ranks by words alone.
 *
 * Four wire protocols cover the providers people use for this: OpenAI's /v1/embeddings (OpenAI,
 * Mistral, and every service that speaks it at another base URL: Together, Fireworks, DeepInfra, LM
 * Studio, vLLM, llama.cpp's server…) through the official SDK, Gemini's batchEmbedContents through
 * @google/genai, Ollama's native /api/embed, and Bedrock's InvokeModel (bedrockEmbedder.ts). The vector's dimension is whatever the first answer
 * has; every later one must match it.
 */

export interface EmbedderConfig {
  kind: EmbedderKind;
  model: string;
  /** The endpoint's base URL (…/v1 for the OpenAI protocol; Ollama's root); each kind's default when absent. */
  baseUrl?: string;
  apiKey?: string;
  /** Bedrock: the AWS region and named profile (absent: the AWS SDK's own resolution). */
  region?: string;
  awsProfile?: string;
}

export interface Embedder {
  /**
   * Which embedder this is (kind, model and endpoint; never the key): vectors made by another are
   * not comparable, so an index whose vectors have another id makes them again.
   */
  readonly id: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

const DEFAULT_BASE_URL: Record<EmbedderKind, string | undefined> = {
  openai: "https://api.openai.com/v1",
  "openai-compatible": undefined,
  // Mistral speaks OpenAI's /v1/embeddings (mistral-embed, codestral-embed).
  mistral: "https://api.mistral.ai/v1",
  // Bedrock's runtime endpoint follows the region; a base URL given overrides it (a VPC endpoint).
  bedrock: "https://bedrock-runtime.amazonaws.com",
  ollama: "http://localhost:11434",
  gemini: "https://generativelanguage.googleapis.com",
};

/** Checks a configuration and makes its embedder; a bad one throws an Error that says what to fix. */
export function createEmbedder(config: EmbedderConfig): Embedder {
  if (!EMBEDDER_KINDS.includes(config.kind)) throw new Error(`Unknown embedder "${String(config.kind)}": use ${EMBEDDER_KINDS.join(", ")}.`);
  const model = config.model.trim();
  if (model === "") throw new Error(`The ${config.kind} embedder needs a model (e.g. ${exampleModel(config.kind)}).`);
  const baseUrl = (config.baseUrl?.trim() || DEFAULT_BASE_URL[config.kind])?.replace(/\/+$/, "");
  if (!baseUrl) throw new Error("The openai-compatible embedder needs a base URL (the one that ends in /v1).");
  try {
    if (!/^https?:$/.test(new URL(baseUrl).protocol)) throw new Error();
  } catch {
    throw new Error(`The embedder's base URL ${JSON.stringify(baseUrl)} is not an http(s) URL.`);
  }
  if (config.kind === "openai" && !config.apiKey) throw new Error("The openai embedder needs an API key (OPENAI_API_KEY).");
  if (config.kind === "gemini" && !config.apiKey) throw new Error("The gemini embedder needs an API key (from Google AI Studio).");
  if (config.kind === "mistral" && !config.apiKey) throw new Error("The mistral embedder needs an API key (from console.mistral.ai).");
  const endpoint = config.kind === "bedrock" ? config.baseUrl?.trim().replace(/\/+$/, "") || undefined : undefined;
  const id = config.kind === "bedrock" ? `bedrock:${model}${endpoint ? `@${endpoint}` : ""}` : `${config.kind}:${model}@${baseUrl}`;
  const dimension = new DimensionCheck(id);
  if (config.kind === "bedrock") {
    const embed = bedrockEmbed({
      model,
      ...(config.region && { region: config.region }),
      ...(config.awsProfile && { awsProfile: config.awsProfile }),
      ...(config.apiKey && { apiKey: config.apiKey }),
      ...(endpoint && { endpoint }),
    });
    return {
      id,
      embed: async (texts, signal) => {
        if (texts.length === 0) return [];
        try {
          return dimension.check(await embed(texts, signal), texts.length);
        } catch (err) {
          throw err instanceof z.ZodError ? embedderError(err, id) : err;
        }
      },
    };
  }
  if (config.kind === "ollama") return { id, embed: async (texts, signal) => dimension.check(await ollamaEmbed(baseUrl, model, texts, signal), texts.length) };
  if (config.kind === "gemini") return geminiEmbedder(id, baseUrl, model, config.apiKey!, dimension);
  // The SDK retries rate limits and server errors itself (with Retry-After), as for chat.
  const client = new OpenAI({ apiKey: config.apiKey || "not-needed", baseURL: baseUrl, maxRetries: 3 });
  return {
    id,
    embed: async (texts, signal) => {
      if (texts.length === 0) return [];
      try {
        const response = await client.embeddings.create({ model, input: [...texts] }, { signal });
        const data = openAiAnswer.parse(response).data;
        const ordered = [...data].sort((a, b) => a.index - b.index).map((d) => Float32Array.from(d.embedding));
        return dimension.check(ordered, texts.length);
      } catch (err) {
        throw embedderError(err, id);
      }
    },
  };
}

function exampleModel(kind: EmbedderKind): string {
  const examples: Partial<Record<EmbedderKind, string>> = { ollama: "nomic-embed-text", gemini: "gemini-embedding-001", mistral: "codestral-embed", bedrock: "amazon.titan-embed-text-v2:0" };
  return examples[kind] ?? "text-embedding-3-small";
}

/** Gemini's API through the official SDK (batchEmbedContents), as the Gemini chat provider reaches it. */
function geminiEmbedder(id: string, baseUrl: string, model: string, apiKey: string, dimension: DimensionCheck): Embedder {
  // Explicit, so GOOGLE_GENAI_USE_VERTEXAI or GOOGLE_GEMINI_BASE_URL in the environment change nothing;
  // a URL copied from Google's docs ends in the version, which the SDK adds itself.
  const client = new GoogleGenAI({ vertexai: false, apiKey, apiVersion: "v1beta", httpOptions: { baseUrl: baseUrl.replace(/\/v1beta$/, "") } });
  return {
    id,
    embed: async (texts, signal) => {
      if (texts.length === 0) return [];
      try {
        const response = await client.models.embedContent({ model, contents: [...texts], config: { taskType: "RETRIEVAL_DOCUMENT", ...(signal && { abortSignal: signal }) } });
        const parsed = geminiAnswer.parse(response);
        return dimension.check(
          parsed.embeddings.map((e) => Float32Array.from(e.values)),
          texts.length,
        );
      } catch (err) {
        throw embedderError(err, id);
      }
    },
  };
}

const vector = z.array(z.number().finite()).min(1);
const openAiAnswer = z.object({ data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: vector })) });
const ollamaAnswer = z.object({ embeddings: z.array(vector) });
const geminiAnswer = z.object({ embeddings: z.array(z.object({ values: vector })) });

async function ollamaEmbed(baseUrl: string, model: string, texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const id = `ollama:${model}@${baseUrl}`;
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/embed`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, input: texts }), signal: signal ?? null });
  } catch (err) {
    throw embedderError(err, id);
  }
  const text = await response.text();
  if (!response.ok) {
    const said = (() => {
      try {
        return String((JSON.parse(text) as { error?: unknown }).error ?? text);
      } catch {
        return text;
      }
    })();
    // Ollama says "model … not found, try pulling it first" for a model it does not have.
    throw new Error(`The embedder ${id} answered HTTP ${response.status}: ${said.slice(0, 300)}`);
  }
  let parsed: z.infer<typeof ollamaAnswer>;
  try {
    parsed = ollamaAnswer.parse(JSON.parse(text));
  } catch {
    throw new Error(`The embedder ${id} did not answer with embeddings (got ${text.slice(0, 120)}).`);
  }
  return parsed.embeddings.map((e) => Float32Array.from(e));
}

function embedderError(err: unknown, id: string): Error {
  if (err instanceof z.ZodError) return new Error(`The embedder ${id} did not answer with embeddings: ${err.issues[0]?.message ?? "unexpected shape"}.`);
  const failure = toProviderError(err, `the embedder ${id}`);
  return failure;
}

/** The dimension of an embedder's vectors, as its first answer gave it; any other later is an error. */
class DimensionCheck {
  private dimension: number | undefined;

  constructor(private readonly id: string) {}

  check(vectors: Float32Array[], expected: number): Float32Array[] {
    if (vectors.length !== expected) throw new Error(`The embedder ${this.id} gave ${vectors.length} vectors for ${expected} texts.`);
    for (const v of vectors) {
      this.dimension ??= v.length;
      if (v.length !== this.dimension) throw new Error(`The embedder ${this.id} gave a vector of ${v.length} numbers after ones of ${this.dimension}.`);
    }
    return vectors;
  }
}
