import type { LlmContent, LlmMessage } from "../llm/types";

/** Results shorter than this stay whole: a note would save little and cost the model a re-read. */
export const SHORTEN_MIN_CHARS = 2_000;

/** An XML result is its own user message: `[read_file] Result:\n…` (toolTurn.ts). */
const XML_RESULT = /^\[([\w.-]+)[^\]\n]*\] Result:\n/;
/** Their results carry the user's own words (an answer, feedback), which are never shortened. */
const USER_WORDS = new Set(["ask_followup_question", "attempt_completion"]);

type ResultBlock = Extract<LlmContent, { type: "tool_result" }>;

interface OldResult {
  /** The tool_result block, or the whole user message of an XML result: the key its note is kept under. */
  key: object;
  name: string;
  text: string;
}

/** Where a shortened result's full text is kept; returns the file's path. */
export type SaveText = (toolName: string, text: string) => Promise<string>;

/**
 * Old, large tool results sent as a one-line note once `after` newer results exist: a file read
 * forty steps ago rarely matters at full length, and it is re-sent with every request. The full
 * text goes to a file the note names, so the model can read it again. The conversation itself is
 * not changed: notes are applied to the messages as they are sent, and kept per result, so each
 * result is saved once and the requests' prefixes stay stable for prompt caching.
 */
export class ResultShortener {
  private readonly notes = new WeakMap<object, string>();
  private readonly shaped = new WeakMap<LlmMessage, { content: LlmMessage["content"]; message: LlmMessage }>();

  /** Writes the notes (and saves the full texts) of the results that have `after` newer ones. */
  async prepare(view: readonly LlmMessage[], after: number, save: SaveText | undefined, warn: (message: string) => void): Promise<void> {
    if (after <= 0) return;
    const results = oldResults(view);
    for (const result of results.slice(0, Math.max(0, results.length - after))) {
      if (this.notes.has(result.key) || result.text.length < SHORTEN_MIN_CHARS || USER_WORDS.has(result.name)) continue;
      let where: string | undefined;
      try {
        where = save && (await save(result.name, result.text));
      } catch (err) {
        warn(`could not keep the full ${result.name} result on disk: ${err instanceof Error ? err.message : String(err)}`);
      }
      this.notes.set(result.key, noteFor(result, after, where));
    }
  }

  /** The messages with the noted results replaced; unchanged messages are the same objects. */
  apply(view: readonly LlmMessage[]): LlmMessage[] {
    return view.map((message, index) => (index === 0 || message.role !== "user" ? message : this.shape(message)));
  }

  private shape(message: LlmMessage): LlmMessage {
    const cached = this.shaped.get(message);
    if (cached && cached.content === message.content) return cached.message;
    let shaped = message;
    if (typeof message.content === "string") {
      const note = this.notes.get(message);
      if (note) shaped = { role: "user", content: `${XML_RESULT.exec(message.content)?.[0] ?? ""}${note}` };
    } else if (message.content.some((block) => this.notes.has(block))) {
      shaped = { role: "user", content: message.content.map((block) => this.shortBlock(block)) };
    }
    this.shaped.set(message, { content: message.content, message: shaped });
    return shaped;
  }

  private shortBlock(block: LlmContent): LlmContent {
    const note = this.notes.get(block);
    if (!note || block.type !== "tool_result") return block;
    return { type: "tool_result", toolUseId: block.toolUseId, content: note, ...(block.isError ? { isError: true } : {}) };
  }
}

function noteFor(result: OldResult, after: number, where: string | undefined): string {
  const size = `${result.text.length.toLocaleString("en-US")} characters`;
  const kept = where ? `The full text is in ${where}; read that file if you need it again.` : "Run the tool again if you need it.";
  return `[This ${result.name} result (${size}) was shortened after ${after} newer tool results. ${kept}]`;
}

/** The tool results after the first message, oldest first, with the name of the tool that gave each. */
function oldResults(view: readonly LlmMessage[]): OldResult[] {
  const results: OldResult[] = [];
  const names = new Map<string, string>();
  view.forEach((message, index) => {
    if (index === 0) return;
    if (typeof message.content === "string") {
      const name = message.role === "user" ? XML_RESULT.exec(message.content)?.[1] : undefined;
      if (name) results.push({ key: message, name, text: message.content });
      return;
    }
    for (const block of message.content) {
      if (block.type === "tool_use") names.set(block.id, block.name);
      if (block.type === "tool_result") results.push({ key: block as ResultBlock, name: names.get(block.toolUseId) ?? "tool", text: block.content });
    }
  });
  return results;
}
