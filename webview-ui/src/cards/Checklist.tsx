import * as l10n from "@vscode/l10n";
export type TodoStatus = "pending" | "in_progress" | "completed";

const BOX: Record<TodoStatus, string> = { pending: "☐", in_progress: "◐", completed: "☑" };

/** What a box says to a screen reader. */
function statusLabel(status: TodoStatus): string {
  switch (status) {
    case "pending":
      return l10n.t("pending");
    case "in_progress":
      return l10n.t("in progress");
    case "completed":
      return l10n.t("completed");
  }
}

/** A todo list as its tool read it; an item without a status is a line that is not an item, shown as it is. */
export function Checklist({ items }: { items: { text: string; status?: TodoStatus }[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="checklist" data-testid="checklist">
      {items.map((item, i) => (
        <li key={i} data-status={item.status ?? "text"}>
          {item.status && (
            <span className="check-box" role="img" aria-label={statusLabel(item.status)}>
              {BOX[item.status]}{" "}
            </span>
          )}
          {item.text}
        </li>
      ))}
    </ul>
  );
}
