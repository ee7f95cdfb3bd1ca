/**
 * Models asked to rewrite a file sometimes leave out what they did not change and write a comment in
 * its place ("// ... existing code ..."). write_to_file replaces the whole file, so that comment
 * would silently delete the code it stands for. This finds such comments.
 *
 * Only whole-line comments are looked at, and only when the entire comment reads as a stand-in for
 * omitted code: "..." in ordinary code (spread, ranges, Python's Ellipsis, "Loading...") and
 * comments that merely mention "the rest" are left alone.
 */

// Comment styles: line comments and one-line block comments, JSX braces around a block comment included.
const LINE_COMMENTS = /^(?:\/\/+|#+|--|;+|%+)\s*(.*?)\s*$/;
const BLOCK_COMMENTS: RegExp[] = [/^\{?\/\*+\s*(.*?)\s*\*+\/\}?$/, /^<!--\s*(.*?)\s*-->$/, /^\{#\s*(.*?)\s*#\}$/, /^<%--\s*(.*?)\s*--%>$/];
/** "[... rest of the document unchanged ...]": how models mark gaps in prose. */
const BRACKETED = [/^\[\s*(.*?)\s*\]$/, /^\(\s*(.*?)\s*\)$/];

/** What lazy output says it left out; these read as code, so "remaining methods" alone is enough. */
const CODE_NOUNS =
  "code|methods?|functions?|implementations?|contents?|logic|lines|file|class|classes|imports|exports|propert(?:y|ies)|props|styles|tests|body|markup|html|css|components?|fields|definitions|handlers|routes|helpers|declarations|document|text|sections?";
/** Also plausible as a plain label ("// Remaining items"), so these need a qualifier or an ellipsis. */
const NOUNS = `${CODE_NOUNS}|items|entries|steps|settings|config(?:uration)?|rules|parts|blocks|cases|values|keys|tags|types|state|hooks|elements|stuff|options|attributes|cells|rows|columns|paragraphs|content|queries|statements|tables|migrations|commands|targets|tasks|jobs|dependencies|variables|constants|mixins|selectors|macros|structs|enums|traits|interfaces|resources|endpoints|services|modules|packages`;

/** "unchanged", "here", "as before" …: what makes "other code" a placeholder rather than a label. */
const QUALIFIER =
  "(?:unchanged|the same|same|as before|as is|as it was|omitted|here|goes here|go here|untouched|kept|preserved|not shown|elided|(?:is|are|remains?|stays?) (?:unchanged|the same|as before|as is|untouched|omitted))";
const STRONG_ADJ = "(?:existing|remaining|previous|unchanged|omitted)";
const WEAK_ADJ = "(?:other|same|original|more|additional|your)";
const LEAD = "(?:all |the |your |keep |keep the |keep all )?";

const PATTERNS: RegExp[] = [
  // "rest of the code", "rest unchanged", "remainder of this file remains the same"
  new RegExp(`^(?:the )?(?:rest|remainder)(?:(?: of(?: the| this| that| your)?(?: [a-z]+)? (?:${NOUNS}|it))(?: ${QUALIFIER})?| ${QUALIFIER})$`),
  // "existing code", "remaining methods", "previous implementation here"
  new RegExp(`^${LEAD}${STRONG_ADJ}(?: [a-z]+)? (?:${CODE_NOUNS})(?: ${QUALIFIER})?$`),
  // "existing items unchanged", "other methods unchanged", "same code as before"
  new RegExp(`^${LEAD}(?:${STRONG_ADJ}|${WEAK_ADJ})(?: [a-z]+)? (?:${NOUNS}) ${QUALIFIER}$`),
  // "unchanged", "implementation omitted", "code omitted for brevity", "same as before"
  new RegExp(
    `^(?:(?:the )?(?:code|contents?|implementation|rest|body|logic|everything else|everything|all else|remaining|others?|methods?|functions?) )?(?:is |are )?(?:unchanged|omitted|elided)(?: for brevity)?$`,
  ),
  /^same as before$/,
  /^(?:[a-z]+ ){0,3}for brevity$/,
];
/** With an ellipsis ("// ... other methods ..."), a weak adjective or a label noun needs no qualifier. */
const WITH_ELLIPSIS = new RegExp(`^${LEAD}(?:${STRONG_ADJ}|${WEAK_ADJ})(?: [a-z]+)? (?:${NOUNS})$`);

/** Markdown and plain text: "#" starts a heading there, not a comment. */
const PROSE = /\.(?:md|markdown|mdx|txt|rst|adoc)$/i;

function commentBody(line: string, prose: boolean): string | undefined {
  const trimmed = line.trim();
  const forms = prose ? [...BLOCK_COMMENTS.slice(1), ...BRACKETED] : [LINE_COMMENTS, ...BLOCK_COMMENTS, ...BRACKETED];
  for (const form of forms) {
    const match = form.exec(trimmed);
    if (match) return match[1];
  }
  return undefined;
}

function normalize(body: string): { text: string; ellipsis: boolean } {
  const ellipsis = /\.\.\.|…/.test(body);
  const text = body
    .toLowerCase()
    .replace(/\.\.\.+|…/g, " ")
    .replace(/[^a-z\s]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { text, ellipsis };
}

/** Whether one comment body stands for omitted code. */
export function isPlaceholderComment(body: string): boolean {
  const { text, ellipsis } = normalize(body);
  // Long comments explain something; placeholders are a few words.
  if (text === "" || text.split(" ").length > 9) return false;
  return PATTERNS.some((pattern) => pattern.test(text)) || (ellipsis && WITH_ELLIPSIS.test(text));
}

export interface Placeholder {
  /** 1-based line in the content. */
  line: number;
  text: string;
}

/**
 * The first placeholder comment in `content`. Lines that are already in the file (`existing`) are
 * skipped: a file may legitimately hold such a comment (a test of this check, an example in docs).
 */
export function findPlaceholder(content: string, options: { existing?: string; path?: string } = {}): Placeholder | undefined {
  const prose = PROSE.test(options.path ?? "");
  const existing = options.existing ?? "";
  const known = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
  const lines = content.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length > 200 || known.has(line.trim())) continue;
    const body = commentBody(line, prose);
    if (body !== undefined && isPlaceholderComment(body)) return { line: i + 1, text: line.trim() };
  }
  return undefined;
}
