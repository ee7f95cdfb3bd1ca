/** What an `@` mention in a chat message points at. */
export type Mention =
  | { kind: "file" | "folder"; path: string; text: string }
  | { kind: "problems" | "terminal" | "git-changes"; text: string }
  | { kind: "commit"; sha: string; text: string }
  | { kind: "url"; url: string; text: string };

/**
 * `@` at the start or after whitespace or an opening bracket (so e-mail addresses are not
 * mentions), then a path starting with `/`, a URL, a commit sha (7–40 hex digits) or a keyword.
 * A path may hold `\ ` for a space. A sentence's closing punctuation is not part of the mention.
 */
const MENTION = /(?<=^|[\s([{"'])@(\/(?:\\ |[^\s])*|https?:\/\/[^\s]+|[0-9a-f]{7,40}\b|problems\b|terminal\b|git-changes\b)/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** The mentions in `text`, each once, in order of first appearance. */
export function findMentions(text: string): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const raw = match[1]!;
    // Punctuation ending a sentence ("see @/src/a.ts.") is not part of a path or URL.
    const body = /^(?:\/|https?:)/i.test(raw) ? raw.replace(TRAILING, "") : raw;
    const mention = toMention(body);
    if (!mention || seen.has(mention.text)) continue;
    seen.add(mention.text);
    out.push(mention);
  }
  return out;
}

function toMention(body: string): Mention | undefined {
  const text = `@${body}`;
  const lower = body.toLowerCase();
  if (lower === "problems" || lower === "terminal" || lower === "git-changes") return { kind: lower, text };
  if (/^https?:\/\//i.test(body)) return { kind: "url", url: body, text };
  if (body.startsWith("/")) {
    const path = body.slice(1).replace(/\\ /g, " ");
    if (path === "") return undefined;
    return path.endsWith("/") ? { kind: "folder", path: path.replace(/\/+$/, "") || ".", text } : { kind: "file", path, text };
  }
  if (/^[0-9a-f]{7,40}$/i.test(body)) return { kind: "commit", sha: lower, text };
  return undefined;
}
