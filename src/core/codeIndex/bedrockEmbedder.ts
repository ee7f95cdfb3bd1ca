import { BedrockRuntimeClient, InvokeModelCommand, type BedrockRuntimeClientConfig } from "@aws-sdk/client-bedrock-runtime";
import { z } from "zod";
import { bedrockFailure } from "../llm/bedrock";

/**
 * Embeddings from Amazon Bedrock (InvokeModel through the official AWS SDK), for teams whose models
 * run in their AWS account. Two families answer there: Amazon Titan Text Embeddings (one text per
 * request, so a batch is sent a few at a time) and Cohere Embed (up to 96 texts per request).
 * Credentials come from the standard AWS chain or a named profile, or a Bedrock API key, as for the
 * Bedrock chat provider.
 */

export interface BedrockEmbedderOptions {
  model: string;
  /** Absent: the SDK's own resolution (AWS_REGION, the profile's region). */
  region?: string;
  awsProfile?: string;
  /** A Bedrock API key (a bearer token) in place of AWS credentials. */
  apiKey?: string;
  /** The runtime endpoint (a VPC endpoint, a test server); the region's own when absent. */
  endpoint?: string;
}

/** Titan requests in flight at once: its quota counts requests, and a batch is 32 of them. */
const TITAN_CONCURRENCY = 4;
/** Cohere Embed's limit of texts per request. */
const COHERE_BATCH = 96;

const vector = z.array(z.number().finite()).min(1);
const titanAnswer = z.object({ embedding: vector });
const cohereAnswer = z.object({ embeddings: z.union([z.array(vector), z.object({ float: z.array(vector) })]) });

/** Whether Kiln knows how to ask this Bedrock model for embeddings. */
export function bedrockEmbeddingFamily(model: string): "titan" | "cohere" | undefined {
  const id = model.replace(/^[a-z]{2,4}\./, ""); // a cross-region profile's prefix (us., eu., apac.)
  return id.startsWith("amazon.titan-embed") ? "titan" : id.startsWith("cohere.embed") ? "cohere" : undefined;
}

/** The vectors of `texts`, in order; a failure as the Bedrock provider's error (credentials, region, access). */
export function bedrockEmbed(options: BedrockEmbedderOptions): (texts: readonly string[], signal?: AbortSignal) => Promise<Float32Array[]> {
  const family = bedrockEmbeddingFamily(options.model);
  if (!family) throw new Error(`The bedrock embedder knows Amazon Titan (amazon.titan-embed-text-v2:0) and Cohere Embed (cohere.embed-english-v3) models, not ${options.model}.`);
  const config: BedrockRuntimeClientConfig = {
    region: options.region || undefined,
    profile: options.awsProfile || undefined,
    ...(options.apiKey ? { token: { token: options.apiKey }, authSchemePreference: ["httpBearerAuth"] } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  };
  const client = new BedrockRuntimeClient(config);
  const credentials = { awsProfile: options.awsProfile || undefined, apiKey: Boolean(options.apiKey) };
  const invoke = async (body: unknown, signal: AbortSignal | undefined): Promise<unknown> => {
    try {
      const answer = await client.send(
        new InvokeModelCommand({ modelId: options.model, contentType: "application/json", accept: "application/json", body: new TextEncoder().encode(JSON.stringify(body)) }),
        { ...(signal && { abortSignal: signal }) },
      );
      return JSON.parse(new TextDecoder().decode(answer.body));
    } catch (err) {
      throw bedrockFailure(err, credentials);
    }
  };
  if (family === "cohere") {
    return async (texts, signal) => {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += COHERE_BATCH) {
        const parsed = cohereAnswer.parse(await invoke({ texts: texts.slice(i, i + COHERE_BATCH), input_type: "search_document", truncate: "END" }, signal));
        const vectors = Array.isArray(parsed.embeddings) ? parsed.embeddings : parsed.embeddings.float;
        out.push(...vectors.map((v) => Float32Array.from(v)));
      }
      return out;
    };
  }
  return async (texts, signal) => {
    const out = new Array<Float32Array>(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const i = next++;
        out[i] = Float32Array.from(titanAnswer.parse(await invoke({ inputText: texts[i], normalize: true }, signal)).embedding);
      }
    };
    await Promise.all(Array.from({ length: Math.min(TITAN_CONCURRENCY, texts.length) }, worker));
    return out;
  };
}
