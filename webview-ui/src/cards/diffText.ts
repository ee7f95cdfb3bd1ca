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

/** Lines in a text, not counting the newline that ends the last one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
