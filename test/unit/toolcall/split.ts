/** Chunk splitting for the parser's split-invariance tests. */

/** A seeded generator, so a failing split can be reproduced from the printed seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomSplit(text: string, random: () => number, maxSize: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const size = 1 + Math.floor(random() * maxSize);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

/** A message of `length` words drawn from `vocabulary`. */
export function soup(vocabulary: readonly string[], random: () => number, length: number): string {
  let message = "";
  for (let k = 0; k < length; k++) message += vocabulary[Math.floor(random() * vocabulary.length)];
  return message;
}
