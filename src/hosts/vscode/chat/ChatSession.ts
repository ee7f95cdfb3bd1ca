import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import type { RetryPolicy } from "../../../core/agent/retry";
import type { ReplyLimits } from "../../../core/agent/replyLimits";
import { Task } from "../../../core/agent/Task";
import type { Toolbox } from "../../../core/agent/toolbox";
import type { Approvals } from "../../../core/ports/approvals";
import { ChatApprovals } from "./chatApprovals";
import { ChatMcpRequests } from "./chatMcpRequests";
import { toHostMessage } from "../../../core/agent/hostMessages";
import type { Provider } from "../../../core/llm/types";
import type { Logger } from "../../../core/ports";
import { DisposableStore, type Event } from "../../../shared/disposable";
import { WebviewChannel } from "../webviewChannel";
import { CHAT_REQUESTS, parseWebviewMessage, type AttachedImage, type ChatRequests, type HostToWebview, type ProviderSummary, type WebviewToHost } from "../../../shared/protocol/messages";
import type { ProfileStore } from "../settings/profileStore";
import { ModelLists } from "../settings/modelLists";
import { KILN, kilnConfiguration } from "../settings/kilnSettings";
import { SessionChoices } from "./sessionChoices";
import { ChatQueue } from "./chatQueue";
import type { Mode } from "../../../core/modes/modes";
import type { ToolProtocolSetting } from "../../../core/prompts/system";
import type { TaskChanges } from "../../../core/edit/taskChanges";
import type { ChatInputs } from "./chatInputs";
import type { McpController, McpViewLink } from "../mcp/mcpController";
import { RequestRouter } from "../requestRouter";
import type { ChatHistory } from "../history/chatHistory";
import { openChatFile, openChatLink, runInOwnTerminal, showCommandTerminal } from "./chatLinks";
import { identityFor, type TaskIdentity } from "../../../core/agent/taskRecord";
import type { SavedTask } from "../../../core/history/types";
import type { HistoryToHost } from "../../../shared/protocol/history";
import { isMcpMessage } from "../../../shared/protocol/mcp";
import { BUDGET_SETTING, contextOptions } from "../settings/contextSettings";
import { askProfileKey } from "../settings/apiKey";
import { runCheckpointAction } from "../history/checkpointActions";
import type { WelcomeSetup } from "../settings/welcomeSetup";
import { autoApproveBarState, setFromBar, watchAutoApprove } from "./autoApproveBar";
import type { TaskNotifications } from "./taskNotifications";

export interface ChatSessionDeps {
  logger: Logger;
  /** Slash commands, @ mentions and the input's pickers; without it messages go to the task as typed. */
  inputs?: ChatInputs;
  getProvider(): Promise<Provider>;
  providerSummary(): ProviderSummary;
  retryPolicy(): RetryPolicy;
  /** kiln.reply.* as set (the core checks them): how much of one reply is read. */
  replyLimits?(): Partial<Record<keyof ReplyLimits, unknown>>;
  modelOverrides(): unknown;
  /** Tools for a new task; undefined makes it a plain chat (no folder open). mcpCaller tags its MCP calls (withCaller). */
  createToolbox?(approvals: Approvals, mcpCaller?: unknown): Toolbox | undefined;
  /** Why the window's folder gets no tools (not on disk); a new task says so in the chat. */
  workspaceProblem?(): string | undefined;
  /** kiln.provider.protocol: how a new task calls tools when no profile says. */
  toolProtocol?(): ToolProtocolSetting;
  /**
   * Provider profiles: with them, requests use the profile chosen for the task's mode (picker, pin,
   * active profile) instead of getProvider/modelOverrides/providerSummary.
   */
  profiles?: ProfileStore;
  /** The model pickers' lists and their cache, shared with the settings panel; without it the chat keeps its own. */
  models?: ModelLists;
  /** The mode files: a change reaches the running task (its picker, prompt and checks) at once. */
  modeFiles?: { load(): readonly Mode[] | undefined; watch(onChange: () => void): vscode.Disposable };
  /** Task history: tasks are saved as they run, and the history view reopens them. */
  history?: ChatHistory;
  /** The MCP view's host side; without it the page's mcp/* messages are dropped. */
  mcp?: McpController;
  /** The first-run welcome; without it the chat always shows. */
  welcome?: WelcomeSetup;
  /** Tells a user away from the window that a task finished, failed or waits for them. */
  notifications?: TaskNotifications;
}

/**
 * One chat (sidebar or editor tab) and its current Task. Outlives the webview: a hidden sidebar may
 * drop its webview, and the new one gets a snapshot when it says `view/ready`.
 */
export class ChatSession implements vscode.Disposable {
  private task: Task;
  private readonly approvals: ChatApprovals;
  /** MCP servers' sampling and elicitation requests made while this chat's tools call them. */
  readonly mcpRequests: ChatMcpRequests;
  /** The page this chat shows in, once one is attached. */
  private readonly channel: WebviewChannel<WebviewToHost, HostToWebview>;
  private readonly taskListeners = new DisposableStore();
  /** Every message sent to the webview, for the in-host tests. */
  readonly onDidPost: Event<HostToWebview>;
  /** The chat's mode and profile pickers; undefined without profiles (then the deps decide). */
  private readonly choices: SessionChoices | undefined;
  private readonly sessionListeners = new DisposableStore();
  private readonly queue: ChatQueue;
  /** The current task's tools: the files it changed and its checkpoints. */
  private toolbox: Toolbox | undefined;

  /** Files the current task changed, for the end-of-task review. */
  get taskChanges(): TaskChanges | undefined {
    return this.toolbox?.changes;
  }
  /** The page's requests (CHAT_REQUESTS): the @ search here, the MCP view's actions in McpController. */
  private readonly requests: RequestRouter<ChatRequests>;
  private readonly mcpView: McpViewLink | undefined;
  private readonly historyView: ReturnType<ChatHistory["connect"]> | undefined;
  /** The current task's place in history. */
  private identity: TaskIdentity | undefined;

  constructor(
    readonly name: string,
    private readonly deps: ChatSessionDeps,
  ) {
    this.channel = new WebviewChannel({
      name,
      logger: deps.logger,
      parse: parseWebviewMessage,
      onMessage: (message) => this.dispatch(message),
      // A new page (a hidden sidebar may drop its page) starts from the whole chat.
      readyType: "view/ready",
      onReady: () => this.postSnapshot(),
      onDetach: () => this.mcpView?.close(),
    });
    this.onDidPost = this.channel.onDidPost;
    this.approvals = new ChatApprovals(deps.logger);
    this.queue = new ChatQueue({ name, logger: deps.logger, post: (message) => this.post(message), canSend: () => this.task.acceptsInput, send: (text, images) => this.sendToTask(text, images) });
    this.mcpRequests = new ChatMcpRequests({ logger: deps.logger, task: () => this.task, provider: () => this.provider() });
    if (deps.profiles) {
      this.choices = new SessionChoices(deps.profiles, deps.logger, async (model) => {
        await kilnConfiguration().update(KILN.provider.model.key, model, vscode.ConfigurationTarget.Global);
      });
      // A profile added, renamed or made active elsewhere shows in the picker at once.
      this.sessionListeners.add(deps.profiles.onDidChange(() => this.postPickers()));
    }
    if (deps.modeFiles) this.sessionListeners.add(deps.modeFiles.watch(() => this.reloadModes()));
    this.sessionListeners.add(watchAutoApprove((state) => this.post({ type: "chat/autoApprove", state })));
    this.requests = new RequestRouter(CHAT_REQUESTS, (response) => this.post(response), deps.logger, name);
    this.requests.onRequest("mentions/search", async ({ query }) => ({ items: (await this.deps.inputs?.searchFiles(query)) ?? [] }));
    if (this.choices && deps.profiles) this.answerModelPicker(this.choices, deps.models ?? new ModelLists(deps.profiles));
    this.mcpView = deps.mcp?.connect((message) => this.post(message), this.requests);
    if (deps.welcome) {
      this.sessionListeners.add(deps.welcome.connect(this.requests));
      // Finished here or in another chat, or asked for again: every chat shows the new state.
      this.sessionListeners.add(deps.welcome.onDidChange(() => this.postSnapshot()));
    }
    this.historyView = deps.history?.connect({ openSaved: (saved) => this.newTask(saved), currentTaskId: () => this.identity?.id }, (message) => this.post(message));
    this.task = this.createTask();
  }

  /**
   * A mode file changed: the task's modes are read again. Its current mode takes the new definition;
   * a mode that is gone stays in force until the task switches away from it.
   */
  reloadModes(): void {
    const modes = this.deps.modeFiles?.load();
    if (!modes) return;
    this.task.reloadModes(modes);
    this.postPickers();
  }

  /** The model picker under the input: the list of the chat's profile, and a pick that saves its model. */
  private answerModelPicker(choices: SessionChoices, models: ModelLists): void {
    this.requests.onRequest("chat/listModels", ({ refresh }) => models.listFor(choices.requestProfile(), refresh));
    this.requests.onRequest("chat/setModel", async ({ model }) => {
      const profile = await choices.pickModel(model);
      // Now, so the button shows the new model when the page gets its answer; the settings' change event comes later.
      this.postPickers();
      return { message: l10n.t("{0} uses {1}.", profile.name, profile.model) };
    });
  }

  /** Mode picker and the cycle-mode keybinding: the current task goes on in this mode. */
  pickMode(slug: string): boolean {
    if (!this.choices) return this.task.setMode(slug);
    return this.choices.pickMode(slug);
  }

  /** Switches to the next mode; returns its slug, or undefined when the chat has no modes. */
  cycleMode(): string | undefined {
    return this.choices?.cycleMode();
  }

  attach(webview: vscode.Webview): vscode.Disposable {
    return this.channel.attach(webview);
  }

  /** Entry point for everything the webview sends; nothing else reaches the task. */
  receive(raw: unknown): void {
    void this.channel.receive(raw);
  }

  /** Editor and terminal actions (Explain, Fix…): a new task that starts with this message. */
  startTask(text: string): void {
    this.newTask();
    this.task.send(text).catch((err: unknown) => this.deps.logger.error(`${this.name}: starting a task failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Add to Context: the text goes into the chat input, unsent, for the user to add their words. */
  addToInput(text: string): void {
    this.postInput({ type: "chat/addToInput", text });
  }

  /** Kiln: MCP Servers: the page switches to its MCP view (once loaded, if it is loading). */
  showMcp(): void {
    this.postInput({ type: "mcp/show" });
  }

  focusInput(): void {
    this.postInput({ type: "chat/focusInput" });
  }

  /** Kiln: Task History: the page switches to its history view. */
  showHistory(): void {
    this.postInput({ type: "history/show" });
  }

  /** A new, empty task; or, with `saved`, a task from history to look at and resume. */
  newTask(saved?: SavedTask): void {
    this.queue.clear();
    this.approvals.rejectAll();
    this.mcpRequests.declineAll();
    this.task.dispose();
    this.taskListeners.clear();
    this.task = this.createTask(saved);
    this.postSnapshot();
  }

  dispose(): void {
    this.sessionListeners.dispose();
    this.approvals.rejectAll();
    this.mcpRequests.dispose();
    this.task.dispose();
    this.taskListeners.dispose();
    this.channel.dispose();
    this.mcpView?.dispose();
    this.historyView?.dispose();
  }

  private async dispatch(message: WebviewToHost): Promise<void> {
    if (isMcpMessage(message)) return this.mcpView?.receive(message);
    if (message.type.startsWith("history/")) return this.historyView?.receive(message as HistoryToHost);
    switch (message.type) {
      case "view/ready":
        // The channel has posted the snapshot and what was held for the page.
        return;
      case "chat/send":
        return this.queue.submit(message.text, message.images);
      case "chat/unqueue":
        return this.queue.unqueue(message.index, message.send === true);
      case "chat/retry":
        await this.task.retry();
        return;
      case "chat/reviewChanges":
        await vscode.commands.executeCommand("kiln.reviewTaskChanges");
        return;
      case "chat/resume":
        // A queue paused by the Stop stays paused: the user sends or removes those themselves.
        await this.task.resume();
        return;
      case "chat/condense":
        await this.task.condenseNow();
        return;
      case "chat/raiseBudget":
        // The user raises it there; settings are read per request, so Resume then goes on.
        await vscode.commands.executeCommand("workbench.action.openSettings", BUDGET_SETTING[message.limit]);
        return;
      case "chat/cancel":
        this.queue.pause();
        this.approvals.rejectAll();
        this.mcpRequests.declineAll();
        this.task.cancel();
        return;
      case "chat/approval":
        this.approvals.answer(message.id, message.approved ? { approved: true } : { approved: false, feedback: message.feedback });
        return;
      case "chat/mcpAnswer":
        this.mcpRequests.answer(message.id, message.answer);
        return;
      case "chat/checkpoint":
        return runCheckpointAction(message, { task: this.task, checkpoints: this.toolbox?.checkpoints, stop: () => this.dispatch({ type: "chat/cancel" }) }, this.deps.logger);
      case "chat/newTask":
        this.newTask();
        return;
      case "chat/setMode":
        this.pickMode(message.slug);
        return;
      case "chat/cycleMode":
        this.cycleMode();
        return;
      case "chat/setProfile":
        if (await this.choices?.pickProfile(message.name)) this.postPickers();
        return;
      case "request":
        return this.requests.handle(message);
      case "commands/list":
        this.post({ type: "commands/list", commands: (await this.deps.inputs?.commands()) ?? [] });
        return;
      case "chat/openLink":
        return openChatLink(message.url, this.deps.logger, this.name);
      case "chat/openFile":
        return openChatFile(message.path, message.line, this.deps.logger, this.name);
      case "chat/callControl":
        if (!this.task.controlCall(message.id, message.control)) this.deps.logger.info(`${this.name}: ${message.control} on ${message.id}, which is no longer running`);
        return;
      case "chat/showTerminal":
        return showCommandTerminal();
      case "chat/setApiKey":
        if (await this.askKey()) await this.task.retry();
        return;
      case "chat/setAutoApprove":
        return setFromBar(message, this.deps.logger);
      case "chat/openSettings":
        await vscode.commands.executeCommand("kiln.openSettings", message.section);
        return;
      case "chat/runCommand":
        return runInOwnTerminal(message.command);
    }
  }

  /** The key of the profile the task uses (or, without profiles, the provider's); true once one was saved. */
  private async askKey(): Promise<boolean> {
    if (!this.choices || !this.deps.profiles) return (await vscode.commands.executeCommand<boolean>("kiln.setApiKey")) === true;
    try {
      return await askProfileKey(this.deps.profiles, this.choices.profile());
    } catch (err) {
      void vscode.window.showErrorMessage(l10n.t("Kiln: {0}", err instanceof Error ? err.message : String(err)));
      return false;
    }
  }

  /**
   * A message on its way to the task: a slash command runs (a new task, a mode switch), and the
   * model gets the mentions' content while the chat shows the message as typed.
   */
  private async sendToTask(text: string, images?: AttachedImage[]): Promise<void> {
    const prepared = await this.deps.inputs?.prepare(text);
    if (!prepared) return this.task.send(text, images);
    if (prepared.newTask) {
      this.newTask();
      if (prepared.text === "" && !images?.length) return;
      return this.sendToTask(prepared.text, images);
    }
    if (prepared.mode && !this.pickMode(prepared.mode)) this.deps.logger.warn(`${this.name}: the workflow's mode "${prepared.mode}" does not exist; staying in the current mode`);
    return this.task.send(text, images, prepared.forModel === text ? undefined : prepared.forModel);
  }

  private createTask(saved?: SavedTask): Task {
    const choices = this.choices;
    const toolbox = this.deps.createToolbox?.(this.approvals, this.mcpRequests);
    this.toolbox = toolbox;
    // A reopened task goes on in the mode it was in.
    const reopenIn = saved?.entry.mode;
    const defaults = toolbox && { mode: toolbox.modes.find((m) => m.slug === reopenIn) ?? toolbox.startMode, modes: toolbox.modes };
    const start = choices?.start(defaults, reopenIn) ?? { mode: defaults?.mode };
    this.identity = identityFor(saved, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "");
    const task = new Task({
      identity: this.identity,
      ...(saved && { restored: saved }),
      getProvider: () => this.provider(),
      logger: this.deps.logger,
      retry: () => this.deps.retryPolicy(),
      replyLimits: () => this.deps.replyLimits?.(),
      modelOverrides: () => (choices ? choices.modelOverrides() : this.deps.modelOverrides()),
      toolbox,
      ...(start.mode && { mode: start.mode }),
      protocol: start.protocol ?? this.deps.toolProtocol?.(),
      context: contextOptions(this.deps.logger, this.deps.profiles, () => choices?.profile().autoCondensePercent),
    });
    choices?.follow(task);
    // Without this, a chat with no tools in an open folder would look like a broken agent.
    const problem = !toolbox && !saved ? this.deps.workspaceProblem?.() : undefined;
    if (problem) task.showItem({ id: "workspace-problem", role: "error", error: { kind: "config", message: problem, retryable: false } });
    if (this.deps.history) this.taskListeners.add(this.deps.history.record(task));
    this.taskListeners.add(
      task.onDidChange((event) => {
        const message = toHostMessage(event, task);
        if (message) this.post(message);
        this.deps.notifications?.observe(event, task);
        if ((event.type === "busy" || event.type === "status") && task === this.task) this.queue.drain();
        if (event.type === "mode" && choices) {
          // A mode with a pinned profile brings its profile along.
          choices.modeChanged();
          this.postPickers();
        }
      }),
    );
    return task;
  }

  /** The provider of the current task's next request: its profile's, or the settings'. */
  private provider(): Promise<Provider> {
    return this.choices ? this.choices.provider() : this.deps.getProvider();
  }

  private postSnapshot(): void {
    const welcome = this.deps.welcome?.info();
    this.post({ type: "chat/snapshot", items: this.task.snapshot(), busy: this.task.busy, provider: this.providerSummary(), task: this.task.info(), ...(welcome ? { welcome } : {}) });
    this.postPickers();
    this.post({ type: "chat/autoApprove", state: autoApproveBarState() });
    this.queue.show();
  }

  private providerSummary(): ProviderSummary {
    try {
      return this.choices ? this.choices.summary() : this.deps.providerSummary();
    } catch (err) {
      return { kind: "invalid", model: err instanceof Error ? err.message : String(err) };
    }
  }

  private postPickers(): void {
    // The provider goes along: after a profile or mode change the snapshot's summary is stale.
    if (this.choices) this.post({ type: "chat/pickers", pickers: { ...this.choices.pickers(), provider: this.providerSummary() } });
  }

  /** Input requests (add to context, focus) reach the page once it has loaded. */
  private postInput(message: HostToWebview): void {
    this.channel.postWhenReady(message);
  }

  private post(message: HostToWebview): void {
    this.channel.post(message);
  }
}
