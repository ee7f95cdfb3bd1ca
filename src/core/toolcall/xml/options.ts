import type { ReasoningBlock, TextBlock } from "../types";

export interface ParserLimits {
  /** Characters in the whole message. */
  maxMessageChars: number;
  /** Characters in one parameter value. */
  maxParamChars: number;
}

export interface ParserOptions extends Partial<ParserLimits> {
  /**
   * Read `<thinking>…</thinking>` and `<think>…</think>` in prose as reasoning blocks. Off by
   * default, so that a reply that merely mentions the tags keeps them as text. Inside a parameter
   * value they are always content; a tool named like one of them wins over it.
   */
  reasoningTags?: boolean;
  /**
   * Each piece added to a text or reasoning block after the block first appeared, in order. A view
   * passes the piece on as it is: slicing the new part off the growing content instead copies the
   * whole content every time (V8 flattens a concatenated string to slice it), which is quadratic.
   */
  onContent?(block: TextBlock | ReasoningBlock, piece: string): void;
}

export const DEFAULT_PARSER_LIMITS: ParserLimits = { maxMessageChars: 1_000_000, maxParamChars: 100_000 };

/** Opening reasoning tags and the one tag that closes each. */
export const REASONING_TAGS: ReadonlyMap<string, string> = new Map([
  ["<thinking>", "</thinking>"],
  ["<think>", "</think>"],
]);
