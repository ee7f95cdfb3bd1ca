import type { LlmContent, LlmMessage } from "../llm/types";

let countO200k: ((text: string) => number) | undefined;

/**
 * Loads the encoding on first use, not at startup: building its tables takes ~0.4 s, which the
 * extension's activation and the CLI's start should not pay before the first request.
 */
export async function loadTokenizer(): Promise<void> {
  countO200k ??= (await import("gpt-tokenizer/encoding/o200k_base")).countTokens;
}

/** Above this a text is counted in slices between turns of the event loop, not in one block. */
const SLICE_CHARS = 64 * 1024;
/** What an image costs in most vision models' accounting, roughly (a 1024×1024 picture). */
export const IMAGE_TOKENS = 1_000;
/** Role markers and separators each message adds in the providers' chat formats. */
const MESSAGE_OVERHEAD = 4;

/**
 * Token counts where the provider reports none (a request not sent yet, a local model). The
 * o200k encoding is the one current OpenAI models use; for other families it is within ~10%,
 * which the 10% buffer before the window covers. Needs loadTokenizer() first.
 */
export function countTokens(text: string): number {
  if (!countO200k) throw new Error("countTokens before loadTokenizer()");
  return text.length === 0 ? 0 : countO200k(text);
}

/**
 * The same count for a large text without blocking the host for its whole length (~0.4 s per MB):
 * slices end at a line break, so almost no token is cut in two.
 */
export async function countTokensLarge(text: string): Promise<number> {
  await loadTokenizer();
  if (text.length <= SLICE_CHARS) return countTokens(text);
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SLICE_CHARS);
    if (end < text.length) {
      const newline = text.lastIndexOf("\n", end);
      if (newline > start) end = newline + 1;
    }
    total += countTokens(text.slice(start, end));
    start = end;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total;
}

function contentTokens(block: LlmContent): number {
  switch (block.type) {
    case "text":
      return countTokens(block.text);
    case "image":
      return IMAGE_TOKENS;
    case "tool_use":
      return countTokens(block.name) + countTokens(JSON.stringify(block.input));
    case "tool_result":
      return countTokens(block.content) + (block.images?.length ?? 0) * IMAGE_TOKENS;
  }
}

/** A message's tokens as a request would carry them. */
export function messageTokens(message: LlmMessage): number {
  const body = typeof message.content === "string" ? countTokens(message.content) : message.content.reduce((sum, b) => sum + contentTokens(b), 0);
  return body + MESSAGE_OVERHEAD;
}
