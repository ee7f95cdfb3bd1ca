import * as l10n from "@vscode/l10n";
import {
  BedrockRuntimeClient,
  ConverseStreamCommand,
  type BedrockRuntimeClientConfig,
  type ContentBlock,
  type ConverseStreamOutput,
  type ImageBlock,
  type Message,
  type Tool,
  type ToolResultContentBlock,
  type ToolUseBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { BedrockClient, ListFoundationModelsCommand, ListInferenceProfilesCommand } from "@aws-sdk/client-bedrock";
import { z } from "zod";
import type { LlmImage, LlmMessage, LlmRequest, ModelListing, NativeTool, Provider, ResolvedProviderConfig, StreamEvent } from "./types";
import { CancelledError, httpFailure, ProviderError, toProviderError } from "./errors";
import { redactDeep, redactSecrets } from "./redact";
import { RequestWatch, watchedEvents, type StreamTimeouts } from "./requestWatch";
import { thinkingBefore, ThinkingCollector, thinkingForConversation, type ThinkingBlock } from "./claudeThinking";
import { reasoningOf, type ReasoningSettings } from "../../shared/reasoning";

const PROVIDER_NAME = "Amazon Bedrock";
const DEFAULT_MAX_TOKENS = 8192;
/** How many pages of inference profiles a listing reads at most: a bound on a server that never stops paging. */
const MAX_PROFILE_PAGES = 20;

/**
 * The HTTP status AWS gives each exception. Exceptions sent as events inside an open stream carry
 * no HTTP status of their own; the status of the same exception as an HTTP error stands in for it.
 */
const EXCEPTION_STATUS: Record<string, number> = {
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  ExpiredTokenException: 403,
  InvalidSignatureException: 403,
  ResourceNotFoundException: 404,
  ValidationException: 400,
  ServiceQuotaExceededException: 400,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ModelStreamErrorException: 424,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};

const IMAGE_FORMATS: Record<LlmImage["mediaType"], ImageBlock["format"]> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

function bedrockImage(image: LlmImage): ImageBlock {
  return { format: IMAGE_FORMATS[image.mediaType], source: { bytes: Buffer.from(image.data, "base64") } };
}

/** Claude on Bedrock, by its model id or an inference profile's (us.anthropic.claude-…, an ARN ending in one). */
function isBedrockClaude(model: string): boolean {
  return /(^|[./])anthropic\.claude-/i.test(model);
}

const CACHE_POINT = { cachePoint: { type: "default" } } as const;
/** Four cache points a request: tools, system, and the last two user turns (as promptCache.ts does for Anthropic). */
const MARKED_USER_TURNS = 2;

/**
 * The Bedrock models that take prompt-cache points: Claude from 3.5 Haiku and 3.7 Sonnet on, and
 * Amazon Nova. A long task then pays a tenth of the input price for what the last request sent.
 */
export function cachesPrompts(model: string): boolean {
  return /(^|[./])anthropic\.claude-(3-7-sonnet|3-5-haiku|(sonnet|opus|haiku)-[4-9])/i.test(model) || /(^|[./])amazon\.nova-(micro|lite|pro|premier)/i.test(model);
}

/** A cache point at the end of the last two user turns: the newest writes this prefix, the one before reads the last request's. */
function withCachePoints(messages: Message[]): Message[] {
  const marked = messages.slice();
  let left = MARKED_USER_TURNS;
  for (let i = marked.length - 1; i >= 0 && left > 0; i--) {
    const message = marked[i]!;
    if (message.role !== "user" || !message.content?.length) continue;
    marked[i] = { ...message, content: [...message.content, CACHE_POINT] };
    left--;
  }
  return marked;
}

/** Claude's thinking as Converse reasoning blocks, sent back unchanged before the calls it led to. */
function converseThinking(block: ThinkingBlock): ContentBlock {
  return block.type === "thinking"
    ? { reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } }
    : { reasoningContent: { redactedContent: Buffer.from(block.data, "base64") } };
}

/**
 * Kiln's messages in Converse's shape: every block of a turn in one message, tool results as
 * toolResult blocks of the user's turn. `withThinking`: a turn that called tools starts with
 * Claude's thinking from then (claudeThinking.ts).
 */
export function toConverseMessages(messages: readonly LlmMessage[], withThinking = false): Message[] {
  return messages.map((m) => {
    if (typeof m.content === "string") return { role: m.role, content: [{ text: m.content }] };
    const firstCall = m.content.find((b) => b.type === "tool_use");
    const thinking = withThinking && m.role === "assistant" && firstCall ? (thinkingBefore(firstCall.id) ?? []) : [];
    const content = m.content.map((block): ContentBlock => {
      switch (block.type) {
        case "text":
          return { text: block.text };
        case "image":
          return { image: bedrockImage(block) };
        case "tool_use":
          return { toolUse: { toolUseId: block.id, name: block.name, input: block.input as NonNullable<ToolUseBlock["input"]> } };
        case "tool_result": {
          // Bedrock refuses a blank text block; a tool that printed nothing still answers something.
          const result: ToolResultContentBlock[] = [{ text: block.content || "(no output)" }, ...(block.images ?? []).map((image) => ({ image: bedrockImage(image) }))];
          return { toolResult: { toolUseId: block.toolUseId, content: result, status: block.isError ? "error" : "success" } };
        }
      }
    });
    // Bedrock refuses blank text blocks too; one beside other blocks says nothing anyway.
    const kept = content.filter((b) => b.text === undefined || b.text !== "");
    return { role: m.role, content: [...thinking.map(converseThinking), ...(kept.length > 0 ? kept : content)] };
  });
}

export function toConverseTools(tools: readonly NativeTool[]): Tool[] {
  return tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as NonNullable<ToolUseBlock["input"]> } } }));
}

/** A count from the server (tokens, a block index): a non-negative integer, else 0. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

/** Whether an event carries part of the reply; messageStart only shows the server is there. */
function isContent(event: ConverseStreamOutput): boolean {
  return Boolean(event.contentBlockStart || event.contentBlockDelta || event.contentBlockStop || event.messageStop || event.metadata);
}

/** The exception members of the stream's union, should the SDK hand one over as an event instead of throwing it. */
function streamException(event: ConverseStreamOutput): { name: string; message?: string } | undefined {
  const members: [string, { message?: string } | undefined][] = [
    ["ThrottlingException", event.throttlingException],
    ["ServiceUnavailableException", event.serviceUnavailableException],
    ["ValidationException", event.validationException],
    ["ModelStreamErrorException", event.modelStreamErrorException],
    ["InternalServerException", event.internalServerException],
  ];
  const found = members.find(([, value]) => value !== undefined);
  return found ? { name: found[0], message: found[1]?.message } : undefined;
}

/** The control plane's host for a runtime endpoint: bedrock-runtime.REGION.amazonaws.com serves Converse, bedrock.REGION.amazonaws.com the model lists. */
export function controlEndpoint(runtimeEndpoint: string): string {
  try {
    const url = new URL(runtimeEndpoint);
    if (!/^bedrock-runtime(-fips)?\./i.test(url.hostname)) return runtimeEndpoint;
    url.hostname = url.hostname.replace(/^bedrock-runtime/i, "bedrock");
    return url.toString().replace(/\/+$/, "");
  } catch {
    return runtimeEndpoint;
  }
}

function incomplete(): ProviderError {
  return new ProviderError("stream", l10n.t("{0}'s reply ended before it was complete (the stream stopped without messageStop).", PROVIDER_NAME));
}

interface AwsErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** How a request was authenticated, for the advice an error gives. */
export interface BedrockCredentials {
  /** The named AWS profile in use, if any. */
  awsProfile?: string;
  /** A Bedrock API key (a bearer token) in place of AWS credentials. */
  apiKey?: boolean;
}

/**
 * What the SDK threw, as the ProviderError a person can act on; never with a credential in it
 * (ProviderError redacts known keys too).
 */
export function bedrockFailure(err: unknown, { awsProfile, apiKey = false }: BedrockCredentials = {}): ProviderError | CancelledError {
  if (err instanceof ProviderError || err instanceof CancelledError) return err;
  const e = (typeof err === "object" && err !== null ? err : {}) as AwsErrorLike;
  const name = typeof e.name === "string" ? e.name : "";
  const detail = (typeof e.message === "string" ? e.message : String(err)).trim().slice(0, 500);
  if (name === "AbortError") return new CancelledError();
  if (name === "CredentialsProviderError" || name === "TokenProviderError") {
    if (awsProfile) {
      return new ProviderError(
        "no_key",
        l10n.t(
          'No AWS credentials were found for {0} in the AWS profile "{1}" ({2}). Check that the profile is in ~/.aws/config or ~/.aws/credentials with keys, a role or SSO; for an SSO profile, run `aws sso login --profile {1}` first.',
          PROVIDER_NAME,
          awsProfile,
          detail,
        ),
      );
    }
    return new ProviderError(
      "no_key",
      l10n.t(
        "No AWS credentials were found for {0} ({1}). Give them in one of the usual ways: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment, or a profile in ~/.aws/credentials or ~/.aws/config named as the AWS profile in Kiln's provider settings (or in AWS_PROFILE); for an SSO profile, run `aws sso login` first.",
        PROVIDER_NAME,
        detail,
      ),
    );
  }
  if (/region is missing|expected `region` to be configured/i.test(detail)) {
    return new ProviderError("config", l10n.t("{0} needs an AWS region: set the region in Kiln's provider settings, AWS_REGION in the environment, or a region in the AWS profile.", PROVIDER_NAME));
  }
  // The SDK's event-stream decoder: the stream ended inside a frame (the connection dropped mid-event)…
  if (/Truncated event message/i.test(detail)) return incomplete();
  // …or a frame fails its CRC, or is malformed.
  if (/checksum|event stream message|Unrecognizable event type|message length does not match/i.test(detail)) {
    return new ProviderError("stream", l10n.t("{0} sent a reply Kiln could not read ({1}).", PROVIDER_NAME, detail));
  }
  const status = typeof e.$metadata?.httpStatusCode === "number" ? e.$metadata.httpStatusCode : EXCEPTION_STATUS[name];
  if (e.$fault !== undefined && name) {
    if (name === "ModelStreamErrorException") {
      return new ProviderError("stream", l10n.t("{0} reported an error mid-stream: {1}", PROVIDER_NAME, detail), status, undefined, detail);
    }
    if (name === "ModelErrorException" || name === "ModelTimeoutException") {
      return new ProviderError("server", l10n.t("The model on {0} failed to answer ({1}: {2}). Try again in a moment.", PROVIDER_NAME, name, detail), status, undefined, detail);
    }
    const resolvedStatus = status ?? (e.$fault === "server" ? 500 : 400);
    // Bedrock says a request is over the window with a ValidationException whose words vary by model ("Input is too long", "prompt is too long", "context").
    const code = name === "ValidationException" && /too long|context/i.test(detail) ? "context_length_exceeded" : name;
    const failure = httpFailure({ status: resolvedStatus, detail, code }, PROVIDER_NAME);
    if (failure.kind === "auth" && !apiKey) {
      // Signed with AWS credentials, not a key: setting an API key is not the way out.
      return new ProviderError(
        "auth",
        l10n.t(
          "{0} rejected the AWS credentials (HTTP {1}: {2}). Check the access keys or the AWS profile in use; credentials from SSO or a session expire, so run `aws sso login` (or renew the session) again.",
          PROVIDER_NAME,
          resolvedStatus,
          detail,
        ),
        resolvedStatus,
        undefined,
        detail,
      );
    }
    return failure;
  }
  // The runtime client speaks HTTP/2: a connection that goes away mid-reply shows up as a session or stream error.
  const code = typeof e.code === "string" ? e.code : "";
  if (/^ERR_HTTP2/.test(code) || /session closed|stream closed|goaway/i.test(detail)) {
    return new ProviderError("network", l10n.t("The connection to {0} was cut mid-reply ({1}).", PROVIDER_NAME, detail));
  }
  return toProviderError(err, PROVIDER_NAME);
}

const modelId = z
  .string()
  .min(1)
  .max(300)
  .refine((s) => !/[\u0000-\u001f\s]/.test(s));
const displayName = z.string().min(1).max(200).optional().catch(undefined);
const names = z.array(z.string()).optional().catch(undefined);

const foundationModel = z.looseObject({
  modelId,
  modelArn: z.string().optional().catch(undefined),
  modelName: displayName,
  inputModalities: names,
  outputModalities: names,
  inferenceTypesSupported: names,
});

const inferenceProfile = z.looseObject({
  inferenceProfileId: modelId,
  inferenceProfileArn: z.string().max(500).optional().catch(undefined),
  inferenceProfileName: displayName,
  status: z.string().optional().catch(undefined),
  type: z.string().optional().catch(undefined),
  models: z
    .array(z.looseObject({ modelArn: z.string().optional().catch(undefined) }))
    .optional()
    .catch(undefined),
});

type FoundationModel = z.infer<typeof foundationModel>;

/** The foundation model an ARN names: arn:aws:bedrock:REGION::foundation-model/MODEL_ID. */
function modelIdOfArn(arn: string | undefined): string | undefined {
  return arn ? /:foundation-model\/(.+)$/.exec(arn)?.[1] : undefined;
}

function withName(id: string, name: string | undefined): { id: string; name?: string } {
  return name && name !== id ? { id, name } : { id };
}

export class BedrockProvider implements Provider {
  readonly kind = "bedrock" as const;
  readonly model: string;
  private readonly runtime: BedrockRuntimeClient;
  private readonly control: BedrockClient;
  private readonly timeouts: StreamTimeouts;
  private readonly credentials: BedrockCredentials;
  private readonly reasoning: ReasoningSettings;

  constructor(config: ResolvedProviderConfig) {
    this.model = config.model;
    this.reasoning = reasoningOf(config);
    this.timeouts = config.timeouts;
    this.credentials = { awsProfile: config.awsProfile || undefined, apiKey: Boolean(config.apiKey) };
    const shared: BedrockRuntimeClientConfig = {
      // Absent: the SDK's own resolution (AWS_REGION, the profile's region).
      region: config.region || undefined,
      // Absent: the standard chain (environment keys, shared files, SSO, process, web identity, IMDS).
      profile: this.credentials.awsProfile,
      // Retries belong to the loop (it shows them and honours Retry-After), not to the SDK.
      maxAttempts: 1,
      // A Bedrock API key is a bearer token, which this SDK sends in place of a SigV4 signature.
      ...(config.apiKey ? { token: { token: config.apiKey }, authSchemePreference: ["httpBearerAuth"] } : {}),
    };
    this.runtime = new BedrockRuntimeClient({ ...shared, ...(config.baseUrl ? { endpoint: config.baseUrl } : {}) });
    this.control = new BedrockClient({ ...shared, ...(config.baseUrl ? { endpoint: controlEndpoint(config.baseUrl) } : {}) });
  }

  async *stream(request: LlmRequest): AsyncIterable<StreamEvent> {
    let complete = false;
    const watch = new RequestWatch(request.signal, this.timeouts, PROVIDER_NAME);
    try {
      // The one door to the model for every request (turns, condensing, sampling): no key goes through it.
      const system = redactSecrets(request.system);
      const sent = redactDeep(request.messages);
      // Extended thinking is Claude's on Bedrock (the model's own field); other models reason as they do.
      const { maxTokens, thinking } = isBedrockClaude(this.model)
        ? thinkingForConversation(this.reasoning, request.maxTokens, DEFAULT_MAX_TOKENS, sent)
        : { maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS, thinking: undefined };
      const messages = toConverseMessages(sent, thinking !== undefined);
      const caches = cachesPrompts(this.model);
      const collected = new ThinkingCollector();
      const output = await watch.guard(
        this.runtime.send(
          new ConverseStreamCommand({
            modelId: this.model,
            // Cache marks only for the models that cache: Bedrock rejects one for the others ("You invoked an
            // unsupported model or your request did not allow prompt caching": Llama, DeepSeek, Qwen,
            // Mistral, the first Claude 3 models) instead of ignoring it.
            ...(system ? { system: caches ? [{ text: system }, CACHE_POINT] : [{ text: system }] } : {}),
            messages: caches ? withCachePoints(messages) : messages,
            inferenceConfig: { maxTokens },
            ...(thinking ? { additionalModelRequestFields: { thinking: { type: thinking.type, budget_tokens: thinking.budget_tokens } } } : {}),
            ...(request.tools?.length ? { toolConfig: { tools: caches ? [...toConverseTools(request.tools), CACHE_POINT] : toConverseTools(request.tools) } } : {}),
          }),
          { abortSignal: watch.signal },
        ),
      );
      if (!output.stream) throw new ProviderError("stream", l10n.t("{0} answered without a stream of events.", PROVIDER_NAME));
      for await (const event of watchedEvents(output.stream, watch, isContent)) {
        const exception = streamException(event);
        if (exception) throw Object.assign(new Error(exception.message ?? exception.name), { name: exception.name, $fault: "server" });
        if (event.contentBlockStart) {
          const use = event.contentBlockStart.start?.toolUse;
          if (use?.toolUseId) collected.toolUse(use.toolUseId);
          if (use) yield { type: "tool_call_delta", index: count(event.contentBlockStart.contentBlockIndex), id: use.toolUseId, name: use.name, argsDelta: "" };
        } else if (event.contentBlockDelta) {
          const { delta, contentBlockIndex } = event.contentBlockDelta;
          if (typeof delta?.text === "string" && delta.text) yield { type: "text", text: delta.text };
          else if (delta?.reasoningContent) {
            const index = count(contentBlockIndex);
            const { text, signature, redactedContent } = delta.reasoningContent;
            if (typeof signature === "string") collected.signature(index, signature);
            if (redactedContent instanceof Uint8Array) collected.redacted(index, Buffer.from(redactedContent).toString("base64"));
            if (typeof text === "string" && text) {
              collected.thinking(index, text);
              yield { type: "reasoning", text };
            }
          } else if (typeof delta?.toolUse?.input === "string") yield { type: "tool_call_delta", index: count(contentBlockIndex), argsDelta: delta.toolUse.input };
        } else if (event.messageStop) {
          complete = true;
          collected.finish();
        } else if (event.metadata?.usage) {
          const usage = event.metadata.usage;
          // Bedrock's inputTokens leaves out the cache reads and writes, as Anthropic's does (models.ts, usageConvention).
          yield {
            type: "usage",
            inputTokens: count(usage.inputTokens),
            outputTokens: count(usage.outputTokens),
            cacheReadTokens: count(usage.cacheReadInputTokens),
            cacheWriteTokens: count(usage.cacheWriteInputTokens),
          };
        }
      }
      if (request.signal?.aborted) throw new CancelledError();
      if (!complete) throw incomplete();
    } catch (err) {
      throw bedrockFailure(watch.failure(err), this.credentials);
    } finally {
      watch.dispose();
    }
  }

  /**
   * The text models of the region: the cross-region inference profiles first (newer models are
   * invoked only through one, by its id such as us.anthropic.claude-…), then the foundation models
   * that may be invoked on demand by their own id.
   */
  async listModels(signal?: AbortSignal): Promise<ModelListing[]> {
    try {
      const [listed, profiles] = await Promise.all([
        this.control.send(new ListFoundationModelsCommand({ byOutputModality: "TEXT" }), { abortSignal: signal }),
        // A region or an account without inference profiles (or without the right to list them) still has its foundation models.
        this.inferenceProfiles(signal).catch((err: unknown) => {
          if (signal?.aborted) throw err;
          return [];
        }),
      ]);
      const models = new Map<string, FoundationModel>();
      for (const raw of Array.isArray(listed.modelSummaries) ? listed.modelSummaries : []) {
        const m = foundationModel.safeParse(raw);
        if (m.success) models.set(m.data.modelId, m.data);
      }
      const out: ModelListing[] = [];
      const seen = new Set<string>();
      const add = (listing: ModelListing) => {
        if (seen.has(listing.id)) return;
        seen.add(listing.id);
        out.push(listing);
      };
      for (const raw of profiles) {
        const p = inferenceProfile.safeParse(raw);
        if (!p.success || (p.data.status !== undefined && p.data.status !== "ACTIVE")) continue;
        const underlying = (p.data.models ?? []).map((m) => models.get(modelIdOfArn(m.modelArn) ?? "")).filter((m) => m !== undefined);
        // A profile for a model the text list does not have (an embedding model) is no use to a chat.
        if ((p.data.models?.length ?? 0) > 0 && underlying.length === 0 && models.size > 0) continue;
        // An application profile is invoked by its ARN; a system-defined one by its id.
        const id = p.data.type === "APPLICATION" && p.data.inferenceProfileArn ? p.data.inferenceProfileArn : p.data.inferenceProfileId;
        const inputs = underlying[0]?.inputModalities;
        add({ ...withName(id, p.data.inferenceProfileName), ...(inputs ? { info: { supportsImages: inputs.includes("IMAGE") } } : {}) });
      }
      for (const m of models.values()) {
        if (m.outputModalities && !m.outputModalities.includes("TEXT")) continue;
        // A model offered only through inference profiles cannot be invoked by its own id: its profile is listed above.
        if (!m.inferenceTypesSupported?.includes("ON_DEMAND")) continue;
        add({ ...withName(m.modelId, m.modelName), ...(m.inputModalities ? { info: { supportsImages: m.inputModalities.includes("IMAGE") } } : {}) });
      }
      return out;
    } catch (err) {
      throw bedrockFailure(signal?.aborted ? new CancelledError() : err, this.credentials);
    }
  }

  private async inferenceProfiles(signal: AbortSignal | undefined): Promise<unknown[]> {
    const out: unknown[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < MAX_PROFILE_PAGES; page++) {
      const listed = await this.control.send(new ListInferenceProfilesCommand({ maxResults: 1000, ...(nextToken ? { nextToken } : {}) }), { abortSignal: signal });
      if (Array.isArray(listed.inferenceProfileSummaries)) out.push(...listed.inferenceProfileSummaries);
      nextToken = typeof listed.nextToken === "string" && listed.nextToken ? listed.nextToken : undefined;
      if (!nextToken) break;
    }
    return out;
  }
}
