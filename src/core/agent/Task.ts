import * as l10n from "@vscode/l10n";
import type { Disposable } from "../../shared/disposable";
import type { CallControl, ChatItem } from "../../shared/protocol/chat";
import type { TaskInfo } from "../../shared/protocol/messages";
import type { ChatLog, TaskStatus } from "./ChatLog";
import type { LlmImage, LlmMessage } from "../llm/types";
import type { ModeState } from "./toolbox";
import { runToolTurn } from "./toolTurn";
import type { PipelineDeps } from "./pipeline";
import type { SubtaskResult, TaskControls, TodoItem } from "../ports/taskControls";
import type { Mode } from "../modes/modes";
import { awaitSubtask, forwardSubtask } from "./subtask";
import { ContextGuard } from "./contextGuard";
import type { Conversation } from "./Conversation";
import { requestTurn, type Turn } from "./request";
import { taskInfo } from "./usage";
import { DEFAULT_RETRY, rejectsTools, withRetries, type RetryPolicy } from "./retry";
import type { SavedTask } from "../history/types";
import { recordOf, type TaskIdentity } from "./taskRecord";
import { TaskRuntime, type SubtaskTies, type TaskRuntimeOptions } from "./taskRuntime";

export interface TaskOptions extends TaskRuntimeOptions {
  /** Read per request, like the provider, so a changed setting applies to the next request. */
  retry?: RetryPolicy | (() => RetryPolicy);
  /** Its place in task history; a task without one is not saved. */
  identity?: TaskIdentity;
}

export type { TaskEvent, TaskStatus } from "./ChatLog";

const MAX_NO_TOOL_REPLIES = 3;

/**
 * One conversation with the model, and the loop: request, stream through the parser, run the
 * tools, send their results, until the model completes, asks, fails, or a limit stops it.
 */
export class Task implements Disposable {
  private readonly runtime: TaskRuntime;
  private readonly log: ChatLog;
  private readonly conversation: Conversation;
  get onDidChange(): ChatLog["onDidChange"] {
    return this.log.onDidChange;
  }
  private controller: AbortController | undefined;
  private readonly guard: ContextGuard;
  /** The running subtask: the user's messages go to it while it waits for an answer. */
  private child: Task | undefined;
  private subtasks = 0;

  constructor(
    private readonly options: TaskOptions,
    ties?: SubtaskTies,
  ) {
    this.runtime = new TaskRuntime(options, ties);
    ({ log: this.log, conversation: this.conversation } = this.runtime);
    // Its checkpoints live under its history id, so a task reopened from history keeps them.
    if (options.identity) options.toolbox?.checkpoints?.useTaskId(options.identity.id);
    this.guard = new ContextGuard(this.runtime);
  }

  /** The task as task history saves it; undefined for a task that has no place in history. */
  saved(): SavedTask | undefined {
    const { identity } = this.options;
    const { conversation, requests, protocol, model, provider, usage, status } = this.runtime;
    return identity && recordOf({ identity, conversation, items: this.log.snapshot(), usage, todos: [...this.runtime.todos], requests, status, mode: this.info().mode, protocol, model, provider });
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get status(): TaskStatus {
    return this.runtime.status;
  }

  /** The current mode and the modes it may switch to; undefined for a plain chat. */
  get modes(): ModeState | undefined {
    return this.runtime.modes;
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
    const { toolbox, usage, modes, status, todos } = this.runtime;
    return taskInfo(usage, { mode: modes?.mode.slug ?? "chat", status, changedFiles: toolbox?.changes.list().length ?? 0, todos: [...todos] });
  }

  /**
   * The user picked a mode (chat input, keybinding): like switch_mode, it applies from the next
   * request on. False when the task has no tools or knows no such mode.
   */
  setMode(slug: string): boolean {
    const mode = this.runtime.modes?.modes.find((m) => m.slug === slug);
    if (!mode) return false;
    this.runtime.setMode(mode);
    return true;
  }

  /** The mode files changed: the task's modes are read again (TaskRuntime.reloadModes). */
  reloadModes(modes: readonly Mode[]): void {
    this.runtime.reloadModes(modes);
  }

  /** Whether a message can be sent now: the task is idle, or its subtask waits for an answer. */
  get acceptsInput(): boolean {
    return this.child ? !this.child.busy : !this.busy;
  }

  /** `forModel`: what the model reads when it differs from what the chat shows (mentions resolved, a workflow's body). */
  async send(text: string, images: readonly LlmImage[] = [], forModel?: string): Promise<void> {
    if (this.child) return this.child.send(text, images, forModel);
    if (this.busy) throw new Error("a reply is still streaming; wait for it or cancel it first");
    await this.runtime.addUserMessage(text, images, forModel);
    this.runtime.freshStart();
    await this.run();
  }

  /** Goes on after a cancel or a limit, telling the model the last step may not have finished. */
  async resume(): Promise<void> {
    if (this.busy || (this.status !== "stopped" && this.status !== "failed")) return;
    this.conversation.addUserText("[The user resumed the task after it stopped. The last step may not have finished: check the state of what it touched, then go on.]");
    this.runtime.freshStart();
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
    this.runtime.setStatus("idle");
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

  /** Continue while running / Stop on a running call's card (its subtask's too); false when that call offers none now. */
  controlCall(id: string, control: CallControl): boolean {
    const controls = this.runtime.callControls.get(id);
    if (!controls) return this.child?.controlCall(id, control) ?? false;
    (control === "continue" ? controls.continued : controls.stopped).abort();
    return true;
  }

  dispose(): void {
    this.child?.dispose();
    this.cancel();
    // Closes what the task's tools hold open (a browser).
    this.options.toolbox?.dispose();
    this.log.dispose();
  }

  private async run(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const runtime = this.runtime;
    this.log.fire({ type: "busy", busy: true });
    runtime.setStatus("running");
    try {
      let noToolReplies = 0;
      for (;;) {
        const toolbox = runtime.toolbox;
        if (toolbox && runtime.requests >= toolbox.maxRequests) {
          runtime.stop("stopped", l10n.t("The task reached its limit of {0} requests. Send a message to go on.", toolbox.maxRequests));
          return;
        }
        // Fits the window and keeps to the budgets, or stops before the request (contextGuard.ts).
        const stop = await this.guard.beforeRequest(controller.signal);
        if (stop) return runtime.setStatus("stopped", stop.reason);
        runtime.requests++;
        const turn = await this.streamWithRetries(controller.signal);
        if (!turn) return;
        if (!toolbox) {
          if (turn.note) this.conversation.addNote(turn.note);
          runtime.setStatus("idle");
          return;
        }
        if (turn.calls.length === 0) {
          noToolReplies++;
          if (noToolReplies >= MAX_NO_TOOL_REPLIES) {
            runtime.stop("failed", l10n.t("The model answered without using a tool three times in a row; Kiln stopped the task. Send a message to go on."));
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
      await runtime.toolbox?.endPreviews();
      this.log.fire({ type: "busy", busy: false });
    }
  }

  /**
   * Sends the request, and again after a transient failure (429, 5xx, a dropped or cut stream)
   * with backoff that honours Retry-After. What a failed attempt showed is taken back first.
   */
  private async streamWithRetries(signal: AbortSignal): Promise<Turn | undefined> {
    const option = this.options.retry ?? DEFAULT_RETRY;
    const runtime = this.runtime;
    const outcome = await withRetries(typeof option === "function" ? option() : option, signal, () => requestTurn(signal, runtime, this.guard.view()), {
      begin: () => {
        const mark = this.log.size;
        return () => this.log.removeFrom(mark);
      },
      mend: (error) => {
        this.options.logger.warn(`request failed (${error.kind}${error.status ? ` ${error.status}` : ""}): ${error.message}`);
        if (runtime.protocol !== "native" || !runtime.toolbox || runtime.protocolSetting !== "auto" || !rejectsTools(error)) return false;
        runtime.fallBackToXml(`the endpoint rejected native tools (${error.message})`);
        return true;
      },
      retrying: (attempt, of, delayMs, error) => this.log.fire({ type: "retrying", attempt, of, delayMs, reason: error.message }),
    });
    if (outcome.kind === "ok") return outcome.value;
    if (outcome.kind === "cancelled") {
      this.log.error(l10n.t("Cancelled. Retry to ask again."), true);
      runtime.setStatus("stopped", "cancelled");
    } else {
      this.log.append({ id: this.log.newId(), role: "error", error: outcome.error.toChatError() });
      runtime.setStatus("failed", outcome.error.message);
    }
    return undefined;
  }

  /** `note`: what the model is told along with the results (its reply was stopped at a limit). */
  private async runTools(calls: Turn["calls"], native: boolean, signal: AbortSignal, note?: string): Promise<"continue" | "done"> {
    const outcome = await runToolTurn(calls, native, this.runtime, this.pipeline(signal), signal);
    const { results, images, waitFor } = outcome;
    const texts = note ? [...outcome.texts, note] : outcome.texts;
    if (waitFor) {
      this.conversation.waitForAnswer({ name: waitFor.block.name, id: native ? waitFor.block.id : undefined, results, texts, images });
      this.runtime.setStatus(waitFor.status);
      return "done";
    }
    this.conversation.addResults(results, texts, images, native);
    return outcome.end;
  }

  private pipeline(signal: AbortSignal): PipelineDeps {
    const runtime = this.runtime;
    const toolbox = runtime.toolbox!;
    const deps = toolbox.pipeline(signal, runtime.modes!);
    const task: TaskControls = {
      mode: () => runtime.modes!.mode,
      modes: () => runtime.modes!.modes,
      switchMode: (mode) => runtime.setMode(mode),
      todos: () => runtime.todos,
      setTodos: (todos) => runtime.setTodos(todos),
      requireTodosDone: toolbox.requireTodosDone,
      runSubtask: (mode, message, todos) => this.runSubtask(mode, message, todos, signal),
      condense: (focus) => this.guard.condenseForTool(focus, signal),
    };
    // Made once per reply: each edit takes a checkpoint, and the reply's first can also rewind the task.
    const beforeEdit = toolbox.checkpoints?.beforeEdits(this.log, this.conversation.size);
    return { ...deps, context: { ...deps.context, task }, approvalTally: runtime.approvalTally, ...(beforeEdit && { beforeEdit }) };
  }

  private async runSubtask(mode: Mode, message: string, todos: TodoItem[], signal: AbortSignal): Promise<SubtaskResult> {
    // A subtask lives in its parent's history entry, not one of its own; it keeps the parent's protocol setting.
    const { identity: _identity, restored: _restored, ...shared } = this.options;
    const { toolbox, protocolSetting: protocol } = this.runtime;
    const idPrefix = `${this.options.idPrefix ?? "m"}.${++this.subtasks}.`;
    const child = new Task({ ...shared, toolbox: toolbox!.forSubtask(), mode, protocol, idPrefix }, { parent: this.runtime, todos });
    const forward = forwardSubtask(child, this.log, this.runtime.usage);
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
}
