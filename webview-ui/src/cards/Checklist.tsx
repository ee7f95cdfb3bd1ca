export type TodoStatus = "pending" | "in_progress" | "completed";

const ITEM = /^\s*(?:[-*]\s*)?\[( |x|X|-|~)\]\s*(.*?)\s*$/;

/**
 * `- [ ] pending`, `- [-] in progress`, `- [x] done`, read leniently: the list may be cut off
 * mid-line while it streams, and a line that is not an item is shown as it is.
 */
export function parseChecklist(text: string): { text: string; status: TodoStatus | undefined }[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const match = ITEM.exec(line);
      if (!match) return { text: line.trim(), status: undefined };
      const mark = match[1]!;
      return { text: match[2]!, status: mark === " " ? "pending" : mark === "x" || mark === "X" ? "completed" : "in_progress" };
    });
}

const BOX: Record<TodoStatus, string> = { pending: "☐", in_progress: "◐", completed: "☑" };

export function Checklist({ text }: { text: string }) {
  const items = parseChecklist(text);
  if (items.length === 0) return null;
  return (
    <ul className="checklist" data-testid="checklist">
      {items.map((item, i) => (
        <li key={i} data-status={item.status ?? "text"}>
          {item.status && <span className="check-box" role="img" aria-label={item.status.replace("_", " ")}>{BOX[item.status]} </span>}
          {item.text}
        </li>
      ))}
    </ul>
  );
}
