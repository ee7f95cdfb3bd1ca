import { pathTerms, termsOf, TERMS_VERSION } from "../../../src/core/codeIndex/terms";
import type { FullTextDoc, FullTextSearchOptions as SqliteSearchOptions } from "../../../src/core/codeIndex/fullText";
import type { ScoredId } from "../../../src/core/codeIndex/types";

/**
 * The bench's baseline (`npm run bench -- store`, candidate kiln-json): the in-memory BM25F index Kiln
 * shipped before the SQLite store (src/core/codeIndex/fullText.ts), kept here to measure against.
 *
 * Ranking by words, with nothing to set up (no model, no service): BM25F over three fields of a
 * chunk, so a search works the moment a workspace is indexed.
 *
 * Scoring (BM25F, Robertson & Zaragoza): each field's term frequency is normalised by that field's
 * length against the field's average and weighted, the weighted sum is saturated once, and that is
 * multiplied by the term's IDF:
 *
 *   tf~(t, d) = Σ_f w_f · tf_f(t, d) / (1 − b + b · len_f(d) / avglen_f)      k1 = 1.2, b = 0.75
 *   score(d)  = coord(d)² · Σ_t idf(t) · tf~ · (k1 + 1) / (k1 + tf~)
 *   idf(t)    = ln(1 + (N − df + 0.5) / (df + 0.5))                         (never negative, as Lucene's)
 *
 * BM25F rather than a sum of per-field BM25 scores because the fields describe one thing: a term in
 * both the symbol and the code of a chunk is one piece of evidence, saturated once, not two; a sum
 * would let a term's repeats across fields outweigh a second query term.
 *
 * Weights: symbols ×3 (the function named after the query is the answer, one that mentions it in a
 * comment is not), path words ×1.5 ("auth" should find src/auth/…), code and comments ×1.
 *
 * Which documents match at all: those with at least three quarters of the query's distinct terms
 * (rounded up), so a query of up to three terms needs them all, and a longer, wordier one forgives a
 * word or two the code does not use. Any-term matching would answer "hash password" with every chunk
 * that says "password", and a renamed `renderButton` with whatever chunk has "render" in it and
 * "button" in its path; a model asking for code wants "not there" said plainly. Query terms no document
 * has still count: the query `renderButton` is its whole identifier first, and nothing has it.
 *
 * coord(d) = (query terms the document has) / (query terms), squared: among the matches of a longer
 * query, one with every term outranks one that misses a term even when the other's terms are rarer,
 * repeated and in a shorter chunk (plain coord, ×0.75 for 3 of 4, was not enough for that; squared,
 * ×0.56, is, and still lets a far better 3-of-4 chunk through). As identifiers are kept whole besides
 * their parts (terms.ts), `reconcile_ledger_balance` has all four terms of the query
 * `reconcileLedgerBalance` and outranks a chunk that says the three words apart.
 *
 * Memory: a term's postings are one plain array of pairs (document slot, its three field frequencies
 * packed in one small integer), which V8 stores unboxed, and each document keeps references to its
 * terms, which it needs to be removed. 100k 40-line chunks of real JavaScript (5.7M postings) took
 * about 210 MB so, against 350 MB with a Map of document → frequency per term. Removal is lazy: the
 * document's slot is emptied and each of its terms' live count goes down at once (so every statistic
 * is exact at every moment), while a term's stale pairs stay until they outnumber its live ones, and
 * slots are renumbered once most of them are empty: both amortised, neither on the search path.
 * Every statistic (N, df, the fields' total lengths) is an integer, so removing a document leaves
 * scores bit for bit as they were before it was added.
 */

const K1 = 1.2;
const B = 0.75;
const WEIGHT = { code: 1, symbols: 3, path: 1.5 } as const;

/**
 * The three frequencies of a term in a document, in one integer under 2^30 (a small integer on every
 * V8): code in bits 0–15, symbols in 16–23, path in 24–29. Frequencies beyond a field's bits are capped,
 * which changes nothing a user can see: BM25 saturates long before 255 repeats.
 */
const CODE_BITS = 16;
const SYMBOL_BITS = 8;
const PATH_BITS = 6;
const CODE_MAX = (1 << CODE_BITS) - 1;
const SYMBOL_MAX = (1 << SYMBOL_BITS) - 1;
const PATH_MAX = (1 << PATH_BITS) - 1;
const SYMBOL_SHIFT = CODE_BITS;
const PATH_SHIFT = CODE_BITS + SYMBOL_BITS;
const PACKED_MAX = 2 ** (CODE_BITS + SYMBOL_BITS + PATH_BITS) - 1;

/**
 * The share of the query's distinct terms a document needs to match (rounded up). Half, not all:
 * the model writes queries in words ("where the session token is refreshed") and a chunk that says
 * "renew" for "refresh" should still be found; the squared coordination factor below keeps the
 * chunks with every word first.
 */
const MIN_MATCH = 0.5;

/** Version of the shape `toJSON` writes; a saved index of another version is built again rather than misread. */
const FORMAT_VERSION = 1;

/** Empty slots are renumbered away once they outnumber the live ones by this many. */
const SLOT_SLACK = 1024;

export interface FullTextSearchOptions extends Omit<SqliteSearchOptions, "under"> {
  /** Only ids this accepts; asked only of documents good enough to enter the results. */
  filter?: (id: number) => boolean;
}

/**
 * What toJSON writes. `docs` is flat: id and the three field lengths (code, symbols, path) of each
 * document in turn. `postings[i]` lists the documents that have `terms[i]` as pairs of (document's
 * position in `docs`, packed frequencies: code + symbols·2^16 + path·2^24), positions ascending.
 * Flat number arrays keep the JSON small and a restore a single pass.
 */
export interface SavedFullTextIndex {
  version: number;
  termsVersion: number;
  docs: number[];
  terms: string[];
  postings: number[][];
}

/** One term's postings, shared by reference with the documents that have it. */
interface TermEntry {
  readonly term: string;
  /** How many live documents have the term: its document frequency. */
  live: number;
  /** Pairs (slot, packed frequencies), slots ascending; pairs of emptied slots linger until compacted. */
  postings: number[];
}

interface DocEntry {
  readonly id: number;
  readonly codeLength: number;
  readonly symbolLength: number;
  readonly pathLength: number;
  readonly terms: TermEntry[];
}

export class FullTextIndex {
  private readonly terms = new Map<string, TermEntry>();
  /** Documents by slot: a slot is given once, in increasing order, so postings stay sorted by it. */
  private slots: (DocEntry | undefined)[] = [];
  private readonly slotOf = new Map<number, number>();
  private totalCode = 0;
  private totalSymbols = 0;
  private totalPath = 0;

  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Indexes a document under `id` (a whole number ≥ 0); one already there under that id is replaced. */
  add(id: number, doc: FullTextDoc): void {
    checkId(id);
    this.remove(id);
    const counts = new Map<string, number>();
    const codeLength = countInto(counts, termsOf(doc.code), 0, CODE_MAX);
    let symbolLength = 0;
    for (const symbol of doc.symbols) symbolLength += countInto(counts, termsOf(symbol), SYMBOL_SHIFT, SYMBOL_MAX);
    const pathLength = countInto(counts, pathTerms(doc.path), PATH_SHIFT, PATH_MAX);
    const slot = this.slots.length;
    // Sized once: arrays grown by push keep spare room, which across 100k documents adds up.
    const entries = new Array<TermEntry>(counts.size);
    let i = 0;
    for (const [term, packed] of counts) {
      const entry = this.entryFor(term);
      appendPair(entry, slot, packed);
      entry.live++;
      entries[i++] = entry;
    }
    this.insert({ id, codeLength, symbolLength, pathLength, terms: entries });
  }

  /** Drops the document with this id; an unknown id is no error (the caller's view may be older). */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const doc = this.slots[slot]!;
    this.slots[slot] = undefined;
    this.slotOf.delete(id);
    this.totalCode -= doc.codeLength;
    this.totalSymbols -= doc.symbolLength;
    this.totalPath -= doc.pathLength;
    for (const entry of doc.terms) {
      entry.live--;
      // A term no document has any more goes with all its pairs; one mostly of stale pairs is compacted.
      if (entry.live === 0) this.terms.delete(entry.term);
      else if (entry.postings.length > 4 * entry.live) this.compact(entry);
    }
    if (this.slots.length > 2 * this.slotOf.size + SLOT_SLACK) this.renumber();
  }

  /**
   * The documents with enough of the query's terms (see MIN_MATCH), best first; equal scores by id,
   * so an answer is the same every time. A query with no terms (empty, or stop words only) finds nothing.
   */
  search(query: string, options: FullTextSearchOptions = {}): ScoredId[] {
    const limit = options.limit === undefined ? Infinity : Math.floor(options.limit);
    const distinct = [...new Set(termsOf(query))];
    const required = Math.ceil(MIN_MATCH * distinct.length);
    const queryTerms = distinct.map((term) => this.terms.get(term)).filter((entry) => entry !== undefined);
    if (!(limit > 0) || distinct.length === 0 || queryTerms.length < required) return [];

    const n = this.slotOf.size;
    const averageCode = this.totalCode / n;
    const averageSymbols = this.totalSymbols / n;
    const averagePath = this.totalPath / n;
    // By slot: arrays rather than maps, as a common term can touch most of the index.
    const sums = new Float64Array(this.slots.length);
    const matched = new Uint32Array(this.slots.length);
    const touched: number[] = [];
    for (const entry of queryTerms) {
      const idf = Math.log(1 + (n - entry.live + 0.5) / (entry.live + 0.5));
      const postings = entry.postings;
      for (let i = 0; i < postings.length; i += 2) {
        const slot = postings[i]!;
        const doc = this.slots[slot];
        if (!doc) continue;
        const packed = postings[i + 1]!;
        const tf =
          (WEIGHT.code * (packed & CODE_MAX)) / norm(doc.codeLength, averageCode) +
          (WEIGHT.symbols * ((packed >>> SYMBOL_SHIFT) & SYMBOL_MAX)) / norm(doc.symbolLength, averageSymbols) +
          (WEIGHT.path * ((packed >>> PATH_SHIFT) & PATH_MAX)) / norm(doc.pathLength, averagePath);
        sums[slot]! += (idf * tf * (K1 + 1)) / (K1 + tf);
        if (matched[slot]!++ === 0) touched.push(slot);
      }
    }

    // The best `limit`, kept in a heap rather than sorting every match.
    const top = new TopK(limit);
    for (const slot of touched) {
      const count = matched[slot]!;
      if (count < required) continue;
      const id = this.slots[slot]!.id;
      const score = sums[slot]! * (count / distinct.length) ** 2;
      if (!top.wouldTake(id, score)) continue;
      if (options.filter && !options.filter(id)) continue;
      top.push(id, score);
    }
    return top.sorted();
  }

  /** A plain, JSON-able copy of the index, for `fromJSON` to restore without reading the code again. */
  toJSON(): SavedFullTextIndex {
    // Live documents are saved in slot order, so their positions keep each term's pairs ascending.
    const position = new Int32Array(this.slots.length).fill(-1);
    const docs: number[] = [];
    this.slots.forEach((doc, slot) => {
      if (!doc) return;
      position[slot] = docs.length / 4;
      docs.push(doc.id, doc.codeLength, doc.symbolLength, doc.pathLength);
    });
    const terms: string[] = [];
    const postings: number[][] = [];
    for (const entry of this.terms.values()) {
      const pairs: number[] = [];
      for (let i = 0; i < entry.postings.length; i += 2) {
        const at = position[entry.postings[i]!]!;
        if (at >= 0) pairs.push(at, entry.postings[i + 1]!);
      }
      terms.push(entry.term);
      postings.push(pairs);
    }
    return { version: FORMAT_VERSION, termsVersion: TERMS_VERSION, docs, terms, postings };
  }

  /**
   * Restores what `toJSON` wrote. Anything else (another version, a truncated or edited file) throws
   * an Error saying what is wrong, for the caller to index the code again instead.
   */
  static fromJSON(data: unknown): FullTextIndex {
    const fail = (why: string): never => {
      throw new Error(`Not a saved full-text index: ${why}.`);
    };
    if (typeof data !== "object" || data === null || Array.isArray(data)) return fail(`expected an object, got ${describe(data)}`);
    const saved = data as Partial<Record<keyof SavedFullTextIndex, unknown>>;
    if (saved.version !== FORMAT_VERSION) return fail(`version ${describe(saved.version)}, this Kiln reads version ${FORMAT_VERSION}`);
    if (saved.termsVersion !== TERMS_VERSION) return fail(`its words were cut by tokenizer version ${describe(saved.termsVersion)}, this Kiln's is ${TERMS_VERSION}`);
    const docs = wholeNumbers(saved.docs, '"docs"', fail);
    if (docs.length % 4 !== 0) return fail(`"docs" has ${docs.length} numbers, not 4 per document`);
    if (!Array.isArray(saved.terms)) return fail(`"terms" is ${describe(saved.terms)}, not an array`);
    if (!Array.isArray(saved.postings) || saved.postings.length !== saved.terms.length) return fail(`"postings" is not an array with one list per term`);

    const index = new FullTextIndex();
    const docTerms: TermEntry[][] = [];
    for (let i = 0; i < docs.length; i += 4) {
      const id = docs[i]!;
      if (index.slotOf.has(id)) return fail(`id ${id} is there twice`);
      const doc: DocEntry = { id, codeLength: docs[i + 1]!, symbolLength: docs[i + 2]!, pathLength: docs[i + 3]!, terms: [] };
      docTerms.push(doc.terms);
      index.insert(doc);
    }
    const count = index.slots.length;
    (saved.terms as unknown[]).forEach((term, t) => {
      if (typeof term !== "string" || term === "") return fail(`terms[${t}] is ${describe(term)}, not a word`);
      if (index.terms.has(term)) return fail(`terms[${t}] ("${term}") is there twice`);
      const pairs = wholeNumbers((saved.postings as unknown[])[t], `postings[${t}]`, fail);
      if (pairs.length === 0 || pairs.length % 2 !== 0) return fail(`postings[${t}] is not pairs of (document, frequencies)`);
      const entry = index.entryFor(term);
      for (let k = 0; k < pairs.length; k += 2) {
        const slot = pairs[k]!;
        const packed = pairs[k + 1]!;
        if (slot >= count) return fail(`postings[${t}] names document ${slot}, there are ${count}`);
        if (k > 0 && slot <= pairs[k - 2]!) return fail(`postings[${t}] is not in increasing document order`);
        if (packed === 0 || packed > PACKED_MAX) return fail(`postings[${t}] gives document ${slot} the frequencies ${packed}, out of range`);
        docTerms[slot]!.push(entry);
      }
      entry.postings = pairs;
      entry.live = pairs.length / 2;
    });
    return index;
  }

  private entryFor(term: string): TermEntry {
    let entry = this.terms.get(term);
    if (!entry) {
      entry = { term, live: 0, postings: [] };
      this.terms.set(term, entry);
    }
    return entry;
  }

  private insert(doc: DocEntry): void {
    this.slotOf.set(doc.id, this.slots.length);
    this.slots.push(doc);
    this.totalCode += doc.codeLength;
    this.totalSymbols += doc.symbolLength;
    this.totalPath += doc.pathLength;
  }

  /** Drops a term's pairs whose slot was emptied. */
  private compact(entry: TermEntry): void {
    const postings = entry.postings;
    let kept = 0;
    for (let i = 0; i < postings.length; i += 2) {
      if (!this.slots[postings[i]!]) continue;
      postings[kept++] = postings[i]!;
      postings[kept++] = postings[i + 1]!;
    }
    postings.length = kept;
  }

  /** Gives the live documents the slots 0…n−1, in their order, and drops every stale pair. */
  private renumber(): void {
    if (this.slots.length === this.slotOf.size) return;
    const renamed = new Int32Array(this.slots.length).fill(-1);
    const slots: DocEntry[] = [];
    this.slots.forEach((doc, slot) => {
      if (!doc) return;
      renamed[slot] = slots.length;
      this.slotOf.set(doc.id, slots.length);
      slots.push(doc);
    });
    this.slots = slots;
    for (const entry of this.terms.values()) {
      const postings = entry.postings;
      let kept = 0;
      for (let i = 0; i < postings.length; i += 2) {
        const slot = renamed[postings[i]!]!;
        if (slot < 0) continue;
        postings[kept++] = slot;
        postings[kept++] = postings[i + 1]!;
      }
      postings.length = kept;
    }
  }
}

/**
 * Appends a pair to a term's postings. Most terms are rare (a name used in one or two chunks), and an
 * array grown by push reserves room for 17 more numbers: short lists are copied to their exact size
 * instead, and only long ones, whose copying would cost, grow by push.
 */
function appendPair(entry: TermEntry, slot: number, packed: number): void {
  const postings = entry.postings;
  if (postings.length >= 16) {
    postings.push(slot, packed);
    return;
  }
  const grown = new Array<number>(postings.length + 2);
  for (let i = 0; i < postings.length; i++) grown[i] = postings[i]!;
  grown[postings.length] = slot;
  grown[postings.length + 1] = packed;
  entry.postings = grown;
}

/** Adds each term's count in one field (at `shift`, capped at `max`) to `counts`; returns the field's length. */
function countInto(counts: Map<string, number>, terms: readonly string[], shift: number, max: number): number {
  const unit = 1 << shift;
  for (const term of terms) {
    const packed = counts.get(term) ?? 0;
    if (((packed >>> shift) & max) < max) counts.set(term, packed + unit);
  }
  return terms.length;
}

/** BM25's length normalisation of one field; a field no document has (average 0) has no frequency to scale. */
function norm(length: number, average: number): number {
  return average > 0 ? 1 - B + (B * length) / average : 1;
}

function checkId(id: number): void {
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`A full-text document id must be a whole number ≥ 0, got ${describe(id)}.`);
}

/** The value, checked to be an array of whole numbers ≥ 0 (a copy: the caller's data is not kept). */
function wholeNumbers(value: unknown, name: string, fail: (why: string) => never): number[] {
  if (!Array.isArray(value)) return fail(`${name} is ${describe(value)}, not an array`);
  const numbers: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== "number" || !Number.isSafeInteger(item) || item < 0) return fail(`${name}[${i}] is ${describe(item)}, not a whole number ≥ 0`);
    numbers.push(item);
  }
  return numbers;
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A min-heap of the best `limit` (id, score) pairs seen; better = higher score, then lower id. */
class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly limit: number) {}

  /** Whether the pair would enter the heap (checked before the filter, which costs more). */
  wouldTake(id: number, score: number): boolean {
    return this.ids.length < this.limit || better(id, score, this.ids[0]!, this.scores[0]!);
  }

  push(id: number, score: number): void {
    if (this.ids.length < this.limit) {
      this.ids.push(id);
      this.scores.push(score);
      this.up(this.ids.length - 1);
    } else {
      this.ids[0] = id;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): ScoredId[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i]! })).sort((x, y) => y.score - x.score || x.id - y.id);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      // The root is the worst: a child worse than its parent moves up.
      if (!better(this.ids[parent]!, this.scores[parent]!, this.ids[i]!, this.scores[i]!)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.ids.length;
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < n && better(this.ids[worst]!, this.scores[worst]!, this.ids[child]!, this.scores[child]!)) worst = child;
      }
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    [this.ids[i], this.ids[j]] = [this.ids[j]!, this.ids[i]!];
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
  }
}

function better(id: number, score: number, otherId: number, otherScore: number): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}
