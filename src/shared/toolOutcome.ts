/**
 * Why a tool call failed. The task loop counts failures by this, never by the text: a file that
 * begins with "Error:" is a result like any other. The model sees only the message (as
 * `Error: <message>`); the code is Kiln's.
 */
export type ToolErrorReason =
  /** The call's parameters are missing, malformed or contradict each other (an empty search, a bad regex, a line past the end, a call cut off). */
  | "invalid_args"
  /** What the call names does not exist: a file or folder, a tool, a mode, an MCP server or tool, a command id. */
  | "not_found"
  /** The path is there but of the wrong kind: a folder where a file was expected, a device, a socket. */
  | "wrong_type"
  /** A file the tool cannot handle: binary, an encoding that cannot be told or cannot hold the text, an unsupported language. */
  | "unsupported"
  /** Over a size limit. */
  | "too_large"
  /** Hidden from Kiln by .kilocodeignore. */
  | "ignored"
  /** The current mode does not allow the tool or the path. */
  | "mode"
  /** The state is not what the call assumed: a file changed since it was read, a link moved since it was checked, a rule that exists, a folder that is not empty, todos still open. */
  | "conflict"
  /** An edit's search text (or a diff's block) was not found in the file. */
  | "no_match"
  /** This host or task lacks what the tool needs: a terminal, ripgrep, a browser, MCP servers, someone to approve. */
  | "unavailable"
  /** An MCP server answered with an error. */
  | "mcp"
  /** The tool ran and failed (it threw, a command could not start, the search broke off, a subtask did not complete). */
  | "failed";

const REASONS: Record<ToolErrorReason, true> = {
  invalid_args: true,
  not_found: true,
  wrong_type: true,
  unsupported: true,
  too_large: true,
  ignored: true,
  mode: true,
  conflict: true,
  no_match: true,
  unavailable: true,
  mcp: true,
  failed: true,
};

/** Every reason, in the order above (a record, so that a new reason cannot be left out here). */
export const TOOL_ERROR_REASONS = Object.keys(REASONS) as readonly ToolErrorReason[];
