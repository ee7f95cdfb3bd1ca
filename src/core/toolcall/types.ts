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

export type AssistantContentBlock = TextBlock | ToolUseBlock;
