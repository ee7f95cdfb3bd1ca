export function isSpace(ch: string): boolean {
  return ch === " " || ch === "\n" || ch === "\t" || ch === "\r";
}

/** Every prefix of every tag in `tags`, for "could this still become one of them?" in O(1). */
export function prefixSet(tags: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const tag of tags) for (let i = 1; i <= tag.length; i++) out.add(tag.slice(0, i));
  return out;
}

/** Per tool: the prefixes of `<param>` for each of its params and of `</tool>`, built once per tool. */
export class ToolTagPrefixes {
  private readonly cache = new Map<string, Set<string>>();

  constructor(private readonly params: ReadonlyMap<string, ReadonlySet<string>>) {}

  of(tool: string): Set<string> {
    let set = this.cache.get(tool);
    if (!set) {
      set = prefixSet([...[...(this.params.get(tool) ?? [])].map((p) => `<${p}>`), `</${tool}>`]);
      this.cache.set(tool, set);
    }
    return set;
  }
}

/** `match` found no tag at that '<'. */
export const NO_TAG = -1;
/** `match` reached the end of the input while it could still be a tag: the caller holds it back. */
export const PART_TAG = -2;

/**
 * A fixed set of tags, each of the form `<...>` with no other '<' or '>' in it, so none is a prefix of
 * another. Matching reads the input in place: prose has many '<' that begin no tag, and copying a
 * substring for each to look it up in a set showed up in profiles as allocation and GC.
 */
export class TagSet {
  readonly maxLength: number;
  /** Tag indices by the character after '<'; most '<' in prose are turned down by this one lookup. */
  private readonly bySecond = new Map<number, number[]>();

  constructor(readonly tags: readonly string[]) {
    let max = 0;
    tags.forEach((tag, k) => {
      max = Math.max(max, tag.length);
      const code = tag.charCodeAt(1);
      const list = this.bySecond.get(code);
      if (list) list.push(k);
      else this.bySecond.set(code, [k]);
    });
    this.maxLength = max;
  }

  /** The tag that starts at `at` (a '<'): its index, PART_TAG, or NO_TAG. */
  match(input: string, at: number): number {
    const rest = input.length - at;
    if (rest < 2) return this.tags.length > 0 ? PART_TAG : NO_TAG;
    const list = this.bySecond.get(input.charCodeAt(at + 1));
    if (list === undefined) return NO_TAG;
    for (let n = 0; n < list.length; n++) {
      const k = list[n]!;
      const tag = this.tags[k]!;
      if (rest >= tag.length) {
        if (input.startsWith(tag, at)) return k;
      } else if (isPrefixAt(input, at, tag, 2)) {
        return PART_TAG;
      }
    }
    return NO_TAG;
  }
}

/** Whether `input` from `at` to its end is a prefix of the longer `tag`, given its first `known` characters match. */
export function isPrefixAt(input: string, at: number, tag: string, known: number): boolean {
  for (let k = known; at + k < input.length; k++) if (input.charCodeAt(at + k) !== tag.charCodeAt(k)) return false;
  return true;
}
