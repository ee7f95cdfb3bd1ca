/** Content blocks of an assistant message, whichever tool-call protocol produced them. */

export interface TextBlock {
  type: "text";
  content: string;
  partial: boolean;
}

export interface ToolUseBlock {
  type: "tool_use";
  name: string;
  /** Values as text, as XML gives them; schemas coerce them ("3" -> 3, "true" -> true). */
  params: Record<string, string>;
  partial: boolean;
  /** The provider's id for a native call; XML calls get one from the loop. */
  id?: string;
  /** A native call's arguments as parsed, to send back to the API unchanged. */
  input?: Record<string, unknown>;
  /** Set when the call cannot run as written; tells the model what to fix. */
  error?: string;
}

/**
 * What the model wrote inside `<thinking>…</thinking>` or `<think>…</think>` in its text, when the XML
 * parser is asked to read reasoning tags. Still partial at the end when the close tag never came.
 */
export interface ReasoningBlock {
  type: "reasoning";
  content: string;
  partial: boolean;
}

export type AssistantContentBlock = TextBlock | ToolUseBlock | ReasoningBlock;
