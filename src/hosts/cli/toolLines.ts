import type { ToolItem } from "../../shared/protocol/chat";
import { plural } from "../../shared/plural";
import { toolHeading, type ToolView, type ToolViewBody } from "../../shared/toolView";
import { presentTool } from "../../core/agent/presenter";

/** At most this many lines of a call's body, each cut to this many characters: a summary, not the content. */
const MAX_LINES = 6;
const MAX_CHARS = 160;

/** The view a card carries, or its tool's (an item from elsewhere may come without one). */
function viewOf(item: ToolItem): ToolView {
  return item.view ?? presentTool(item.name, item.params, item.status);
}

/** The card's sentence as text: `Kiln read src/a.ts`, `Kiln ran \`npm test\``. */
function heading(view: ToolView): string {
  return toolHeading(view, (target) => (view.code ? `\`${target}\`` : target));
}

/**
 * A finished call as the terminal shows it: `[Kiln read src/a.ts: done]`, then a few indented
 * lines of what it read, wrote or ran. A command the heading already names is not repeated.
 */
export function formatToolCall(item: ToolItem): string {
  const view = viewOf(item);
  const lines = bodyLines(view.body).filter((_, i) => !(i === 0 && view.code && view.body?.kind === "command"));
  return [`[${heading(view)}: ${item.status}]`, ...lines.map((line) => `  ${line}`)].join("\n");
}

/** A call the task starts itself, running at once: `[Kiln is condensing the conversation: why]`. */
export function formatToolStart(item: ToolItem): string {
  const view = viewOf(item);
  return `[${heading(view)}: ${bodyLines(view.body)[0] ?? item.status}]`;
}

/** One line of a value: its first line, cut to fit, with `…` where more follows. */
function oneLine(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.split(/\r?\n/)[0] ?? "";
  if (first.length > MAX_CHARS) return `${first.slice(0, MAX_CHARS - 1)}…`;
  return first.length < trimmed.length ? `${first} …` : first;
}

/** What a body says, in a few lines of text. */
export function bodyLines(body: ToolViewBody | undefined): string[] {
  const lines = body ? allLines(body) : [];
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES - 1), `… ${lines.length - MAX_LINES + 1} more`] : lines;
}

function allLines(body: ToolViewBody): string[] {
  const fields = (rows: { label: string; value: string }[] | undefined) => (rows ?? []).map((f) => `${f.label}: ${oneLine(f.value)}`);
  switch (body.kind) {
    case "fields":
      return fields(body.fields);
    case "file":
      return [plural(lineCount(body.content), "line")];
    case "diff": {
      const removed = body.hunks.reduce((n, h) => n + h.removed.length, 0);
      const added = body.hunks.reduce((n, h) => n + h.added.length, 0);
      return [`${plural(body.hunks.length, "change")}: −${removed} +${added}`];
    }
    case "command":
      return [`$ ${oneLine(body.command)}`, ...fields(body.fields)];
    case "files":
      return body.files.map((file) => (file.note ? `${file.path} ${file.note}` : file.path));
    case "markdown":
      return body.text.trim() ? [oneLine(body.text)] : [];
    case "checklist": {
      const mark = { completed: "[x]", in_progress: "[-]", pending: "[ ]" } as const;
      return [...(body.text?.trim() ? [oneLine(body.text)] : []), ...body.items.map((item) => (item.status ? `${mark[item.status]} ${item.text}` : item.text))];
    }
    default:
      return [];
  }
}

/** Lines in a text, not counting the newline that ends the last one. */
function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
