import type { Disposable } from "../../shared/disposable";
import type { AssistantItem, ChatItem, ToolItem } from "../../shared/protocol/chat";
import { ChatLog, type TaskStatus } from "./ChatLog";
import { CancelledError, ProviderError, toProviderError } from "../llm/errors";
import type { LlmContent, LlmMessage, Provider } from "../llm/types";
import type { Logger } from "../ports";
import type { Toolbox } from "./toolbox";
import { repairToolPairing } from "./pairing";
import { BlockPresenter } from "./presenter";
import { RepetitionGuard } from "./guards";
import { AssistantMessageParser } from "../toolcall/xml/AssistantMessageParser";
import { NativeToolCallAssembler } from "../toolcall/native/NativeToolCallAssembler";
import type { ToolUseBlock } from "../toolcall/types";
import { runToolCall } from "../tools/pipeline";
import { DEFAULT_RETRY, isTransient, retryDelay, sleep, type RetryPolicy } from "./retry";

export interface TaskOptions {
  /** Resolved per request, so a key or setting changed after an error is picked up by Retry. */
  getProvider(): Promise<Provider>;
  logger: Logger;
  /** Without tools the task is a plain chat: one streamed reply per message. */
  toolbox?: Toolbox;
  systemPrompt?: string;
  /** Read per request, like the provider, so a changed setting applies to the next request. */
  retry?: RetryPolicy | (() => RetryPolicy);
}

export type { TaskEvent, TaskStatus } from "./ChatLog";

const CHAT_PROMPT = "You are Kiln, an AI coding assistant inside VS Code. Answer clearly and concisely; use Markdown for code.";
const MAX_CONSECUTIVE_ERRORS = 3;
const MAX_NO_TOOL_REPLIES = 3;

/** What one request produced: the tool calls (each with the id of its chat card) and their protocol. */
interface Turn {
  calls: { block: ToolUseBlock; itemId: string | undefined }[];
  native: boolean;
}

/**
 * A call that the user's next message answers (a question, or feedback on a completion), with the
 * results of the other calls of that turn, which go in the same message.
 */
interface Pending {
  name: string;
  /** Native call id; undefined for XML. */
  id: string | undefined;
  results: LlmContent[];
  texts: string[];
}

/**
 * One conversation with the model, and the loop: request, stream through the parser, run the
 * tools, send their results, until the model completes, asks, fails, or a limit stops it.
 */
export class Task implements Disposable {
  private readonly log = new ChatLog();
  /**
   * The API conversation. It only grows (the last user message may gain text when a request failed
   * and the user wrote again), so it can be saved and replayed.
   */
  private readonly history: LlmMessage[] = [];
  readonly onDidChange = this.log.onDidChange;
  private controller: AbortController | undefined;
  private requests = 0;
  private pending: Pending | undefined;
  private readonly repetition = new RepetitionGuard();
  private consecutiveErrors = 0;
  private statusValue: TaskStatus = "idle";

  constructor(private readonly options: TaskOptions) {}

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get status(): TaskStatus {
    return this.statusValue;
  }

  snapshot(): ChatItem[] {
    return this.log.snapshot();
  }

  /** The API messages so far (a copy), for saving and for tests. */
  apiHistory(): LlmMessage[] {
    return structuredClone(this.history);
  }

  async send(text: string): Promise<void> {
    if (this.busy) throw new Error("a reply is still streaming; wait for it or cancel it first");
    this.log.append({ id: this.log.newId(), role: "user", text });
    this.addUserText(text);
    this.consecutiveErrors = 0;
    this.repetition.reset();
    await this.run();
  }

  /** Drops the failed attempt (error and any partial reply) and asks the model again. */
  async retry(): Promise<void> {
    if (this.busy) return;
    if (this.history.at(-1)?.role !== "user") {
      this.options.logger.warn("retry ignored: the last request did not fail");
      return;
    }
    this.log.removeFailedAttempt();
    await this.run();
  }

  cancel(): void {
    this.controller?.abort();
  }

  dispose(): void {
    this.cancel();
    this.log.dispose();
  }

  /** The user's words, as the answer to a pending call where there is one. */
  private addUserText(text: string): void {
    const last = this.history.at(-1);
    if (this.pending) {
      const { name, id, results, texts } = this.pending;
      this.pending = undefined;
      const answer = name === "ask_followup_question" ? `<answer>\n${text}\n</answer>` : `The user replied:\n<feedback>\n${text}\n</feedback>`;
      if (id) {
        const content: LlmContent[] = [...results, { type: "tool_result", toolUseId: id, content: answer }, ...texts.map((t) => ({ type: "text" as const, text: t }))];
        this.history.push({ role: "user", content });
      } else {
        this.history.push({ role: "user", content: [...texts, `[${name}] Result:\n${answer}`].join("\n\n") });
      }
    } else if (last?.role === "user") {
      // The previous request failed and the user moved on: APIs want turns to alternate.
      last.content = typeof last.content === "string" ? `${last.content}\n\n${text}` : [...last.content, { type: "text", text }];
    } else {
      this.history.push({ role: "user", content: text });
    }
  }

  private setStatus(status: TaskStatus, reason?: string): void {
    this.statusValue = status;
    this.log.fire({ type: "status", status, reason });
  }

  private async run(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.log.fire({ type: "busy", busy: true });
    this.setStatus("running");
    try {
      let noToolReplies = 0;
      for (;;) {
        const toolbox = this.options.toolbox;
        if (toolbox && this.requests >= toolbox.maxRequests) {
          this.stop("stopped", `The task reached its limit of ${toolbox.maxRequests} requests. Send a message to go on.`);
          return;
        }
        this.requests++;
        const turn = await this.streamWithRetries(controller.signal);
        if (!turn) return;
        if (!toolbox) {
          this.setStatus("idle");
          return;
        }
        if (turn.calls.length === 0) {
          noToolReplies++;
          if (noToolReplies >= MAX_NO_TOOL_REPLIES) {
            this.stop("failed", "The model answered without using a tool three times in a row; Kiln stopped the task. Send a message to go on.");
            return;
          }
          this.history.push({
            role: "user",
            content: "[ERROR] You did not use a tool. Use a tool for the next step; use attempt_completion if the task is done or ask_followup_question if you need the user.",
          });
          continue;
        }
        noToolReplies = 0;
        const next = await this.runTools(turn.calls, turn.native, controller.signal);
        if (next === "done") return;
      }
    } finally {
      this.controller = undefined;
      this.log.fire({ type: "busy", busy: false });
    }
  }

  /** One request: streams text into chat items and returns the tool calls, each with its card; throws on failure. */
  private async streamTurn(signal: AbortSignal): Promise<Turn> {
    const toolbox = this.options.toolbox;
    const parser = new AssistantMessageParser(toolbox ? toolbox.xmlParams() : {});
    const assembler = new NativeToolCallAssembler();
    const sink = {
      append: (item: AssistantItem | ToolItem) => this.log.append(item),
      textDelta: (id: string, delta: string) => this.log.textDelta(id, delta, "text"),
      changed: (item: ToolItem) => this.log.replace(item),
      newId: () => this.log.newId(),
    };
    const textView = new BlockPresenter(sink);
    const nativeView = new BlockPresenter(sink);
    let raw = "";
    let reasoning: AssistantItem | undefined;
    try {
      const provider = await this.options.getProvider();
      const checked = repairToolPairing(this.history);
      for (const problem of checked.problems) this.options.logger.warn(`conversation mended before sending: ${problem}`);
      const stream = provider.stream({
        system: toolbox ? toolbox.systemPrompt() : (this.options.systemPrompt ?? CHAT_PROMPT),
        messages: checked.messages,
        tools: toolbox?.protocol === "native" ? toolbox.nativeTools() : undefined,
        signal,
      });
      for await (const event of stream) {
        if (event.type === "text") {
          raw += event.text;
          textView.update(parser.processChunk(event.text));
        } else if (event.type === "reasoning") {
          if (!reasoning) {
            reasoning = { id: this.log.newId(), role: "assistant", text: "", reasoning: "", partial: true };
            this.log.append(reasoning);
          }
          this.log.textDelta(reasoning.id, event.text, "reasoning");
        } else if (event.type === "tool_call_delta") {
          assembler.add(event);
          nativeView.update(assembler.blocks());
        }
      }
      parser.finalizeContentBlocks();
      const nativeBlocks = assembler.finalize();
      textView.update(parser.getContentBlocks(), true);
      nativeView.update(nativeBlocks, true);
      this.log.finishTextItems();
      const xmlTools = parser.getContentBlocks().filter((b): b is ToolUseBlock => b.type === "tool_use");
      if (raw.trim() === "" && nativeBlocks.length === 0 && !reasoning) {
        throw new ProviderError("stream", `${provider.model || "The model"} returned an empty reply.`);
      }
      const native = nativeBlocks.length > 0;
      this.history.push(this.assistantMessage(raw, nativeBlocks));
      const calls = [...xmlTools, ...nativeBlocks].map((block) => ({ block, itemId: textView.idOf(block) ?? nativeView.idOf(block) }));
      return { calls, native };
    } catch (rawErr) {
      this.log.finishTextItems();
      throw toProviderError(rawErr, "The provider");
    }
  }

  /**
   * Sends the request, and again after a transient failure (429, 5xx, a dropped or cut stream)
   * with backoff that honours Retry-After. What a failed attempt showed is taken back first.
   */
  private async streamWithRetries(signal: AbortSignal): Promise<Turn | undefined> {
    const option = this.options.retry ?? DEFAULT_RETRY;
    const policy = typeof option === "function" ? option() : option;
    for (let attempt = 1; ; attempt++) {
      const mark = this.log.size;
      try {
        return await this.streamTurn(signal);
      } catch (err) {
        if (err instanceof CancelledError || signal.aborted) {
          this.log.error("Cancelled. Retry to ask again.", true);
          this.setStatus("stopped", "cancelled");
          return undefined;
        }
        const error = err as ProviderError;
        this.options.logger.warn(`request failed (${error.kind}${error.status ? ` ${error.status}` : ""}): ${error.message}`);
        if (attempt <= policy.maxRetries && isTransient(error)) {
          const delayMs = retryDelay(error, attempt, policy);
          this.log.removeFrom(mark);
          this.log.fire({ type: "retrying", attempt, of: policy.maxRetries, delayMs, reason: error.message });
          if (await sleep(delayMs, signal)) continue;
          this.log.error("Cancelled. Retry to ask again.", true);
          this.setStatus("stopped", "cancelled");
          return undefined;
        }
        this.log.append({ id: this.log.newId(), role: "error", error: error.toChatError() });
        this.setStatus("failed", error.message);
        return undefined;
      }
    }
  }

  private assistantMessage(raw: string, nativeBlocks: ToolUseBlock[]): LlmMessage {
    if (nativeBlocks.length === 0) return { role: "assistant", content: raw };
    const content: LlmContent[] = raw ? [{ type: "text", text: raw }] : [];
    for (const block of nativeBlocks) {
      block.id ??= `call_${this.log.newId()}`;
      content.push({ type: "tool_use", id: block.id, name: block.name || "unknown", input: block.input ?? {} });
    }
    return { role: "assistant", content };
  }

  /**
   * Runs the calls in order. Native calls each get exactly one tool_result in the next message
   * (skipped ones too); XML calls get their results as text.
   */
  private async runTools(calls: Turn["calls"], native: boolean, signal: AbortSignal): Promise<"continue" | "done"> {
    const toolbox = this.options.toolbox!;
    const results: LlmContent[] = [];
    const texts: string[] = [];
    let stopAfter: "continue" | "done" = "continue";
    let skipRest: string | undefined;
    let waitFor: { block: ToolUseBlock; status: TaskStatus } | undefined;
    for (const { block, itemId } of calls) {
      const report = (forModel: string, isError: boolean) => {
        if (block.id && native) results.push({ type: "tool_result", toolUseId: block.id, content: forModel, isError });
        else texts.push(`[${block.name}] Result:\n${forModel}`);
      };
      if (skipRest) {
        this.log.updateTool(itemId, "error", skipRest);
        report(skipRest, true);
        continue;
      }
      const repeated = this.repetition.check(block);
      if (repeated) {
        this.log.updateTool(itemId, "error", repeated);
        report(`Error: ${repeated}`, true);
        this.stop("stopped", repeated);
        stopAfter = "done";
        skipRest = `Skipped: ${repeated}`;
        continue;
      }
      this.log.updateTool(itemId, "running");
      const result = await runToolCall(block, toolbox.pipeline(signal));
      if (signal.aborted) {
        report("The user cancelled the task.", true);
        skipRest = "Skipped: the task was cancelled.";
        this.stop("stopped", "cancelled");
        stopAfter = "done";
        continue;
      }
      if (result.status === "done" && result.outcome.kind !== "result") {
        // A question or a completion: the user's next message answers it; later calls are skipped.
        this.log.updateTool(itemId, "done");
        if (result.outcome.kind === "question") {
          this.log.append({ id: this.log.newId(), role: "question", question: result.outcome.question, suggestions: result.outcome.suggestions });
        } else {
          this.log.append({ id: this.log.newId(), role: "completion", result: result.outcome.result, command: result.outcome.command });
        }
        waitFor = { block, status: result.outcome.kind === "question" ? "answering" : "completed" };
        skipRest = `Skipped: ${block.name} came first and ended the turn.`;
        continue;
      }
      this.log.updateTool(itemId, result.status, result.forModel);
      report(result.forModel, result.status !== "done");
      if (result.status === "denied") {
        skipRest = `Skipped: the user denied ${block.name} before this call.`;
        this.consecutiveErrors = 0;
      } else if (result.status === "error") {
        this.consecutiveErrors++;
        if (this.consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
          this.stop("stopped", `${MAX_CONSECUTIVE_ERRORS} tool calls failed in a row. Tell Kiln how to go on, or start a new task.`);
          stopAfter = "done";
          skipRest = "Skipped: too many errors in a row.";
        }
      } else {
        this.consecutiveErrors = 0;
      }
    }
    if (waitFor) {
      this.pending = { name: waitFor.block.name, id: native ? waitFor.block.id : undefined, results, texts };
      this.setStatus(waitFor.status);
      return "done";
    }
    const content: LlmContent[] = [...results, ...texts.map((text) => ({ type: "text" as const, text }))];
    this.history.push({ role: "user", content: native ? content : texts.join("\n\n") });
    return stopAfter;
  }

  private stop(status: TaskStatus, reason: string): void {
    this.log.error(reason, false);
    this.setStatus(status, reason);
  }
}
