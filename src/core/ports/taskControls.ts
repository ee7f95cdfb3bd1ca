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
