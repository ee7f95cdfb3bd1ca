import * as l10n from "@vscode/l10n";
import { withinBounds, type LimitBounds } from "../../shared/limits";

/**
 * How much of one reply Kiln reads. A model (or a server) that goes wrong can stream without end;
 * past a limit the stream is stopped, the model is told in one line, and the task goes on.
 */
export interface ReplyLimits {
  /** Characters of one reply: its text, reasoning and native tool-call arguments together. */
  maxReplyChars: number;
  /** Characters of one tool argument: an XML parameter's value, or a native call's JSON arguments. */
  maxToolArgChars: number;
  /** Tool calls in one reply. */
  maxToolCalls: number;
}

/**
 * The defaults leave room for any real reply: the largest output a model allows today is about
 * 128k tokens (some 500k characters), a write of a whole large file is one argument of a few
 * hundred thousand characters, and a model calls a handful of tools at a time, rarely dozens.
 */
export const REPLY_MAX_CHARS: LimitBounds = { min: 10_000, max: 100_000_000, default: 1_000_000 };
export const TOOL_ARG_MAX_CHARS: LimitBounds = { min: 1_000, max: 100_000_000, default: 400_000 };
export const MAX_TOOL_CALLS: LimitBounds = { min: 1, max: 1_000_000, default: 100 };

export const DEFAULT_REPLY_LIMITS: ReplyLimits = {
  maxReplyChars: REPLY_MAX_CHARS.default,
  maxToolArgChars: TOOL_ARG_MAX_CHARS.default,
  maxToolCalls: MAX_TOOL_CALLS.default,
};

/** The limits as given, each one out of its bounds replaced by its default. */
export function checkedReplyLimits(given: Partial<Record<keyof ReplyLimits, unknown>> | undefined): ReplyLimits {
  const pick = (value: unknown, bounds: LimitBounds) => (withinBounds(value, bounds) ? value : bounds.default);
  return {
    maxReplyChars: pick(given?.maxReplyChars, REPLY_MAX_CHARS),
    maxToolArgChars: pick(given?.maxToolArgChars, TOOL_ARG_MAX_CHARS),
    maxToolCalls: pick(given?.maxToolCalls, MAX_TOOL_CALLS),
  };
}

/** Why a reply was stopped, in one line for the model and one for the person watching. */
export interface ReplyCut {
  forModel: string;
  forUser: string;
}

const count = (n: number) => n.toLocaleString("en-US");

export function replyTooLong(limit: number): ReplyCut {
  return {
    forModel: `[Kiln stopped reading your reply at ${count(limit)} characters, the limit for one reply; nothing after that point was kept. Work in smaller steps.]`,
    forUser: l10n.t("The model's reply passed {0} characters, the limit for one reply; Kiln stopped it there and told the model.", count(limit)),
  };
}

export function toolCallRefused(name: string): ReplyCut {
  return {
    forModel: `[Kiln stopped reading your reply at the call to ${name}, which went past a limit (its result says which); nothing after it was kept.]`,
    forUser: l10n.t("The model's call to {0} went past a limit on tool arguments; Kiln stopped the reply there and told the model.", name),
  };
}

export function tooManyToolCalls(limit: number): ReplyCut {
  return {
    forModel: `[Kiln stopped reading your reply after ${count(limit)} tool calls, the limit for one reply; the calls after those were not read or run.]`,
    forUser: l10n.t("The model's reply had more than {0} tool calls, the limit for one reply; Kiln stopped it there, ran the first {0} and told the model.", count(limit)),
  };
}
