import type { Disposable } from "../../shared/disposable";
import type { ChatItem } from "../../shared/protocol/chat";
import type { TaskInfo } from "../../shared/protocol/messages";
import { ChatLog, type TaskStatus } from "./ChatLog";
import type { LlmImage, LlmMessage, Provider } from "../llm/types";
import type { Logger } from "../ports";
import type { Toolbox } from "./toolbox";
import { RepetitionGuard } from "./guards";
import { runToolTurn } from "./toolTurn";
import type { ApprovalTally, PipelineDeps } from "./pipeline";
import type { SubtaskResult, TaskControls, TodoItem } from "../ports/taskControls";
import type { Mode } from "../modes/modes";
import { awaitSubtask, forwardSubtask } from "./subtask";
import { ModelInfoSource } from "./modelInfo";
import { ContextGuard, type ContextOptions } from "./contextGuard";
import { Conversation } from "./Conversation";
import { requestTurn, type Turn } from "./request";
import type { ToolProtocol } from "../prompts/system";
import { taskInfo, UsageMeter } from "./usage";
import { DEFAULT_RETRY, rejectsTools, withRetries, type RetryPolicy } from "./retry";
import type { SavedTask } from "../history/types";
import { recordOf, restoreParts, type TaskIdentity } from "./taskRecord";
import { checkedReplyLimits, type ReplyLimits } from "./replyLimits";

export interface TaskOptions {
  /** Resolved per request, so a key or setting changed after an error is picked up by Retry. */
  getProvider(): Promise<Provider>;
  logger: Logger;
  /** Without tools the task is a plain chat: one streamed reply per message. */
  toolbox?: Toolbox;
  systemPrompt?: string;
  /** Read per request, like the provider, so a changed setting applies to the next request. */
  retry?: RetryPolicy | (() => RetryPolicy);
  /** The user's corrections to the model table (window, max output, prices); validated here. */
  modelOverrides?(): unknown;
  /** Prefix of chat item ids; a subtask gets its own so its items can join the parent's chat. */
  idPrefix?: string;
  /** Its place in task history; a task without one is not saved. */
  identity?: TaskIdentity;
  /** A task from history to go on with (its chat, conversation, usage and todos). */
  restored?: SavedTask;
  /** Window, condensing and budgets (contextGuard.ts); without it the defaults and no budget. */
  context?: ContextOptions;
  /** How much of one reply is read (replyLimits.ts); read per request, checked here. */
  replyLimits?(): Partial<Record<keyof ReplyLimits, unknown>> | undefined;
}

export type { TaskEvent, TaskStatus } from "./ChatLog";

const MAX_NO_TOOL_REPLIES = 3;

/**
 * One conversation with the model, and the loop: request, stream through the parser, run the
 * tools, send their results, until the model completes, asks, fails, or a limit stops it.
 */
export class Task implements Disposable {
  private readonly log: ChatLog;
  private readonly conversation: Conversation;
  get onDidChange(): ChatLog["onDidChange"] {
    return this.log.onDidChange;
  }
  private controller: AbortController | undefined;
  private requests = 0;
  private readonly repetition = new RepetitionGuard();
  private readonly errors = { count: 0 };
  private statusValue: TaskStatus = "idle";
  /** The protocol requests use now; with "auto" it starts native and may fall back to XML for good. */
  private protocol: ToolProtocol;
  private readonly usage = new UsageMeter();
  /** What budgets count against: a subtask's parent's meter, which its usage is added to. */
  private budgetMeter = this.usage;
  private readonly guard: ContextGuard;
  private readonly models: ModelInfoSource;
  /** Whether the current model takes images, as of the last request. */
  private vision = false;
  /** The model of the last request, for task history. */
  private model = "";

  private todoList: TodoItem[] = [];
  /** The running subtask: the user's messages go to it while it waits for an answer. */
  private child: Task | undefined;
  private subtasks = 0;
  /** For the auto-approve limits; a subtask shares its parent's, whose cost includes the subtask's. */
  private approvalTally: ApprovalTally = { autoApproved: 0, costSoFar: () => this.usage.totalCost() ?? 0 };

  constructor(private readonly options: TaskOptions) {
    this.log = new ChatLog(options.idPrefix);
    this.models = new ModelInfoSource(options.modelOverrides, options.logger);
    // Its checkpoints live under its history id, so a task reopened from history keeps them.
    if (options.identity) options.toolbox?.checkpoints?.useTaskId(options.identity.id);
    this.protocol = options.toolbox?.protocol === "xml" ? "xml" : "native";
    const restored = options.restored && restoreParts(options.restored, this.usage);
    this.conversation = restored?.conversation ?? new Conversation();
    if (restored) {
      this.log.load(restored.items);
      ({ todos: this.todoList, requests: this.requests, status: this.statusValue, protocol: this.protocol, model: this.model } = restored);
    }
    const { getProvider, logger, toolbox, systemPrompt, context } = options;
    this.guard = new ContextGuard({
      ...{ getProvider, logger, toolbox, systemPrompt, log: this.log, models: this.models, conversation: this.conversation, usage: this.usage, options: context },
      protocol: () => this.protocol,
      budgetMeter: () => this.budgetMeter,
    });
  }

  /** The task as task history saves it; undefined for a task that has no place in history. */
  saved(): SavedTask | undefined {
    const { identity } = this.options;
    const { conversation, requests, protocol, model, usage } = this;
    return identity && recordOf({ identity, conversation, items: this.log.snapshot(), usage, todos: this.todoList, requests, status: this.statusValue, mode: this.info().mode, protocol, model });
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get status(): TaskStatus {
    return this.statusValue;
  }

  snapshot(): ChatItem[] {
    return this.log.snapshot();
  }

  /** An item the host adds (an MCP server's request): appended, or replaced when shown before. */
  showItem(item: ChatItem): void {
    if (this.log.find(item.id)) this.log.replace(item);
    else this.log.append(item);
  }

  /** The API messages so far (a copy), for saving and for tests. */
  apiHistory(): LlmMessage[] {
    return this.conversation.all();
  }

  /** What the chat header shows: mode, tokens, cost, todos. */
  info(): TaskInfo {
    const changedFiles = this.options.toolbox?.changes.list().length ?? 0;
    return taskInfo(this.usage, { mode: this.options.toolbox?.mode.slug ?? "chat", status: this.statusValue, changedFiles, todos: this.todoList });
  }

  /**
   * The user picked a mode (chat input, keybinding): like switch_mode, it applies from the next
   * request on. False when the task has no tools or knows no such mode.
   */
  setMode(slug: string): boolean {
    const toolbox = this.options.toolbox;
    const mode = toolbox?.modes.find((m) => m.slug === slug);
    if (!toolbox || !mode) return false;
    toolbox.mode = mode;
    this.log.fire({ type: "mode", mode: mode.slug });
    return true;
  }

  /** Whether a message can be sent now: the task is idle, or its subtask waits for an answer. */
  get acceptsInput(): boolean {
    return this.child ? !this.child.busy : !this.busy;
  }

  /** `forModel`: what the model reads when it differs from what the chat shows (mentions resolved, a workflow's body). */
  async send(text: string, images: readonly LlmImage[] = [], forModel?: string): Promise<void> {
    if (this.child) return this.child.send(text, images, forModel);
    if (this.busy) throw new Error("a reply is still streaming; wait for it or cancel it first");
    const { taken, model } = images.length > 0 ? await this.models.imagesFor(this.options.getProvider, images) : { taken: [], model: "" };
    const shown = taken.map((image) => `data:${image.mediaType};base64,${image.data}`);
    this.log.append({ id: this.log.newId(), role: "user", text, ...(shown.length > 0 ? { images: shown } : {}) });
    if (taken.length < images.length) {
      this.log.error(`${model} does not take images, so the ${images.length === 1 ? "image was" : `${images.length} images were`} not sent; pick a vision model to send images.`, false);
    }
    this.conversation.addUserText(forModel ?? text, taken);
    this.errors.count = 0;
    this.repetition.reset();
    await this.run();
  }

  /** Goes on after a cancel or a limit, telling the model the last step may not have finished. */
  async resume(): Promise<void> {
    if (this.busy || (this.statusValue !== "stopped" && this.statusValue !== "failed")) return;
    this.conversation.addUserText("[The user resumed the task after it stopped. The last step may not have finished: check the state of what it touched, then go on.]");
    this.errors.count = 0;
    this.repetition.reset();
    await this.run();
  }

  /** Drops the failed attempt (error and any partial reply) and asks the model again. */
  async retry(): Promise<void> {
    if (this.busy) return;
    if (this.conversation.lastRole !== "user") {
      this.options.logger.warn("retry ignored: the last request did not fail");
      return;
    }
    this.log.removeFailedAttempt();
    await this.run();
  }

  /** Restore files and task: the chat and the conversation go back to a checkpoint; the task waits for a message. */
  rewindTo(checkpointId: string): boolean {
    const item = this.log.find(checkpointId);
    if (this.busy || item?.role !== "checkpoint" || item.apiIndex === undefined || !this.log.removeAfter(checkpointId)) return false;
    this.conversation.rewind(item.apiIndex);
    this.setStatus("idle");
    return true;
  }

  /** The Condense button: summarises the conversation now, between requests. */
  async condenseNow(): Promise<void> {
    if (this.busy || this.child) return;
    const controller = (this.controller = new AbortController());
    this.log.fire({ type: "busy", busy: true });
    try {
      await this.guard.condenseNow(controller.signal);
    } finally {
      this.controller = undefined;
      this.log.fire({ type: "busy", busy: false });
    }
  }

  cancel(): void {
    this.controller?.abort();
  }

  dispose(): void {
    this.child?.dispose();
    this.cancel();
    // Closes what the task's tools hold open (a browser).
    this.options.toolbox?.dispose();
    this.log.dispose();
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
        // Fits the window and keeps to the budgets, or stops before the request (contextGuard.ts).
        const stop = await this.guard.beforeRequest(controller.signal);
        if (stop) return this.setStatus("stopped", stop.reason);
        this.requests++;
        const turn = await this.streamWithRetries(controller.signal);
        if (!turn) return;
        if (!toolbox) {
          if (turn.note) this.conversation.addNote(turn.note);
          this.setStatus("idle");
          return;
        }
        if (turn.calls.length === 0) {
          noToolReplies++;
          if (noToolReplies >= MAX_NO_TOOL_REPLIES) {
            this.stop("failed", "The model answered without using a tool three times in a row; Kiln stopped the task. Send a message to go on.");
            return;
          }
          const noTool = "[ERROR] You did not use a tool. Use a tool for the next step; use attempt_completion if the task is done or ask_followup_question if you need the user.";
          this.conversation.addNote(turn.note ? `${turn.note}\n${noTool}` : noTool);
          continue;
        }
        noToolReplies = 0;
        const next = await this.runTools(turn.calls, turn.native, controller.signal, turn.note);
        if (next === "done") return;
      }
    } finally {
      this.controller = undefined;
      await this.options.toolbox?.endPreviews();
      this.log.fire({ type: "busy", busy: false });
    }
  }

  /** One request: streams text into chat items and returns the tool calls, each with its card; throws on failure. */
  private async streamTurn(signal: AbortSignal): Promise<Turn> {
    const { getProvider, logger, toolbox, systemPrompt } = this.options;
    return requestTurn(signal, {
      ...{ getProvider, logger, toolbox, systemPrompt, log: this.log, models: this.models, conversation: this.conversation, usage: this.usage },
      protocol: () => this.protocol,
      fallBackToXml: (reason) => this.fallBackToXml(reason),
      noteModel: (model, vision) => ({ model: this.model, vision: this.vision } = { model, vision }),
      messages: () => this.guard.view(),
      replyLimits: () => checkedReplyLimits(this.options.replyLimits?.()),
    });
  }

  /**
   * Sends the request, and again after a transient failure (429, 5xx, a dropped or cut stream)
   * with backoff that honours Retry-After. What a failed attempt showed is taken back first.
   */
  private async streamWithRetries(signal: AbortSignal): Promise<Turn | undefined> {
    const option = this.options.retry ?? DEFAULT_RETRY;
    const outcome = await withRetries(typeof option === "function" ? option() : option, signal, () => this.streamTurn(signal), {
      begin: () => {
        const mark = this.log.size;
        return () => this.log.removeFrom(mark);
      },
      mend: (error) => {
        this.options.logger.warn(`request failed (${error.kind}${error.status ? ` ${error.status}` : ""}): ${error.message}`);
        if (this.protocol !== "native" || this.options.toolbox?.protocol !== "auto" || !rejectsTools(error)) return false;
        this.fallBackToXml(`the endpoint rejected native tools (${error.message})`);
        return true;
      },
      retrying: (attempt, of, delayMs, error) => this.log.fire({ type: "retrying", attempt, of, delayMs, reason: error.message }),
    });
    if (outcome.kind === "ok") return outcome.value;
    if (outcome.kind === "cancelled") {
      this.log.error("Cancelled. Retry to ask again.", true);
      this.setStatus("stopped", "cancelled");
    } else {
      this.log.append({ id: this.log.newId(), role: "error", error: outcome.error.toChatError() });
      this.setStatus("failed", outcome.error.message);
    }
    return undefined;
  }

  /** `note`: what the model is told along with the results (its reply was stopped at a limit). */
  private async runTools(calls: Turn["calls"], native: boolean, signal: AbortSignal, note?: string): Promise<"continue" | "done"> {
    const outcome = await runToolTurn(calls, native, {
      log: this.log,
      repetition: this.repetition,
      pipeline: this.pipeline(signal),
      signal,
      errors: this.errors,
      vision: this.vision,
      stop: (status, reason) => this.stop(status, reason),
    });
    const { results, images, waitFor } = outcome;
    const texts = note ? [...outcome.texts, note] : outcome.texts;
    if (waitFor) {
      this.conversation.waitForAnswer({ name: waitFor.block.name, id: native ? waitFor.block.id : undefined, results, texts, images });
      this.setStatus(waitFor.status);
      return "done";
    }
    this.conversation.addResults(results, texts, images, native);
    return outcome.end;
  }

  private pipeline(signal: AbortSignal): PipelineDeps {
    const toolbox = this.options.toolbox!;
    const deps = toolbox.pipeline(signal);
    const task: TaskControls = {
      mode: () => toolbox.mode,
      modes: () => toolbox.modes,
      switchMode: (mode) => {
        toolbox.mode = mode;
        this.log.fire({ type: "mode", mode: mode.slug });
      },
      todos: () => this.todoList,
      setTodos: (todos) => {
        this.todoList = todos;
        this.log.fire({ type: "todos", todos: todos.map((t) => ({ ...t })) });
      },
      requireTodosDone: toolbox.requireTodosDone,
      runSubtask: (mode, message, todos) => this.runSubtask(mode, message, todos, signal),
      condense: (focus) => this.guard.condenseForTool(focus, signal),
    };
    // Made once per reply: each edit takes a checkpoint, and the reply's first can also rewind the task.
    const beforeEdit = toolbox.checkpoints?.beforeEdits(this.log, this.conversation.size);
    return { ...deps, context: { ...deps.context, task }, approvalTally: this.approvalTally, ...(beforeEdit && { beforeEdit }) };
  }

  private async runSubtask(mode: Mode, message: string, todos: TodoItem[], signal: AbortSignal): Promise<SubtaskResult> {
    // A subtask lives in its parent's history entry, not one of its own.
    const { identity: _identity, restored: _restored, ...shared } = this.options;
    const child = new Task({ ...shared, toolbox: this.options.toolbox!.withMode(mode), idPrefix: `${this.options.idPrefix ?? "m"}.${++this.subtasks}.` });
    child.todoList = todos;
    child.approvalTally = this.approvalTally;
    child.budgetMeter = this.budgetMeter;
    const forward = forwardSubtask(child, this.log, this.usage);
    this.child = child;
    const done = awaitSubtask(child, signal);
    child.send(message).catch((err: unknown) => this.options.logger.error(`subtask failed: ${err instanceof Error ? err.message : String(err)}`));
    try {
      return await done;
    } finally {
      this.child = undefined;
      forward.dispose();
      child.dispose();
    }
  }

  private fallBackToXml(reason: string): void {
    this.protocol = "xml";
    this.options.logger.info(`tool protocol: switched to XML because ${reason}`);
    this.log.fire({ type: "protocol", protocol: "xml", reason });
  }

  private stop(status: TaskStatus, reason: string): void {
    this.log.error(reason, false);
    this.setStatus(status, reason);
  }
}
