import type { ChatItem } from "../../shared/protocol/chat";
import type { SavedTask } from "./types";

/** A saved task as a Markdown document: what the user saw, in order, with tool calls as details. */
export function taskToMarkdown(task: SavedTask): string {
  const { entry } = task;
  const cost = entry.cost === undefined ? "" : `, $${entry.cost.toFixed(4)}`;
  const head = [
    `# ${entry.title || "Untitled task"}`,
    "",
    `*${new Date(entry.createdAt).toISOString()} · mode ${entry.mode} · ${entry.model} · ${entry.tokensIn} in / ${entry.tokensOut} out tokens${cost}*`,
  ];
  return [...head, ...task.ui.flatMap(itemToMarkdown)].join("\n") + "\n";
}

function itemToMarkdown(item: ChatItem): string[] {
  switch (item.role) {
    case "user":
      return ["", "## User", "", item.text, ...(item.images?.length ? ["", `*(${item.images.length} image(s))*`] : [])];
    case "assistant":
      return item.text.trim() ? ["", "## Kiln", "", item.text] : [];
    case "tool": {
      const params = Object.entries(item.params).map(([k, v]) => `${k}: ${v}`);
      return ["", `**${item.name}** (${item.status})`, "", fence([...params, ...(item.result ? ["", item.result] : [])].join("\n"))];
    }
    case "question":
      return ["", "## Question", "", item.question, ...item.suggestions.map((s) => `- ${s.text}`)];
    case "completion":
      return ["", "## Result", "", item.result];
    case "error":
      return ["", `> **Error:** ${item.error.message}`];
    default:
      return [];
  }
}

/** A code fence longer than any backtick run inside, so tool output cannot close it early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}\n${text}\n${ticks}`;
}
