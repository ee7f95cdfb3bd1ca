export function isSpace(ch: string): boolean {
  return ch === " " || ch === "\n" || ch === "\t" || ch === "\r";
}

/** Every prefix of every tag in `tags`, for "could this still become one of them?" in O(1). */
export function prefixSet(tags: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const tag of tags) for (let i = 1; i <= tag.length; i++) out.add(tag.slice(0, i));
  return out;
}
