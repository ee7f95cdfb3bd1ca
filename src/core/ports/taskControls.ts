import type { Mode } from "../modes/modes";

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface TodoItem {
  text: string;
  status: TodoStatus;
}

export type SubtaskResult = { ok: true; result: string } | { ok: false; reason: string };

/** What the task tools may do to the task that runs them (the Task implements it). */
export interface TaskControls {
  mode(): Mode;
  modes(): readonly Mode[];
  switchMode(mode: Mode): void;
  todos(): readonly TodoItem[];
  setTodos(todos: TodoItem[]): void;
  /** Whether attempt_completion waits until every todo is done (a setting). */
  readonly requireTodosDone: boolean;
  /** Runs a subtask in `mode` until it completes or stops; this task waits for it. */
  runSubtask(mode: Mode, message: string, todos: TodoItem[]): Promise<SubtaskResult>;
  /** Summarises the conversation so far into one message; returns the summary. */
  condense(context: string): Promise<string>;
}

const LINE = /^\s*(?:[-*]\s*)?\[( |x|X|-|~)\]\s*(.+?)\s*$/;

/**
 * `- [ ] pending`, `- [-] in progress` (or `[~]`), `- [x] done`; lines that are not checklist items
 * are an error rather than silently dropped, so the model learns the format.
 */
export function parseTodos(text: string): { ok: true; todos: TodoItem[] } | { ok: false; error: string } {
  const todos: TodoItem[] = [];
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  for (const line of lines) {
    const match = LINE.exec(line);
    if (!match) return { ok: false, error: `"${line.trim().slice(0, 80)}" is not a checklist item; write each as "- [ ] text", "- [-] text" (in progress) or "- [x] text" (done)` };
    const mark = match[1]!;
    todos.push({ text: match[2]!, status: mark === " " ? "pending" : mark === "x" || mark === "X" ? "completed" : "in_progress" });
  }
  return { ok: true, todos };
}

export function formatTodos(todos: readonly TodoItem[]): string {
  return todos.map((t) => `- [${t.status === "completed" ? "x" : t.status === "in_progress" ? "-" : " "}] ${t.text}`).join("\n");
}
