/**
 * What is wrong with a JSON text, for a person: V8's message with its position as line and column,
 * and without the quoted excerpt V8 adds ("…"x": undefined}"): the files read here (task
 * histories, MCP settings) often hold keys, and a message reaches logs, the chat and the model.
 */
export function jsonProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const withoutExcerpt = message.split(/,?\s*(?:\.\.\.)?"/)[0]!.trim() || "not valid JSON";
  const match = /at position (\d+)/.exec(message);
  if (!match) return withoutExcerpt;
  const before = text.slice(0, Number(match[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  const located = withoutExcerpt.includes(match[0]) ? withoutExcerpt.replace(match[0], `at line ${line}, column ${column}`) : `${withoutExcerpt} at line ${line}, column ${column}`;
  return located.replace(/\s*\(line \d+ column \d+\)/, "");
}
