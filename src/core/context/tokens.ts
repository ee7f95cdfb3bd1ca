import type { LlmMessage } from "../llm/types";

type SpecialTokens = { disallowedSpecial: Set<string> };
let countO200k: ((text: string, options: SpecialTokens) => number) | undefined;

/**
 * Loads the encoding on first use, not at startup: building its tables takes ~0.4 s, which the
 * extension's activation and the CLI's start should not pay before the first request.
 */
export async function loadTokenizer(): Promise<void> {
  countO200k ??= (await import("gpt-tokenizer/encoding/o200k_base")).countTokens;
}

/**
 * The longest slice of text handed to the tokenizer at once. gpt-tokenizer's byte-pair merge is
 * quadratic in the length of one pre-token (a run of letters, of punctuation or of spaces): 1 MB
 * without whitespace, one pre-token, took over 115 s. In slices of 1,024 characters every text
 * costs at most ~2 µs per character (random letters, the worst); slices end at a line or word
 * boundary where there is one, so an ordinary text's count does not change, and a run cut in two
 * gains at most a token per cut.
 */
const SLICE_CHARS = 1024;
/** How long the asynchronous count works before it lets the event loop run. */
const YIELD_AFTER_MS = 4;
/**
 * Special tokens' text ("<|endoftext|>") in a file or a reply is counted as the text it is, as the
 * providers read it: gpt-tokenizer's default refuses it with an exception.
 */
const SPECIAL_AS_TEXT: SpecialTokens = { disallowedSpecial: new Set() };
/** What an image costs in most vision models' accounting, roughly (a 1024×1024 picture). */
export const IMAGE_TOKENS = 1_000;
/** Role markers and separators each message adds in the providers' chat formats. */
const MESSAGE_OVERHEAD = 4;

/**
 * Token counts where the provider reports none (a request not sent yet, a local model). The
 * o200k encoding is the one current OpenAI models use; for other families it is within ~10%,
 * which the 10% buffer before the window covers. Linear in the text's length (0.05–2 µs per
 * character), but in one block: a large text is better counted with countTokensLarge. Needs
 * loadTokenizer() first.
 */
export function countTokens(text: string): number {
  let total = 0;
  for (const tokens of sliceCounts(text)) total += tokens;
  return total;
}

/** The same count without holding the event loop for more than a few milliseconds at a time. */
export async function countTokensLarge(text: string): Promise<number> {
  await loadTokenizer();
  let total = 0;
  let since = performance.now();
  for (const tokens of sliceCounts(text)) {
    total += tokens;
    if (performance.now() - since >= YIELD_AFTER_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return total;
}

/** The tokens of each slice of the text in turn (see SLICE_CHARS). */
function* sliceCounts(text: string): Generator<number> {
  const count = countO200k;
  if (!count) throw new Error("countTokens before loadTokenizer()");
  for (let start = 0; start < text.length;) {
    const end = sliceEnd(text, start);
    yield count(text.slice(start, end), SPECIAL_AS_TEXT);
    start = end;
  }
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SLASH = 0x2f;
const WHITESPACE = /\s/;

/**
 * Where the slice from `start` ends: within SLICE_CHARS, as late as possible, at a place where the
 * o200k pre-tokenizer starts a token whatever the text around it — before a space or tab followed
 * by a visible character, or after a line break followed by neither whitespace nor a `/` (it joins
 * a line break to more line breaks, and to a comment's `//` after punctuation) — so that the
 * slices' counts add up to the whole text's. With no such place in the second half of the window,
 * at its end, but not inside a surrogate pair.
 */
function sliceEnd(text: string, start: number): number {
  const limit = start + SLICE_CHARS;
  if (limit >= text.length) return text.length;
  const isSpace = (i: number) => WHITESPACE.test(text[i]!);
  for (let i = limit; i > start + SLICE_CHARS / 2; i--) {
    const here = text.charCodeAt(i);
    if (isSpace(i) ? here !== NEWLINE && here !== RETURN && !isSpace(i + 1) : text.charCodeAt(i - 1) === NEWLINE && here !== SLASH) return i;
  }
  const atLimit = text.charCodeAt(limit);
  return atLimit >= 0xdc00 && atLimit <= 0xdfff ? limit - 1 : limit;
}

/** The texts a message carries into a request, and how many images. */
function partsOf(message: LlmMessage): { texts: string[]; images: number } {
  if (typeof message.content === "string") return { texts: [message.content], images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "image":
        images++;
        break;
      case "tool_use":
        texts.push(block.name, JSON.stringify(block.input));
        break;
      case "tool_result":
        texts.push(block.content);
        images += block.images?.length ?? 0;
        break;
    }
  }
  return { texts, images };
}

/** A message's tokens as a request would carry them. */
export function messageTokens(message: LlmMessage): number {
  const { texts, images } = partsOf(message);
  return texts.reduce((sum, text) => sum + countTokens(text), 0) + images * IMAGE_TOKENS + MESSAGE_OVERHEAD;
}

/** The same count, letting the event loop run every few milliseconds (see countTokensLarge). */
export async function messageTokensLarge(message: LlmMessage): Promise<number> {
  const { texts, images } = partsOf(message);
  let total = images * IMAGE_TOKENS + MESSAGE_OVERHEAD;
  for (const text of texts) total += await countTokensLarge(text);
  return total;
}
