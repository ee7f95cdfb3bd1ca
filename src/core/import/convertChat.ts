import type { ChatItem, ToolItem } from "../../shared/protocol/chat";
import type { SourceKind } from "./sources";
import { ApiRequestInfoSchema, JsonObjectSchema, parseJsonAs, SourceBrowserResultSchema, SourceFollowupSchema, SourceMcpUseSchema, SourceToolSchema, type SourceUiMessage } from "./sourceFormats";

/**
 * A task's `ui_messages.json` as Kiln's chat: what the user wrote, the replies, tool cards, questions,
 * completions and errors. A kind of message Kiln has nothing like is kept as a line of assistant
 * text saying what it was ("[roo: say condense_context] …"), never dropped. Partial messages (the
 * streaming steps of a later full one) and request bookkeeping are not shown; the requests' tokens
 * and cost are summed for the history entry.
 */

export interface ChatTotals {
  tokensIn: number;
  tokensOut: number;
  cacheRead: number;
  cacheWrite: number;
  /** Absent when no request recorded a cost. */
  cost?: number;
}

export interface ChatConversion {
  items: ChatItem[];
  totals: ChatTotals;
  /** The task reached a completion result. */
  completed: boolean;
  /** The first and last message's times. */
  createdAt?: number;
  updatedAt?: number;
}

/**
 * Shown nowhere: a request starting or ending (its tokens are summed), a retry, the MCP call's start
 * (its card shows it), a checkpoint in the source's own shadow repository (Kiln cannot restore it),
 * and the "resume this task?" prompt the source showed when the task was reopened.
 */
const BOOKKEEPING_SAYS = new Set([
  "api_req_started",
  "api_req_finished",
  "api_req_retried",
  "api_req_retry_delayed",
  "api_req_rate_limit_wait",
  "api_req_deleted",
  "mcp_server_request_started",
  "checkpoint_saved",
]);
const BOOKKEEPING_ASKS = new Set(["resume_task", "resume_completed_task"]);
const ERROR_ASKS = new Set(["api_req_failed", "mistake_limit_reached", "auto_approval_max_req_reached"]);

type Params = Record<string, string>;

function stringOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** Kiln's parameter names from the source's fields: `[kiln name, source field]` pairs, unset ones left out. */
function pick(json: Record<string, unknown>, pairs: readonly (readonly [string, string])[]): Params {
  const params: Params = {};
  for (const [kiln, source] of pairs) {
    const value = stringOf(json[source]);
    if (value !== undefined) params[kiln] = value;
  }
  return params;
}

/** Every plain field but `tool`, for tools Kiln has no counterpart of. */
function allFields(json: Record<string, unknown>): Params {
  const params: Params = {};
  for (const [key, value] of Object.entries(json)) {
    const text = stringOf(value);
    if (key !== "tool" && text !== undefined) params[key] = text;
  }
  return params;
}

/** Roo's todo list ([{content, status}]) as Kiln's checklist lines. */
function todoLines(todos: unknown): string | undefined {
  if (typeof todos === "string") return todos;
  if (!Array.isArray(todos)) return undefined;
  const mark: Record<string, string> = { completed: "x", in_progress: "-" };
  return todos
    .map((t: unknown) => {
      const item = (t ?? {}) as { content?: unknown; status?: unknown };
      return `- [${mark[String(item.status)] ?? " "}] ${String(item.content ?? "")}`;
    })
    .join("\n");
}

/** The source's tool (the `tool` field of an ask "tool" message) as a Kiln tool name and parameters. */
const TOOLS: Record<string, (json: Record<string, unknown>) => { name: string; params: Params }> = {
  readFile: (json) => {
    const batch = Array.isArray(json.batchFiles) ? json.batchFiles.flatMap((f: unknown) => stringOf((f as { path?: unknown } | null)?.path) ?? []) : [];
    return { name: "read_file", params: batch.length > 0 ? { path: batch.join(", ") } : pick(json, [["path", "path"]]) };
  },
  newFileCreated: (json) => ({
    name: "write_to_file",
    params: pick(json, [
      ["path", "path"],
      ["content", "content"],
    ]),
  }),
  // Roo and Cline say "edited" for a whole-file write and for a search/replace edit alike; the diff tells which.
  editedExistingFile: (json) =>
    typeof json.diff === "string" && json.diff.includes("<<<<<<< SEARCH")
      ? {
          name: "apply_diff",
          params: pick(json, [
            ["path", "path"],
            ["diff", "diff"],
          ]),
        }
      : {
          name: "write_to_file",
          params: pick(json, [
            ["path", "path"],
            ["content", "content"],
            ["diff", "diff"],
          ]),
        },
  appliedDiff: (json) => ({
    name: "apply_diff",
    params: pick(json, [
      ["path", "path"],
      ["diff", "diff"],
    ]),
  }),
  insertContent: (json) => ({
    name: "insert_content",
    params: pick(json, [
      ["path", "path"],
      ["line", "lineNumber"],
      ["content", "diff"],
      ["content", "content"],
    ]),
  }),
  searchAndReplace: (json) => ({
    name: "search_and_replace",
    params: pick(json, [
      ["path", "path"],
      ["search", "search"],
      ["replace", "replace"],
      ["use_regex", "useRegex"],
      ["ignore_case", "ignoreCase"],
      ["start_line", "startLine"],
      ["end_line", "endLine"],
    ]),
  }),
  listFilesTopLevel: (json) => ({ name: "list_files", params: pick(json, [["path", "path"]]) }),
  listFilesRecursive: (json) => ({ name: "list_files", params: { ...pick(json, [["path", "path"]]), recursive: "true" } }),
  listCodeDefinitionNames: (json) => ({ name: "list_code_definition_names", params: pick(json, [["path", "path"]]) }),
  searchFiles: (json) => ({
    name: "search_files",
    params: pick(json, [
      ["path", "path"],
      ["regex", "regex"],
      ["file_pattern", "filePattern"],
    ]),
  }),
  codebaseSearch: (json) => ({
    name: "codebase_search",
    params: pick(json, [
      ["query", "query"],
      ["path", "path"],
    ]),
  }),
  switchMode: (json) => ({
    name: "switch_mode",
    params: pick(json, [
      ["mode_slug", "mode"],
      ["reason", "reason"],
    ]),
  }),
  newTask: (json) => ({
    name: "new_task",
    params: pick(json, [
      ["mode", "mode"],
      ["message", "content"],
    ]),
  }),
  fetchInstructions: (json) => ({ name: "fetch_instructions", params: pick(json, [["task", "content"]]) }),
  updateTodoList: (json) => {
    const todos = todoLines(json.todos);
    const params: Params = todos === undefined ? {} : { todos };
    return { name: "update_todo_list", params };
  },
  runSlashCommand: (json) => ({
    name: "run_slash_command",
    params: pick(json, [
      ["command", "command"],
      ["args", "args"],
    ]),
  }),
};

/** Builds the chat items of one task. */
class ChatBuilder {
  readonly items: ChatItem[] = [];
  private reasoning: string[] = [];
  private lastCommand: ToolItem | undefined;
  private lastMcp: ToolItem | undefined;
  private lastBrowser: ToolItem | undefined;
  private lastCompletion: string | undefined;

  constructor(private readonly kind: SourceKind) {}

  private push(item: ChatItem): void {
    // Reasoning with no reply after it still shows, on an empty reply of its own.
    if (this.reasoning.length > 0 && item.role !== "assistant") this.items.push({ id: `${item.id}-r`, role: "assistant", text: "", reasoning: this.takeReasoning(), partial: false });
    this.items.push(item);
  }

  private takeReasoning(): string | undefined {
    const text = this.reasoning.join("\n\n");
    this.reasoning = [];
    return text || undefined;
  }

  addReasoning(text: string): void {
    if (text.trim()) this.reasoning.push(text);
  }

  user(id: string, text: string, images: readonly string[] | null | undefined): void {
    this.push({ id, role: "user", text, ...(images && images.length > 0 && { images: [...images] }) });
  }

  assistant(id: string, text: string, ownReasoning?: string | null): void {
    if (ownReasoning) this.addReasoning(ownReasoning);
    const reasoning = this.takeReasoning();
    this.push({ id, role: "assistant", text, ...(reasoning && { reasoning }), partial: false });
  }

  tool(id: string, name: string, params: Params): ToolItem {
    const item: ToolItem = { id, role: "tool", name, params, status: "done" };
    this.push(item);
    return item;
  }

  command(id: string, command: string): void {
    this.lastCommand = this.tool(id, "execute_command", { command });
  }

  /** Output belongs to the command before it; output with no command is shown as what it was. */
  commandOutput(message: SourceUiMessage, id: string): void {
    if (!this.lastCommand) return this.unknown(message, id);
    const text = message.text ?? "";
    this.lastCommand.result = this.lastCommand.result ? `${this.lastCommand.result}\n${text}` : text;
  }

  mcp(id: string, text: string | null | undefined, message: SourceUiMessage): void {
    const use = parseJsonAs(text, SourceMcpUseSchema);
    if (!use) return this.unknown(message, id);
    const resource = use.type === "access_mcp_resource";
    const params: Params = { server_name: use.serverName };
    if (resource) {
      if (use.uri) params.uri = use.uri;
    } else {
      if (use.toolName) params.tool_name = use.toolName;
      if (use.arguments) params.arguments = use.arguments;
    }
    this.lastMcp = this.tool(id, resource ? "access_mcp_resource" : "use_mcp_tool", params);
  }

  mcpResponse(message: SourceUiMessage, id: string): void {
    if (!this.lastMcp) return this.unknown(message, id);
    this.lastMcp.result = message.text ?? "";
  }

  browser(id: string, params: Params): void {
    this.lastBrowser = this.tool(id, "browser_action", params);
  }

  browserResult(message: SourceUiMessage, id: string): void {
    if (!this.lastBrowser) return this.unknown(message, id);
    // The screenshot stays behind: a result is text, and the page is long gone.
    const result = parseJsonAs(message.text, SourceBrowserResultSchema);
    const parts = [result?.currentUrl, result?.logs].filter((p): p is string => Boolean(p));
    this.lastBrowser.result = parts.length > 0 ? parts.join("\n") : (message.text ?? "");
  }

  question(id: string, text: string): void {
    const followup = parseJsonAs(text, SourceFollowupSchema);
    if (!followup) {
      this.push({ id, role: "question", question: text, suggestions: [] });
      return;
    }
    const suggestions = [
      ...(followup.suggest ?? []).map((s) => (typeof s === "string" ? { text: s } : { text: s.answer, ...(s.mode && { mode: s.mode }) })),
      ...(followup.options ?? []).map((text) => ({ text })),
    ];
    this.push({ id, role: "question", question: followup.question, suggestions });
  }

  completion(id: string, result: string): void {
    // The ask after a completion repeats its text in some versions: shown once.
    if (result === this.lastCompletion) return;
    this.lastCompletion = result;
    this.push({ id, role: "completion", result });
  }

  error(id: string, message: string): void {
    this.push({ id, role: "error", error: { kind: "unknown", message: message || "The request failed.", retryable: false } });
  }

  /** A message Kiln shows nothing like: kept as text that says what it was. */
  unknown(message: SourceUiMessage, id: string): void {
    const what = `[${this.kind}: ${message.type} ${(message.type === "ask" ? message.ask : message.say) ?? "(no kind)"}]`;
    const text = message.text?.trim();
    this.assistant(id, text ? `${what} ${text}` : what);
  }

  finish(): void {
    if (this.reasoning.length > 0) this.items.push({ id: "reasoning-end", role: "assistant", text: "", reasoning: this.takeReasoning(), partial: false });
  }
}

function addRequest(totals: ChatTotals, text: string | null | undefined): void {
  const info = parseJsonAs(text, ApiRequestInfoSchema);
  if (!info) return;
  totals.tokensIn += info.tokensIn ?? 0;
  totals.tokensOut += info.tokensOut ?? 0;
  totals.cacheWrite += info.cacheWrites ?? 0;
  totals.cacheRead += info.cacheReads ?? 0;
  if (typeof info.cost === "number") totals.cost = (totals.cost ?? 0) + info.cost;
}

function toolMessage(builder: ChatBuilder, message: SourceUiMessage, id: string): void {
  const json = parseJsonAs(message.text, SourceToolSchema);
  if (!json) return builder.unknown(message, id);
  const mapped = TOOLS[json.tool]?.(json) ?? { name: json.tool, params: allFields(json) };
  builder.tool(id, mapped.name, mapped.params);
}

function browserAction(builder: ChatBuilder, message: SourceUiMessage, id: string): void {
  const json = parseJsonAs(message.text, JsonObjectSchema);
  if (!json) return builder.unknown(message, id);
  builder.browser(
    id,
    pick(json, [
      ["action", "action"],
      ["coordinate", "coordinate"],
      ["text", "text"],
      ["url", "url"],
    ]),
  );
}

export function convertUiMessages(messages: readonly SourceUiMessage[], kind: SourceKind): ChatConversion {
  const builder = new ChatBuilder(kind);
  const totals: ChatTotals = { tokensIn: 0, tokensOut: 0, cacheRead: 0, cacheWrite: 0 };
  let completed = false;
  messages.forEach((message, index) => {
    const id = `m${index}`;
    const text = message.text ?? "";
    if (message.type === "say" && message.say === "api_req_started") return addRequest(totals, message.text);
    if (message.partial) return;
    if (message.type === "say") {
      switch (message.say) {
        case "task":
          return builder.user(id, text, message.images);
        case "text":
          // Roo's first message is the task as a "text"; later ones are replies.
          return index === 0 ? builder.user(id, text, message.images) : builder.assistant(id, text, message.reasoning);
        case "reasoning":
          return builder.addReasoning(text);
        case "user_feedback":
          return builder.user(id, text, message.images);
        case "completion_result":
          completed = true;
          return builder.completion(id, text);
        case "error":
          return builder.error(id, text);
        case "command":
          return builder.command(id, text);
        case "command_output":
          return builder.commandOutput(message, id);
        case "tool":
          return toolMessage(builder, message, id);
        case "use_mcp_server":
          return builder.mcp(id, message.text, message);
        case "mcp_server_response":
          return builder.mcpResponse(message, id);
        case "browser_action_launch":
          return builder.browser(id, { action: "launch", url: text });
        case "browser_action":
          return browserAction(builder, message, id);
        case "browser_action_result":
          return builder.browserResult(message, id);
        default:
          if (message.say && BOOKKEEPING_SAYS.has(message.say)) return;
          return builder.unknown(message, id);
      }
    }
    switch (message.ask) {
      case "tool":
        return toolMessage(builder, message, id);
      case "command":
        return builder.command(id, text);
      case "command_output":
        return builder.commandOutput(message, id);
      case "followup":
        return builder.question(id, text);
      case "completion_result":
        completed = true;
        // Usually empty: the result was said just before; a text here is a result of its own.
        return text.trim() ? builder.completion(id, text) : undefined;
      case "use_mcp_server":
        return builder.mcp(id, message.text, message);
      case "browser_action_launch":
        return builder.browser(id, { action: "launch", url: text });
      default:
        if (message.ask && ERROR_ASKS.has(message.ask)) return builder.error(id, text);
        if (message.ask && BOOKKEEPING_ASKS.has(message.ask)) return;
        return builder.unknown(message, id);
    }
  });
  builder.finish();
  return { items: builder.items, totals, completed, createdAt: messages[0]?.ts, updatedAt: messages.at(-1)?.ts };
}
