export type LineKind = "add" | "del" | "hunk" | "meta" | "context";

/** How a unified diff line is coloured: added, removed, hunk header, file header, context. */
export function unifiedLineKind(line: string): LineKind {
  if (line.startsWith("+++") || line.startsWith("---")) return "meta";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("\\") || line.startsWith("Index:") || line.startsWith("=====")) return "meta";
  return "context";
}

/** What a unified diff changes: lines added and removed, and its hunks (the changes, as the diff editor counts them). */
export function diffStats(diff: string): { added: number; removed: number; changes: number } {
  let added = 0;
  let removed = 0;
  let changes = 0;
  for (const line of diff.split("\n")) {
    const kind = unifiedLineKind(line);
    if (kind === "add") added++;
    else if (kind === "del") removed++;
    else if (kind === "hunk") changes++;
  }
  return { added, removed, changes };
}

/** Lines in a text, not counting the newline that ends the last one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
