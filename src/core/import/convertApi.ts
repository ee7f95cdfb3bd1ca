import type { LlmContent, LlmImage, LlmMessage } from "../llm/types";
import type { SourceKind } from "./sources";
import { describeIssue, ImageBlockSchema, TextBlockSchema, ToolResultBlockSchema, ToolUseBlockSchema, type SourceApiMessage, type SourceBlock } from "./sourceFormats";

/**
 * A task's `api_conversation_history.json` (Anthropic's message format, which all four agents keep)
 * as Kiln's conversation, so a resumed task sends the model what it saw before. A block whose type
 * is known but whose fields are wrong makes the task damaged (thrown); a block of a type Kiln has
 * no use for is left out (the model's own thinking) or kept as a line of text saying what it was.
 */

const MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** The model's own reasoning: providers want it back only from the same model, so it is not carried over. */
const REASONING_BLOCKS = new Set(["thinking", "redacted_thinking", "reasoning"]);
/** Some providers refuse a message with no content; a message left empty says so instead. */
const EMPTY_MESSAGE = "(no text)";

export class DamagedMessage extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An image block as Kiln keeps it, or a note when Kiln cannot send it (a URL, a format no provider takes). */
function imageOf(block: SourceBlock, where: string): LlmImage | string {
  const parsed = ImageBlockSchema.safeParse(block);
  if (!parsed.success) throw new DamagedMessage(`${where}: ${describeIssue(parsed.error)}`);
  const source = parsed.data.source;
  if (source.type === "url") return `[image: ${source.url}]`;
  const mediaType = MEDIA_TYPES.find((t) => t === source.media_type.toLowerCase());
  return mediaType ? { mediaType, data: source.data } : `[image of type ${source.media_type}, not carried over]`;
}

/** A tool result's content (text and image blocks) as Kiln's text plus images. */
function resultParts(content: string | SourceBlock[] | null | undefined, where: string, kind: SourceKind): { text: string; images: LlmImage[] } {
  if (content === null || content === undefined) return { text: "", images: [] };
  if (typeof content === "string") return { text: content, images: [] };
  const texts: string[] = [];
  const images: LlmImage[] = [];
  content.forEach((block, i) => {
    const at = `${where}.content[${i}]`;
    if (block.type === "text") {
      const parsed = TextBlockSchema.safeParse(block);
      if (!parsed.success) throw new DamagedMessage(`${at}: ${describeIssue(parsed.error)}`);
      texts.push(parsed.data.text);
    } else if (block.type === "image") {
      const image = imageOf(block, at);
      if (typeof image === "string") texts.push(image);
      else images.push(image);
    } else if (!REASONING_BLOCKS.has(block.type)) {
      texts.push(`[${kind}: ${block.type} block]`);
    }
  });
  return { text: texts.join("\n\n"), images };
}

function convertBlock(block: SourceBlock, where: string, kind: SourceKind): LlmContent | undefined {
  switch (block.type) {
    case "text": {
      const parsed = TextBlockSchema.safeParse(block);
      if (!parsed.success) throw new DamagedMessage(`${where}: ${describeIssue(parsed.error)}`);
      return { type: "text", text: parsed.data.text };
    }
    case "image": {
      const image = imageOf(block, where);
      return typeof image === "string" ? { type: "text", text: image } : { type: "image", ...image };
    }
    case "tool_use": {
      const parsed = ToolUseBlockSchema.safeParse(block);
      if (!parsed.success) throw new DamagedMessage(`${where}: ${describeIssue(parsed.error)}`);
      // Some versions stored a call's arguments as the JSON text the model streamed.
      let input: unknown = parsed.data.input ?? {};
      if (typeof input === "string") {
        try {
          input = JSON.parse(input);
        } catch {
          input = { input };
        }
      }
      return { type: "tool_use", id: parsed.data.id, name: parsed.data.name, input: isRecord(input) ? input : { input } };
    }
    case "tool_result": {
      const parsed = ToolResultBlockSchema.safeParse(block);
      if (!parsed.success) throw new DamagedMessage(`${where}: ${describeIssue(parsed.error)}`);
      const { text, images } = resultParts(parsed.data.content, where, kind);
      return {
        type: "tool_result",
        toolUseId: parsed.data.tool_use_id,
        content: text,
        ...(parsed.data.is_error && { isError: true }),
        ...(images.length > 0 && { images }),
      };
    }
    default:
      return REASONING_BLOCKS.has(block.type) ? undefined : { type: "text", text: `[${kind}: ${block.type} block]` };
  }
}

/** The conversation as Kiln's messages; throws DamagedMessage naming the message and block at fault. */
/**
 * The messages the source would still send: Roo keeps what a condense or a truncation replaced,
 * tagged with the replacing summary's (or marker's) id, so a rewind can bring it back. While that
 * summary is in the history, the tagged messages are left out, or a resumed task would send the
 * whole conversation again beside its summary.
 */
export function effectiveApiMessages(messages: readonly SourceApiMessage[]): SourceApiMessage[] {
  const summaries = new Set(messages.flatMap((m) => (m.condenseId ? [m.condenseId] : [])));
  const markers = new Set(messages.flatMap((m) => (m.truncationId ? [m.truncationId] : [])));
  return messages.filter((m) => !(m.condenseParent && summaries.has(m.condenseParent)) && !(m.truncationParent && markers.has(m.truncationParent)));
}

export function convertApiMessages(messages: readonly SourceApiMessage[], kind: SourceKind): LlmMessage[] {
  return effectiveApiMessages(messages).map((message, m) => {
    if (typeof message.content === "string") return { role: message.role, content: message.content || EMPTY_MESSAGE };
    const content = message.content.flatMap((block, b) => convertBlock(block, `[${m}].content[${b}]`, kind) ?? []);
    return { role: message.role, content: content.length > 0 ? content : EMPTY_MESSAGE };
  });
}

/**
 * The workspace folder the agent told the model about in the first message's environment details
 * (Roo and Kilo: "Current Workspace Directory (/path)", Cline: "Current Working Directory (/path)"),
 * for tasks whose files do not record it elsewhere.
 */
export function workspaceFromEnvironment(messages: readonly SourceApiMessage[]): string | undefined {
  const first = messages.find((m) => m.role === "user");
  if (!first) return undefined;
  const texts = typeof first.content === "string" ? [first.content] : first.content.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []));
  for (const text of texts) {
    const match = /Current (?:Workspace|Working) Directory \(([^)\n]+)\)/.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}
