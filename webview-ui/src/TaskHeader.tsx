import { useEffect, useState } from "react";
import type { TaskInfo } from "../../src/shared/protocol/messages";
import type { Retrying } from "./store";
import * as l10n from "@vscode/l10n";
import { send } from "./vscodeApi";

function count(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : String(n);
}

/** The share of the model's window the last request filled, and what is kept free for the reply. */
function ContextBar({ context }: { context: NonNullable<TaskInfo["context"]> }) {
  const window = Math.max(1, context.window);
  const used = Math.min(100, (context.used / window) * 100);
  const reserved = Math.min(100 - used, (context.reserved / window) * 100);
  const label = l10n.t("Context: {0} of {1} tokens used, {2} kept for the reply", count(context.used), count(context.window), count(context.reserved));
  return (
    <div className="context" data-testid="context" title={label} aria-label={label} role="meter" aria-valuemin={0} aria-valuemax={context.window} aria-valuenow={context.used}>
      <span className="context-text">
        {count(context.used)} / {count(context.window)}
      </span>
      <span className="context-bar">
        <span className="context-used" style={{ width: `${used}%` }} />
        <span className="context-reserved" style={{ width: `${reserved}%` }} />
      </span>
    </div>
  );
}

/**
 * The task's title (its first message), mode, tokens, cache, cost and context, Cancel while it runs
 * and Resume once it stopped; its todo list while it has one.
 */
export function TaskSummary({ task, title, busy = false }: { task: TaskInfo | undefined; title?: string; busy?: boolean }) {
  if (!task) return null;
  const used = task.tokensIn + task.tokensOut > 0;
  const cached = task.cacheRead + task.cacheWrite > 0;
  const resumable = !busy && (task.status === "stopped" || task.status === "failed");
  return (
    <div className="task-summary">
      {title && (
        <div className="task-title" data-testid="task-title" title={title}>
          {title}
        </div>
      )}
      <div className="task-meta">
        <span data-testid="mode">{task.mode}</span>
        {used && (
          <span data-testid="usage">
            ↑{count(task.tokensIn)} ↓{count(task.tokensOut)}
            {cached && (
              <span title={l10n.t("cache: {0} tokens read, {1} written", task.cacheRead, task.cacheWrite)}>{` · ${l10n.t("cache {0}/{1}", count(task.cacheRead), count(task.cacheWrite))}`}</span>
            )}
            {task.cost !== undefined && ` · $${task.cost < 0.01 ? task.cost.toFixed(4) : task.cost.toFixed(2)}`}
          </span>
        )}
        {busy && (
          <button className="icon-button" data-testid="cancel-task" title={l10n.t("Cancel the task")} onClick={() => send({ type: "chat/cancel" })}>
            {l10n.t("Cancel")}
          </button>
        )}
        {(task.changedFiles ?? 0) > 0 && (
          <button
            className="icon-button"
            data-testid="review-changes"
            title={l10n.t("See each file's changes since the task began, and revert any")}
            onClick={() => send({ type: "chat/reviewChanges" })}
          >
            {task.changedFiles === 1 ? l10n.t("1 file changed") : l10n.t("{0} files changed", task.changedFiles ?? 0)}
          </button>
        )}
        {!busy && task.context && (
          <button className="icon-button" data-testid="condense-task" title={l10n.t("Summarise the conversation so far to free context")} onClick={() => send({ type: "chat/condense" })}>
            {l10n.t("Condense")}
          </button>
        )}
        {resumable && (
          <button className="icon-button" data-testid="resume-task" title={l10n.t("Go on where the task stopped")} onClick={() => send({ type: "chat/resume" })}>
            {l10n.t("Resume")}
          </button>
        )}
      </div>
      {task.context && <ContextBar context={task.context} />}
      {task.todos.length > 0 && (
        <ul className="todos" data-testid="todos">
          {task.todos.map((todo, i) => (
            <li key={i} data-status={todo.status}>
              {todo.status === "completed" ? "☑" : todo.status === "in_progress" ? "◐" : "☐"} {todo.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A failed request that goes out again by itself, with the seconds left. */
export function RetryNotice({ retrying }: { retrying: Retrying | undefined }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!retrying) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [retrying]);
  if (!retrying) return null;
  const seconds = Math.max(0, Math.ceil((retrying.at - now) / 1000));
  return (
    <div className="notice" data-testid="retrying">
      {retrying.reason} {l10n.t("Retrying in {0} s (attempt {1} of {2}).", seconds, retrying.attempt, retrying.of)}
    </div>
  );
}
