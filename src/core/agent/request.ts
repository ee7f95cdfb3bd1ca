import { ProviderError, toProviderError } from "../llm/errors";
import { costOf, usageConvention } from "../llm/models";
import type { LlmMessage, NativeTool, Provider } from "../llm/types";
import type { Logger } from "../ports";
import type { ToolProtocol } from "../prompts/system";
import type { ChatLog } from "./ChatLog";
import type { Conversation } from "./Conversation";
import type { ModelInfoSource } from "./modelInfo";
import { repairToolPairing } from "./pairing";
import { ReplyReader } from "./replyReader";
import { DEFAULT_REPLY_LIMITS, type ReplyLimits } from "./replyLimits";
import type { Toolbox } from "./toolbox";
import type { ToolCall } from "./toolTurn";
import type { UsageMeter } from "./usage";

const CHAT_PROMPT = "You are Kiln, an AI coding assistant inside VS Code. Answer clearly and concisely; use Markdown for code.";

/** What one request produced: the tool calls (each with the id of its chat card) and their protocol. */
export interface Turn {
  calls: ToolCall[];
  native: boolean;
  /** The reply went past a limit and was stopped: one line for the model, sent with the turn's results. */
  note?: string;
}

/** What a request needs of its task. */
export interface RequestContext {
  getProvider(): Promise<Provider>;
  logger: Logger;
  toolbox?: Toolbox;
  systemPrompt?: string;
  log: ChatLog;
  models: ModelInfoSource;
  conversation: Conversation;
  usage: UsageMeter;
  protocol(): ToolProtocol;
  fallBackToXml(reason: string): void;
  /** The model this request goes to, and whether it takes images. */
  noteModel(model: string, vision: boolean): void;
  /** The messages to send: the conversation's view, as the context guard shapes it (old results shortened). */
  messages?(): LlmMessage[];
  /** How much of a reply is read (replyLimits.ts); the defaults when absent. */
  replyLimits?(): ReplyLimits;
}

/** The system prompt and native tools of a request: sent with every request, so counted in its size. */
export function requestFrame(ctx: Pick<RequestContext, "toolbox" | "systemPrompt" | "protocol">): { system: string; tools: NativeTool[] | undefined } {
  const { toolbox } = ctx;
  return {
    system: toolbox ? toolbox.systemPrompt(ctx.protocol()) : (ctx.systemPrompt ?? CHAT_PROMPT),
    tools: toolbox && ctx.protocol() === "native" ? toolbox.nativeTools() : undefined,
  };
}

/**
 * One request: sends the conversation, streams the reply into chat items and the conversation,
 * counts its usage, and returns its tool calls, each with its card. Throws on failure.
 */
export async function requestTurn(signal: AbortSignal, ctx: RequestContext): Promise<Turn> {
  const toolbox = ctx.toolbox;
  const reader = new ReplyReader(toolbox ? toolbox.xmlParams() : {}, ctx.log, (block) => toolbox?.previewEdit(block), ctx.replyLimits?.() ?? DEFAULT_REPLY_LIMITS);
  try {
    const provider = await ctx.getProvider();
    const model = ctx.models.resolve(provider);
    ctx.noteModel(provider.model, model.info.supportsImages);
    if (ctx.protocol() === "native" && toolbox?.protocol === "auto" && !model.info.supportsNativeTools) {
      ctx.fallBackToXml(`${provider.model} does not support native tool calls`);
    }
    const checked = repairToolPairing(ctx.messages ? ctx.messages() : ctx.conversation.apiView());
    for (const problem of checked.problems) ctx.logger.warn(`conversation mended before sending: ${problem}`);
    const stream = provider.stream({
      ...requestFrame(ctx),
      messages: checked.messages,
      // An unknown model's limit is a guess; leave it to the server rather than cut replies short.
      maxTokens: model.known || model.overridden ? model.info.maxOutputTokens : undefined,
      signal,
    });
    for await (const event of stream) {
      if (event.type !== "usage") {
        // Past a limit: leaving the loop ends the request (the provider closes the connection).
        if (!reader.add(event)) break;
        continue;
      }
      const { type: _usage, ...request } = event;
      const cost = costOf(request, model.info, usageConvention(provider.kind));
      ctx.usage.add(request, cost);
      ctx.usage.noteContext(request, model.info, usageConvention(provider.kind));
      ctx.log.fire({ type: "usage", request, cost, total: ctx.usage.total(), totalCost: ctx.usage.totalCost() });
    }
    const { raw, xmlTools, nativeBlocks, cardOf, cut } = reader.finish();
    if (cut) ctx.log.error(cut.forUser, false);
    // Reasoning alone is no answer, and APIs refuse an empty assistant message in the next request.
    const empty = raw.trim() === "" && nativeBlocks.length === 0;
    if (empty && !cut) throw new ProviderError("stream", `${provider.model || "The model"} returned an empty reply.`);
    const native = nativeBlocks.length > 0;
    if (!native && xmlTools.length > 0 && ctx.protocol() === "native" && toolbox?.protocol === "auto") {
      ctx.fallBackToXml("the model called tools as XML in its text");
    }
    // A reply stopped before any text (reasoning without end) still needs a message of its own.
    ctx.conversation.addAssistant(empty ? "[No text: Kiln stopped this reply at a limit.]" : raw, nativeBlocks, () => ctx.log.newId());
    const calls = [...xmlTools, ...nativeBlocks].map((block) => ({ block, itemId: cardOf(block) }));
    return { calls, native, ...(cut && { note: cut.forModel }) };
  } catch (rawErr) {
    ctx.log.finishTextItems();
    throw toProviderError(rawErr, "The provider");
  }
}
