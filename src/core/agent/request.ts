import { ProviderError, toProviderError } from "../llm/errors";
import { costOf, usageConvention } from "../llm/models";
import type { LlmMessage, NativeTool } from "../llm/types";
import type { ToolUseBlock } from "../toolcall/types";
import { repairToolPairing } from "./pairing";
import { ReplyReader } from "./replyReader";
import type { TaskRuntime } from "./taskRuntime";
import type { ToolCall } from "./toolTurn";

const CHAT_PROMPT = "You are Kiln, an AI coding assistant inside VS Code. Answer clearly and concisely; use Markdown for code.";

/** What one request produced: the tool calls (each with the id of its chat card) and their protocol. */
export interface Turn {
  calls: ToolCall[];
  native: boolean;
  /** The reply went past a limit and was stopped: one line for the model, sent with the turn's results. */
  note?: string;
}

/** The system prompt and native tools of a request: sent with every request, so counted in its size. */
export function requestFrame(task: Pick<TaskRuntime, "toolbox" | "systemPrompt" | "protocol" | "modes">): { system: string; tools: NativeTool[] | undefined } {
  const { toolbox, modes } = task;
  if (!toolbox || !modes) return { system: task.systemPrompt ?? CHAT_PROMPT, tools: undefined };
  return { system: toolbox.systemPrompt(task.protocol, modes), tools: task.protocol === "native" ? toolbox.nativeTools(modes.mode) : undefined };
}

/**
 * One request: sends the conversation, streams the reply into chat items and the conversation,
 * counts its usage, and returns its tool calls, each with its card. Throws on failure.
 */
export async function requestTurn(signal: AbortSignal, task: TaskRuntime, messages: LlmMessage[]): Promise<Turn> {
  const { toolbox, log, conversation, usage } = task;
  const auto = toolbox !== undefined && task.protocolSetting === "auto";
  const preview = (block: ToolUseBlock) => task.modes && toolbox?.previewEdit(block, task.modes.mode);
  const reader = new ReplyReader(toolbox ? toolbox.xmlParams() : {}, log, preview, task.replyLimits());
  try {
    const provider = await task.getProvider();
    const model = task.models.resolve(provider);
    task.noteModel(provider, model.info.supportsImages);
    if (task.protocol === "native" && auto && !model.info.supportsNativeTools) {
      task.fallBackToXml(`${provider.model} does not support native tool calls`);
    }
    const checked = repairToolPairing(messages);
    for (const problem of checked.problems) task.logger.warn(`conversation mended before sending: ${problem}`);
    const stream = provider.stream({
      ...requestFrame(task),
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
      const cost = costOf(request, model.info, usageConvention(provider.kind, provider.model));
      usage.add(request, cost);
      usage.noteContext(request, model.info, usageConvention(provider.kind, provider.model));
      log.fire({ type: "usage", request, cost, total: usage.total(), totalCost: usage.totalCost() });
    }
    const { raw, xmlTools, nativeBlocks, cardOf, cut } = reader.finish();
    if (cut) log.error(cut.forUser, false);
    // Reasoning alone is no answer, and APIs refuse an empty assistant message in the next request.
    const empty = raw.trim() === "" && nativeBlocks.length === 0;
    if (empty && !cut) throw new ProviderError("stream", `${provider.model || "The model"} returned an empty reply.`);
    const native = nativeBlocks.length > 0;
    if (!native && xmlTools.length > 0 && task.protocol === "native" && auto) {
      task.fallBackToXml("the model called tools as XML in its text");
    }
    // A reply stopped before any text (reasoning without end) still needs a message of its own.
    conversation.addAssistant(empty ? "[No text: Kiln stopped this reply at a limit.]" : raw, nativeBlocks, () => log.newId());
    const calls = [...xmlTools, ...nativeBlocks].map((block) => ({ block, itemId: cardOf(block) }));
    return { calls, native, ...(cut && { note: cut.forModel }) };
  } catch (rawErr) {
    log.finishTextItems();
    throw toProviderError(rawErr, "The provider");
  }
}
