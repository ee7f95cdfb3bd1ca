import { useEffect, useState } from "react";
import type { TaskInfo } from "../../src/shared/protocol/messages";
import type { Retrying } from "./store";

function count(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : String(n);
}

/** Mode, tokens and cost of the task, and its todo list while it has one. */
export function TaskSummary({ task }: { task: TaskInfo | undefined }) {
  if (!task) return null;
  const used = task.tokensIn + task.tokensOut > 0;
  return (
    <div className="task-summary">
      <div className="task-meta">
        <span data-testid="mode">{task.mode}</span>
        {used && (
          <span data-testid="usage" title={`cache: ${task.cacheRead} read, ${task.cacheWrite} written`}>
            ↑{count(task.tokensIn)} ↓{count(task.tokensOut)}
            {task.cost !== undefined && ` · $${task.cost < 0.01 ? task.cost.toFixed(4) : task.cost.toFixed(2)}`}
          </span>
        )}
      </div>
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
      {retrying.reason} Retrying in {seconds} s (attempt {retrying.attempt} of {retrying.of}).
    </div>
  );
}
