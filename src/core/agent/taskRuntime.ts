import * as l10n from "@vscode/l10n";
import type { LlmImage, Provider } from "../llm/types";
import type { Mode } from "../modes/modes";
import type { Logger } from "../ports";
import type { TodoItem } from "../ports/taskControls";
import type { ToolProtocol, ToolProtocolSetting } from "../prompts/system";
import type { SavedTask } from "../history/types";
import { ChatLog, type TaskStatus } from "./ChatLog";
import type { ContextOptions } from "./contextGuard";
import { Conversation } from "./Conversation";
import { RepetitionGuard } from "./guards";
import { ModelInfoSource } from "./modelInfo";
import type { ApprovalTally } from "./pipeline";
import { checkedReplyLimits, type ReplyLimits } from "./replyLimits";
import { restoreParts, type ProviderRecord } from "./taskRecord";
import type { ModeState, Toolbox } from "./toolbox";
import { UsageMeter } from "./usage";

/** What a task is made from: the host's choices, read once or per request. */
export interface TaskRuntimeOptions {
  /** Resolved per request, so a key or setting changed after an error is picked up by Retry. */
  getProvider(): Promise<Provider>;
  logger: Logger;
  /** Without tools the task is a plain chat: one streamed reply per message. */
  toolbox?: Toolbox;
  systemPrompt?: string;
  /** The mode the task starts in; the toolbox's start mode when absent. */
  mode?: Mode;
  /** How tools are called: "auto" starts native and may fall back to XML for good. "auto" when absent. */
  protocol?: ToolProtocolSetting;
  /** The user's corrections to the model table (window, max output, prices); validated here. */
  modelOverrides?(): unknown;
  /** Prefix of chat item ids; a subtask gets its own so its items can join the parent's chat. */
  idPrefix?: string;
  /** A task from history to go on with (its chat, conversation, usage and todos). */
  restored?: SavedTask;
  /** Window, condensing and budgets (contextGuard.ts); without it the defaults and no budget. */
  context?: ContextOptions;
  /** How much of one reply is read (replyLimits.ts); read per request, checked here. */
  replyLimits?(): Partial<Record<keyof ReplyLimits, unknown>> | undefined;
}

/** A subtask's ties to its parent: budgets and auto-approve limits count the whole task. */
export interface SubtaskTies {
  parent: TaskRuntime;
  todos: TodoItem[];
}

/**
 * The state of one task, in one place: its chat, conversation, usage and budgets, model and
 * protocol, error streak and repetition, mode, todos and status. The loop (Task), the request,
 * the context guard and the tool turn read and change it here, and each change that the chat
 * shows is announced through the log from here.
 */
export class TaskRuntime {
  readonly log: ChatLog;
  readonly conversation: Conversation;
  readonly usage = new UsageMeter();
  /** What budgets count against: a subtask's parent's meter, which its usage is added to. */
  readonly budgetMeter: UsageMeter;
  /** For the auto-approve limits; a subtask shares its parent's, whose cost includes the subtask's. */
  readonly approvalTally: ApprovalTally;
  readonly models: ModelInfoSource;
  readonly repetition = new RepetitionGuard();
  /** The Continue / Stop buttons of the calls running now, by card id (toolTurn adds and removes them). */
  readonly callControls = new Map<string, { continued: AbortController; stopped: AbortController }>();
  readonly toolbox: Toolbox | undefined;
  readonly getProvider: () => Promise<Provider>;
  readonly logger: Logger;
  readonly systemPrompt: string | undefined;
  readonly context: ContextOptions | undefined;
  /** The protocol as chosen; `protocol` is the one requests use now. */
  readonly protocolSetting: ToolProtocolSetting;
  /** Requests made so far, against the toolbox's limit. */
  requests = 0;
  private statusValue: TaskStatus = "idle";
  private protocolValue: ToolProtocol;
  private modeValue: ModeState | undefined;
  private todoList: TodoItem[] = [];
  private errors = 0;
  /** The model of the last request, for task history. */
  private modelValue = "";
  /** The provider of the last request, for task history: a resumed task goes back to it. */
  private providerValue: ProviderRecord | undefined;
  /** Whether the current model takes images, as of the last request. */
  private visionValue = false;

  constructor(
    private readonly options: TaskRuntimeOptions,
    ties?: SubtaskTies,
  ) {
    this.log = new ChatLog(options.idPrefix);
    this.models = new ModelInfoSource(options.modelOverrides, options.logger);
    ({ toolbox: this.toolbox, logger: this.logger, systemPrompt: this.systemPrompt, context: this.context } = options);
    // Every request's provider is asked about its model first (once each), so windows and prices are its own.
    this.getProvider = async () => {
      const provider = await options.getProvider();
      await this.models.learn(provider);
      return provider;
    };
    this.protocolSetting = options.protocol ?? "auto";
    this.protocolValue = this.protocolSetting === "xml" ? "xml" : "native";
    const toolbox = options.toolbox;
    if (toolbox) this.modeValue = { mode: options.mode ?? toolbox.startMode, modes: toolbox.modes };
    this.budgetMeter = ties?.parent.budgetMeter ?? this.usage;
    this.approvalTally = ties?.parent.approvalTally ?? { autoApproved: 0, costSoFar: () => this.usage.totalCost() ?? 0 };
    if (ties) this.todoList = ties.todos;
    const restored = options.restored && restoreParts(options.restored, this.usage);
    this.conversation = restored?.conversation ?? new Conversation();
    if (restored) {
      this.log.load(restored.items);
      ({ todos: this.todoList, requests: this.requests, status: this.statusValue, protocol: this.protocolValue, model: this.modelValue, provider: this.providerValue } = restored);
    }
  }

  get status(): TaskStatus {
    return this.statusValue;
  }

  setStatus(status: TaskStatus, reason?: string): void {
    this.statusValue = status;
    this.log.fire({ type: "status", status, reason });
  }

  /** Ends the run with the reason in the chat. */
  stop(status: TaskStatus, reason: string): void {
    this.log.error(reason, false);
    this.setStatus(status, reason);
  }

  /** The protocol requests use now. */
  get protocol(): ToolProtocol {
    return this.protocolValue;
  }

  /** For the rest of the task: the model or endpoint cannot take native tool calls. */
  fallBackToXml(reason: string): void {
    this.protocolValue = "xml";
    this.logger.info(`tool protocol: switched to XML because ${reason}`);
    this.log.fire({ type: "protocol", protocol: "xml", reason });
  }

  get model(): string {
    return this.modelValue;
  }

  get vision(): boolean {
    return this.visionValue;
  }

  get provider(): ProviderRecord | undefined {
    return this.providerValue;
  }

  /** The provider and model a request goes to, and whether the model takes images. */
  noteModel(provider: Pick<Provider, "kind" | "model" | "baseUrl">, vision: boolean): void {
    this.modelValue = provider.model;
    this.providerValue = { kind: provider.kind, ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}) };
    this.visionValue = vision;
  }

  /** The current mode and the modes it may switch to; undefined for a task without tools. */
  get modes(): ModeState | undefined {
    return this.modeValue;
  }

  /** The only way the mode changes: it applies from the next request on, and the chat hears of it. */
  setMode(mode: Mode): void {
    if (!this.modeValue) return;
    this.modeValue = { mode, modes: this.modeValue.modes };
    this.log.fire({ type: "mode", mode: mode.slug });
  }

  /**
   * The mode files changed: the current mode takes its new definition; a mode that is gone stays
   * in force until the task switches away from it. The mode is the same one, so no mode event.
   */
  reloadModes(modes: readonly Mode[]): void {
    if (!this.modeValue) return;
    const slug = this.modeValue.mode.slug;
    const current = modes.find((m) => m.slug === slug);
    this.modeValue = current ? { mode: current, modes } : { mode: this.modeValue.mode, modes: [...modes, this.modeValue.mode] };
  }

  get todos(): readonly TodoItem[] {
    return this.todoList;
  }

  setTodos(todos: TodoItem[]): void {
    this.todoList = todos;
    this.log.fire({ type: "todos", todos: todos.map((t) => ({ ...t })) });
  }

  /** Tool calls that failed in a row, across turns. */
  get errorStreak(): number {
    return this.errors;
  }

  /** Counts a failed call; returns the streak. */
  countError(): number {
    return ++this.errors;
  }

  clearErrors(): void {
    this.errors = 0;
  }

  /** A message from the user: the streaks start again. */
  freshStart(): void {
    this.clearErrors();
    this.repetition.reset();
  }

  /** How much of one reply is read, as set now. */
  replyLimits(): ReplyLimits {
    return checkedReplyLimits(this.options.replyLimits?.());
  }

  /** The user's message for the model, with the images this model takes; says in the chat what was left out. */
  async addUserMessage(text: string, images: readonly LlmImage[], forModel?: string): Promise<void> {
    const { taken, model } = images.length > 0 ? await this.models.imagesFor(this.getProvider, images) : { taken: [], model: "" };
    const shown = taken.map((image) => `data:${image.mediaType};base64,${image.data}`);
    this.log.append({ id: this.log.newId(), role: "user", text, ...(shown.length > 0 ? { images: shown } : {}) });
    if (taken.length < images.length) {
      this.log.error(
        images.length === 1
          ? l10n.t("{0} does not take images, so the image was not sent; pick a vision model to send images.", model)
          : l10n.t("{0} does not take images, so the {1} images were not sent; pick a vision model to send images.", model, images.length),
        false,
      );
    }
    this.conversation.addUserText(forModel ?? text, taken);
  }
}
