import type { LlmContent, LlmImage, LlmMessage } from "../llm/types";
import type { ToolUseBlock } from "../toolcall/types";

/**
 * A call that the user's next message answers (a question, or feedback on a completion), with the
 * results of the other calls of that turn, which go in the same message.
 */
export interface Pending {
  name: string;
  /** Native call id; undefined for XML. */
  id: string | undefined;
  results: LlmContent[];
  texts: string[];
  images: LlmImage[];
}

/** The user message carrying a turn's tool results: blocks for native calls, text (and images) for XML. */
function resultContent(results: LlmContent[], texts: string[], images: LlmImage[], native: boolean): string | LlmContent[] {
  const imageBlocks = images.map((image) => ({ type: "image" as const, ...image }));
  if (native) return [...results, ...texts.map((text) => ({ type: "text" as const, text })), ...imageBlocks];
  const text = texts.join("\n\n");
  return imageBlocks.length > 0 ? [{ type: "text", text }, ...imageBlocks] : text;
}

/**
 * The API conversation. It only grows (the last user message may gain text when a request failed
 * and the user wrote again), so it can be saved and replayed; a condense hides older messages
 * behind a summary without deleting them.
 */
export class Conversation {
  private readonly history: LlmMessage[] = [];
  private pending: Pending | undefined;
  private condensed: { from: number; summary: string } | undefined;
  /** Messages 1..hidden are left out of requests by the sliding window (never deleted; the first stays). */
  private hidden = 0;

  get lastRole(): LlmMessage["role"] | undefined {
    return this.history.at(-1)?.role;
  }

  /** A copy, for saving and for tests. */
  all(): LlmMessage[] {
    return structuredClone(this.history);
  }

  /** The user's words, as the answer to a pending call where there is one. */
  addUserText(text: string, userImages: readonly LlmImage[] = []): void {
    const last = this.history.at(-1);
    const imageBlocks = userImages.map((image) => ({ type: "image" as const, ...image }));
    // A message of images alone has no text block: APIs refuse empty ones.
    const textBlocks: LlmContent[] = text ? [{ type: "text", text }] : [];
    if (this.pending) {
      const { name, id, results, texts, images } = this.pending;
      this.pending = undefined;
      const answer = name === "ask_followup_question" ? `<answer>\n${text}\n</answer>` : `The user replied:\n<feedback>\n${text}\n</feedback>`;
      const all = [...images, ...userImages];
      if (id) this.history.push({ role: "user", content: resultContent([...results, { type: "tool_result", toolUseId: id, content: answer }], texts, all, true) });
      else this.history.push({ role: "user", content: resultContent(results, [...texts, `[${name}] Result:\n${answer}`], all, false) });
    } else if (last?.role === "user") {
      // The previous request failed and the user moved on: APIs want turns to alternate.
      const blocks: LlmContent[] = [...textBlocks, ...imageBlocks];
      last.content = typeof last.content === "string" && imageBlocks.length === 0 ? `${last.content}\n\n${text}` : [...asBlocks(last.content), ...blocks];
    } else {
      this.history.push({ role: "user", content: imageBlocks.length > 0 ? [...textBlocks, ...imageBlocks] : text });
    }
  }

  /** A note from Kiln to the model (e.g. that it forgot to use a tool). */
  addNote(text: string): void {
    this.history.push({ role: "user", content: text });
  }

  addAssistant(raw: string, nativeBlocks: ToolUseBlock[], newId: () => string): void {
    if (nativeBlocks.length === 0) {
      this.history.push({ role: "assistant", content: raw });
      return;
    }
    const content: LlmContent[] = raw ? [{ type: "text", text: raw }] : [];
    for (const block of nativeBlocks) {
      block.id ??= `call_${newId()}`;
      content.push({ type: "tool_use", id: block.id, name: block.name || "unknown", input: block.input ?? {} });
    }
    this.history.push({ role: "assistant", content });
  }

  addResults(results: LlmContent[], texts: string[], images: LlmImage[], native: boolean): void {
    this.history.push({ role: "user", content: resultContent(results, texts, images, native) });
  }

  /** Holds a turn's results until the user answers its question or completion. */
  waitForAnswer(pending: Pending): void {
    this.pending = pending;
  }

  /** The messages sent to the model: after a condense, the summary stands in for what came before it. */
  apiView(): LlmMessage[] {
    const start = this.viewStart();
    if (!this.condensed) return start === 1 ? this.history : [this.history[0]!, ...this.history.slice(start)];
    const first = this.history[0]!;
    const note = `<conversation_summary>\n${this.condensed.summary}\n</conversation_summary>`;
    const merged: LlmMessage =
      typeof first.content === "string" ? { role: "user", content: `${first.content}\n\n${note}` } : { role: "user", content: [...first.content, { type: "text", text: note }] };
    return [merged, ...this.history.slice(start)];
  }

  /** The index of the first message the view shows after the first one (a condense or the sliding window moves it on). */
  private viewStart(): number {
    return Math.max(this.condensed?.from ?? 1, 1 + this.hidden);
  }

  /** The sliding window: leaves the oldest `count` messages of the view (after the first) out of requests. */
  hideOldest(count: number): void {
    this.hidden = this.viewStart() + count - 1;
  }

  /**
   * What a condense would summarise: everything the model sees before the reply that asked for it
   * (that reply and its results stay), or before the last `keep` replies. Undefined when there is
   * nothing before it.
   */
  condensable(keep = 1): { messages: LlmMessage[]; from: number } | undefined {
    let from = this.history.length;
    for (let replies = 0; replies < keep && from > 0;) if (this.history[--from]!.role === "assistant") replies++;
    const start = this.viewStart();
    if (from <= start || this.history[from]?.role !== "assistant") return undefined;
    return { messages: this.apiView().slice(0, 1 + from - start), from };
  }

  condense(from: number, summary: string): void {
    this.condensed = { from, summary };
  }

  get size(): number {
    return this.history.length;
  }

  /**
   * Back to the first `n` messages (a checkpoint restored with its task). A pending answer, a
   * condense or a window past that point go with them. When the last kept message is a reply whose
   * calls lose their results, each gets REWOUND as its result, so the model knows none took effect.
   */
  rewind(n: number): void {
    this.history.splice(n);
    this.pending = undefined;
    if (this.condensed && this.condensed.from >= n) this.condensed = undefined;
    this.hidden = Math.min(this.hidden, Math.max(0, n - 2));
    const last = this.history.at(-1);
    if (last?.role !== "assistant") return;
    const ids = typeof last.content === "string" ? [] : last.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    this.history.push({ role: "user", content: ids.length > 0 ? ids.map((id) => ({ type: "tool_result" as const, toolUseId: id, content: REWOUND })) : REWOUND });
  }

  /** Everything needed to go on with this conversation later (task history). */
  save(): ConversationState {
    return structuredClone({
      messages: this.history,
      ...(this.pending && { pending: this.pending }),
      ...(this.condensed && { condensed: this.condensed }),
      ...(this.hidden > 0 && { hidden: this.hidden }),
    });
  }

  /** A conversation as saved; the caller has validated it (history/types.ts). */
  static restore(state: ConversationState): Conversation {
    const conversation = new Conversation();
    conversation.history.push(...structuredClone(state.messages));
    conversation.pending = state.pending && structuredClone(state.pending);
    // A summary that points past the end would hide the whole conversation: drop it.
    if (state.condensed && state.condensed.from < state.messages.length) conversation.condensed = { ...state.condensed };
    if (state.hidden !== undefined && state.hidden > 0 && state.hidden < state.messages.length - 1) conversation.hidden = state.hidden;
    return conversation;
  }
}

export interface ConversationState {
  messages: LlmMessage[];
  pending?: Pending;
  condensed?: { from: number; summary: string };
  /** Messages 1..hidden left out by the sliding window. */
  hidden?: number;
}

const REWOUND = "[The user restored the files to the checkpoint taken before this reply's edits and rewound the task to this point: nothing this reply did is in effect any more.]";

function asBlocks(content: string | LlmContent[]): LlmContent[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}
