import type { TodoItem } from "../ports/taskControls";

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
