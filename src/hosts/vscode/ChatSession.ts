import * as vscode from "vscode";
import type { RetryPolicy } from "../../core/agent/retry";
import { Task } from "../../core/agent/Task";
import type { Toolbox } from "../../core/agent/toolbox";
import type { Approvals } from "../../core/ports/approvals";
import { ChatApprovals } from "./chatApprovals";
import { toHostMessage } from "../../core/agent/hostMessages";
import type { Provider } from "../../core/llm/types";
import type { Logger } from "../../core/ports";
import { DisposableStore, Emitter } from "../../shared/disposable";
import { parseWebviewMessage, type HostToWebview, type ProviderSummary, type WebviewToHost } from "../../shared/protocol/messages";

export interface ChatSessionDeps {
  logger: Logger;
  getProvider(): Promise<Provider>;
  providerSummary(): ProviderSummary;
  retryPolicy(): RetryPolicy;
  modelOverrides(): unknown;
  /** Tools for a new task; undefined makes it a plain chat (no folder open). */
  createToolbox?(approvals: Approvals): Toolbox | undefined;
}

/**
 * One chat (sidebar or editor tab) and its current Task. Outlives the webview: a hidden sidebar may
 * drop its webview, and the new one gets a snapshot when it says `view/ready`.
 */
export class ChatSession implements vscode.Disposable {
  private task: Task;
  private readonly approvals: ChatApprovals;
  private webview: vscode.Webview | undefined;
  private readonly webviewListeners = new DisposableStore();
  private readonly taskListeners = new DisposableStore();
  private readonly posted = new Emitter<HostToWebview>();
  /** Every message sent to the webview, for the in-host tests. */
  readonly onDidPost = this.posted.event;

  constructor(
    readonly name: string,
    private readonly deps: ChatSessionDeps,
  ) {
    this.approvals = new ChatApprovals(deps.logger);
    this.task = this.createTask();
  }

  attach(webview: vscode.Webview): vscode.Disposable {
    this.webviewListeners.clear();
    this.webview = webview;
    this.webviewListeners.add(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    return { dispose: () => this.detach(webview) };
  }

  /** Entry point for everything the webview sends; nothing else reaches the task. */
  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.deps.logger.warn(`${this.name}: dropped ${parsed.reason}`);
      return;
    }
    void this.dispatch(parsed.message).catch((err: unknown) => {
      this.deps.logger.error(`${this.name}: ${parsed.message.type} failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  newTask(): void {
    this.approvals.rejectAll();
    this.task.dispose();
    this.taskListeners.clear();
    this.task = this.createTask();
    this.postSnapshot();
  }

  dispose(): void {
    this.approvals.rejectAll();
    this.task.dispose();
    this.taskListeners.dispose();
    this.webviewListeners.dispose();
    this.posted.dispose();
  }

  private async dispatch(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case "view/ready":
        this.postSnapshot();
        return;
      case "chat/send":
        if (!this.task.acceptsInput) {
          this.deps.logger.warn(`${this.name}: message ignored while a reply is streaming`);
          return;
        }
        await this.task.send(message.text);
        return;
      case "chat/retry":
        await this.task.retry();
        return;
      case "chat/cancel":
        this.approvals.rejectAll();
        this.task.cancel();
        return;
      case "chat/approval":
        this.approvals.answer(message.id, message.approved ? { approved: true } : { approved: false, feedback: message.feedback });
        return;
      case "chat/newTask":
        this.newTask();
        return;
    }
  }

  private createTask(): Task {
    const task = new Task({
      getProvider: () => this.deps.getProvider(),
      logger: this.deps.logger,
      retry: () => this.deps.retryPolicy(),
      modelOverrides: () => this.deps.modelOverrides(),
      toolbox: this.deps.createToolbox?.(this.approvals),
    });
    this.taskListeners.add(
      task.onDidChange((event) => {
        const message = toHostMessage(event, task);
        if (message) this.post(message);
      }),
    );
    return task;
  }

  private postSnapshot(): void {
    let provider: ProviderSummary;
    try {
      provider = this.deps.providerSummary();
    } catch (err) {
      provider = { kind: "invalid", model: err instanceof Error ? err.message : String(err) };
    }
    this.post({ type: "chat/snapshot", items: this.task.snapshot(), busy: this.task.busy, provider, task: this.task.info() });
  }

  private post(message: HostToWebview): void {
    this.posted.fire(message);
    void this.webview?.postMessage(message).then(undefined, (err: unknown) => {
      this.deps.logger.warn(`${this.name}: could not post ${message.type}: ${String(err)}`);
    });
  }

  private detach(webview: vscode.Webview): void {
    if (this.webview === webview) {
      this.webview = undefined;
      this.webviewListeners.clear();
    }
  }
}
