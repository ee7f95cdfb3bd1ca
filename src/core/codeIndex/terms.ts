/**
 * The words the full-text ranking (fullText.ts) counts: what a chunk of code or prose, a path and a
 * query are cut into, so that the same idea spelt three ways (`hashPassword`, `hash_password`, "hash
 * passwords") meets as the same terms.
 *
 * Decisions, each because of how people search code:
 * - Identifiers are split at case changes, `_`, `-` and `.`, and kept whole besides (joined, without
 *   the separators): `hashPassword` → hashpassword, hash, password. The whole term is what makes an
 *   exact identifier rank first, and because it is joined without separators `hashPassword`,
 *   `HashPassword`, `hash_password` and `HASH-PASSWORD` all give the same one. Dotted paths
 *   (`path.join`, `os.path`) are only split: their parts are separate names, not one.
 * - Acronyms end where a capitalised word begins (`HTTPServer` → http, server).
 * - Digits stay with the letters before them (`utf8Decode` → utf8, decode; `sha256`, `int32`, `base64`):
 *   those are names in their own right, and "8" alone would be dropped as too short anyway. An upper-case
 *   letter after digits starts a new part (`HTTP2Server` → http2, server).
 * - Lower case; Unicode letters kept (`café`, `中文` as one run: scripts without spaces are not segmented).
 * - A light English stemmer (plural, -ing, -ed, final e) so "passwords", "hashing" and "hashed" meet
 *   "password" and "hash". Light on purpose: a stem only has to be the same for the forms of one word,
 *   never readable, and a heavier one (Porter's) merges code words that differ (`general`/`generate`).
 * - Stop words dropped: English function words and the keywords every file is full of (`const`,
 *   `return`, `function`…); they would match everything and rank nothing. Checked before stemming, so
 *   "imports" (a word about imports) is kept while the keyword `import` is not.
 * - Tokens of one character (loop variables, `a`) and over 40 (hashes, base64, minified runs) dropped.
 */

/** Bumped whenever a change here gives a text different terms: an index saved with other terms is built again. */
export const TERMS_VERSION = 1;

const MAX_TERM_LENGTH = 40;

/**
 * A run of letters, marks and digits, joined across `_` and across `-` before a letter (`kebab-case`,
 * `--max-count`), but not across `-` before a digit (`count-1` is arithmetic, not a name).
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:_+|-(?=\p{L}))[\p{L}\p{M}\p{N}]+)*/gu;
/**
 * WORD with every non-ASCII character taken for a letter: four times faster on code, which is nearly all
 * ASCII. Its matches hold WORD's (a superset of the characters, the same joints), so a match with
 * anything non-ASCII in it is cut again by WORD.
 */
const ROUGH_WORD = /[A-Za-z0-9\u0080-\uffff]+(?:(?:_+|-(?=[A-Za-z\u0080-\uffff]))[A-Za-z0-9\u0080-\uffff]+)*/g;
/** Where a camelCase or PascalCase word splits: lower or digit before upper; an acronym's last capital before a capitalised word. */
const CASE_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const UPPER = /\p{Lu}/u;
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /^[a-z]+$/;

const STOP_WORDS = new Set(
  [
    // English function words (and the halves an apostrophe leaves: don't → don, t).
    "a an the and or but nor not no yes of to in on at by for with without from into onto over under about above below",
    "as is are was were be been being am it its this that these those there here then than so such if else when where",
    "which who whom whose what why how do does did doing has have had having can could will would shall should may might",
    "must i me my we our us you your he him his she her they them their all any each both some few more most other own same",
    "too very just also only again once further up down out off via per etc eg ie don doesn didn isn aren wasn weren won",
    "wouldn couldn shouldn hasn haven hadn ll ve re",
    // Keywords nearly every file of some language has many times.
    "const let var return function func fn def import export default require new self elif endif fi",
    "while break continue try catch finally throw throws async await yield void null undefined nil none true false",
    "typeof instanceof public private protected static readonly final pub mut impl",
  ]
    .join(" ")
    .split(" "),
);

/** Words that end in -ed without being a past tense (the rule would cut "embed" to "emb", not "embedded"'s "embed"). */
const NOT_PAST = new Set(["embed", "hundred", "sacred", "naked", "wicked"]);

/** The terms of a text, in order and with repeats (their counts are the term frequencies). */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(ROUGH_WORD)) {
    const word = match[0];
    if (!NON_ASCII.test(word)) addWord(word, out);
    else for (const exact of word.matchAll(WORD)) addWord(exact[0], out);
  }
  return out;
}

/**
 * The terms of words seen lately. Code says the same names over and over, and splitting, lower-casing
 * and stemming a word costs several times finding it. Emptied when full rather than kept in LRU order:
 * refilling is cheap, bookkeeping on every hit is not.
 */
const cache = new Map<string, readonly string[]>();
const CACHE_SIZE = 20_000;

/**
 * The terms of a workspace-relative path: its folders' and file's words, without the extension
 * (`src/auth/hashPassword.ts` → src, auth, hashpassword, hash, password). The extension is left out
 * because it says which language, not what the code does, and every file of that language shares it;
 * a name that is only an extension (`.gitignore`) is kept.
 */
export function pathTerms(path: string): string[] {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return termsOf(dot > slash + 1 ? path.slice(0, dot) : path);
}

function addWord(word: string, out: string[]): void {
  let terms = cache.get(word);
  if (!terms) {
    if (cache.size >= CACHE_SIZE) cache.clear();
    terms = wordTerms(word);
    cache.set(word, terms);
  }
  for (const term of terms) out.push(term);
}

function wordTerms(word: string): string[] {
  const out: string[] = [];
  const parts: string[] = [];
  for (const piece of /[-_]/.test(word) ? word.split(/_+|-/) : [word]) {
    if (!piece) continue;
    if (UPPER.test(piece)) parts.push(...piece.split(CASE_BOUNDARY));
    else parts.push(piece);
  }
  if (parts.length > 1) pushTerm(parts.join(""), out);
  for (const part of parts) pushTerm(part, out);
  return out;
}

function pushTerm(raw: string, out: string[]): void {
  if (raw.length < 2 || raw.length > MAX_TERM_LENGTH) return;
  let word = raw.toLowerCase();
  // One spelling of é (precomposed) whichever the file used.
  if (NON_ASCII.test(word)) word = word.normalize("NFC");
  if (STOP_WORDS.has(word)) return;
  out.push(stem(word));
}

const VOWEL = /[aeiouy]/;

/**
 * A light English stemmer, for lower-case ASCII words only (anything else, `utf8`, `café`, is left as
 * it is). It maps a word's plural, -ing, -ed and bare forms to one stem: hashes/hashing/hashed/hash →
 * hash, files/file → fil, queries/queried/query → query, running → run. Exported for the tests.
 */
export function stem(word: string): string {
  if (word.length < 3 || !ASCII_WORD.test(word)) return word;
  // Three letters: only a plain plural (ids → id, ops → op); bus, yes and the like stay.
  if (word.length === 3) return /[^esu]s$/.test(word) ? word.slice(0, 2) : word;
  let w = word;
  // Plurals (Harman's S-stemmer): queries → query, classes → classe (→ class below), users → user; status, class stay.
  if (w.endsWith("ies") && w.length > 4 && !w.endsWith("eies") && !w.endsWith("aies")) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("es") && !w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes")) w = w.slice(0, -1);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  // Then past tense and gerund, also of what was a plural (settings → setting → set): copied → copy;
  // hashed, hashing → hash; running → run; used, using → use.
  if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ed") && !w.endsWith("eed") && !NOT_PAST.has(w)) w = pastOrGerundStem(w, 2);
  else if (w.endsWith("ing")) w = pastOrGerundStem(w, 3);
  // A final e goes, so the bare word meets its -ing and -ed forms (cache, caching, cached → cach).
  if (w.length > 3 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

function pastOrGerundStem(word: string, suffix: number): string {
  const base = word.slice(0, -suffix);
  // No vowel left: not an inflection (string, spring, bring, shed).
  if (!VOWEL.test(base)) return word;
  // Two letters ending in a consonant lost an e (used, using → us → use); otherwise too short to be sure (going).
  if (base.length === 2) return /[aeiouy]$/.test(base) ? word : `${base}e`;
  if (base.length < 2) return word;
  // A doubled final consonant was doubled for the suffix (running → runn → run), but not l, s or z (called, passed, buzzed),
  // and not when that would leave two letters (added → add, not ad).
  const last = base[base.length - 1]!;
  if (base.length > 3 && last === base[base.length - 2] && !/[aeiouylsz]/.test(last)) return base.slice(0, -1);
  return base;
}
