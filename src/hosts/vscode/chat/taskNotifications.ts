import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { attentionOf, type Attention } from "../../../core/agent/attention";
import type { TaskEvent } from "../../../core/agent/ChatLog";
import type { Logger } from "../../../core/ports";
import { Emitter } from "../../../shared/disposable";
import { showSystemNotification } from "../../../platform/node/systemNotification";
import { KILN, readSetting } from "../settings/kilnSettings";

function headline(kind: Attention["kind"]): string {
  switch (kind) {
    case "done":
      return l10n.t("Kiln finished");
    case "failed":
      return l10n.t("Kiln stopped on an error");
    case "approval":
      return l10n.t("Kiln is waiting for your approval");
    case "question":
      return l10n.t("Kiln asks");
  }
}

export interface TaskNotificationsOptions {
  logger: Logger;
  /** Brings the chat the task is in to the front. */
  showChat(): Thenable<unknown>;
  /** Whether the window has the focus (the tests answer for it). */
  focused?(): boolean;
}

/**
 * Tells a user who is away from the window (kiln.notifications.enabled): a task finished, failed,
 * or waits on an approval or an answer. A VS Code notification with Show, and on a desktop that runs
 * the extension locally, the system's own notification too (VS Code's shows inside the window only).
 */
export class TaskNotifications implements vscode.Disposable {
  /** Per task (its items' ids start over in each): what was told, so a waiting card that changes is told once. */
  private readonly told = new WeakMap<object, Set<string>>();
  private readonly shown = new Emitter<{ title: string; text: string }>();
  /** Each notification as it is shown, for the in-host tests. */
  readonly onDidNotify = this.shown.event;

  constructor(private readonly o: TaskNotificationsOptions) {}

  /** Looks at one event of `task`; tells the user if it calls for them and they are away. */
  observe(event: TaskEvent, task: object): void {
    const attention = attentionOf(event);
    const told = this.told.get(task) ?? new Set<string>();
    if (!attention || told.has(attention.key)) return;
    if (!readSetting(KILN.notifications.enabled, this.o.logger)) return;
    if ((this.o.focused ?? (() => vscode.window.state.focused))()) return;
    told.add(attention.key);
    this.told.set(task, told);
    const title = headline(attention.kind);
    this.shown.fire({ title, text: attention.text });
    const show = attention.kind === "failed" ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
    const showButton = l10n.t("Show");
    void show(l10n.t("{0}: {1}", title, attention.text), showButton).then((answer) => answer === showButton && this.o.showChat());
    if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
      void showSystemNotification(title, attention.text).then((ok) => ok || this.o.logger.info("no system notification on this desktop (notify-send or osascript missing)"));
    }
  }

  dispose(): void {
    this.shown.dispose();
  }
}
