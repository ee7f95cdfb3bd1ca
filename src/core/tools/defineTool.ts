import type { LlmImage } from "../llm/types";
import type { TaskControls } from "../ports/taskControls";
import type { ApprovalDecision, ApprovalDetails } from "../ports/approvals";
import type { EditReview } from "../ports/editReview";
import type { FileSystem } from "../ports/fileSystem";
import type { ArgsOf, ParamSpecs } from "./params";
import type { ToolStatus } from "../../shared/protocol/chat";
import type { ToolView } from "../../shared/toolView";
import type { ToolErrorReason } from "../../shared/toolOutcome";

export type { ToolErrorReason } from "../../shared/toolOutcome";

import type { ApprovalCategory, ToolGroup } from "./groups";

export type { ApprovalCategory, ToolGroup };

export interface ToolContext {
  /** Workspace root; relative paths resolve against it. */
  cwd: string;
  fs: FileSystem;
  signal: AbortSignal;
  /** The workspace's .gitignore and .kilocodeignore rules; tools build their own when absent. */
  ignore?: import("../workspace/ignore").IgnoreRules;
  /** Where edit tools send their writes (the diff editor in VS Code, straight to disk in the CLI). */
  edits?: EditReview;
  /**
   * The user's decision on this call, asked at most once. The pipeline asks before `execute` unless
   * the tool's approval says `reviewed` (then the tool asks, with its diff, when it is ready).
   */
  approve?(details?: ApprovalDetails): Promise<ApprovalDecision>;
  /** Shows a short line on the call's card while it runs (an MCP server's progress); absent where nobody shows it. */
  progress?(text: string): void;
  /** Shows what a running call prints on its card, as it comes; absent where nobody shows it. */
  output?(chunk: string): void;
  /** The waiting call's diff, anew: the user changed the proposal while deciding. Absent where nobody shows it. */
  reviseApproval?(diff: string): void;
  /**
   * Puts Continue while running and Stop on the running call's card; each signal fires when the
   * user presses its button. Absent where there is no card to press them on.
   */
  cardControls?(): CardControls;
  /** The MCP servers, for use_mcp_tool and access_mcp_resource; absent where none are configured. */
  mcp?: import("../mcp/types").McpHubApi;
  /**
   * What the task's model last saw of each file (read or written), by absolute path: write_to_file
   * refuses to replace a file that changed after that. Absent where no task keeps track.
   */
  seen?: Map<string, import("../files/guardedWrite").Fingerprint>;
  /** The task's changed files, for the end-of-task review; absent where nobody reviews them. */
  changes?: import("../edit/taskChanges").TaskChanges;
  /** apply_diff's similarity threshold (0.8–1; 1 = only exact or whitespace-tolerant matches). */
  fuzzyThreshold?: number;
  /** read_file's line cap per file (kiln.context.readFileMaxLines); its default when absent. */
  readFileMaxLines?: number;
  /** The head+tail cap of command output (kiln.terminal.outputMaxChars); its default when absent. */
  outputMaxChars?: number;
  /** The running task, for the task and mode tools; absent where tools run outside a task. */
  task?: TaskControls;
  /** Runs shell commands for execute_command; absent where the host cannot. */
  terminal?: import("../ports/terminal").Terminal;
  /** The task's browser for browser_action; absent where the host offers none. */
  browser?: import("../ports/browser").BrowserSession;
  /** kiln.mentions.allowPrivateUrls / --allow-private-urls: the browser may reach loopback and private addresses unasked. */
  allowPrivateUrls?: boolean;
  /** The workspace's codebase index for codebase_search; absent where it is turned off. */
  codeIndex?: import("../codeIndex/types").CodeSearchIndex;
  /** codebase_search's result cap (kiln.index.maxResults); its default when absent. */
  codeSearchMaxResults?: number;
  /** The editor's language servers, for go_to_definition and the other code-intelligence tools; absent in the CLI. */
  languageServices?: import("../ports/languageServices").LanguageServices;
  /** The user's enabled skills (core/skills), found again at each call; absent where the host has none. */
  skills?(): readonly import("../skills/skills").Skill[];
}

export interface CardControls {
  /** The user wants the model to go on now, the call still running. */
  continued: AbortSignal;
  /** The user ended this call (not the task). */
  stopped: AbortSignal;
}

export interface Suggestion {
  text: string;
  mode?: string;
}

/** What a tool hands back: a result for the model, or a stop of the loop (a question, the end). */
export type ImageData = LlmImage;

export type ToolOutcome =
  /** images: shown to vision models beside the text (a screenshot, an image file that was read). */
  | { kind: "result"; text: string; images?: ImageData[] }
  | { kind: "question"; question: string; suggestions: Suggestion[] }
  | { kind: "completion"; result: string; command?: string }
  /** The user said no when the tool asked (a reviewed edit); nothing was changed. */
  | { kind: "denied"; feedback?: string }
  /**
   * The call failed: it counts toward the errors-in-a-row stop, and the model reads `Error: <message>`
   * (see errorText). Failing is this kind, never a result whose text looks like an error.
   */
  | { kind: "error"; reason: ToolErrorReason; message: string };

/** A failed call's outcome; `message` is what the model reads after "Error: ". */
export function toolError(reason: ToolErrorReason, message: string): Extract<ToolOutcome, { kind: "error" }> {
  return { kind: "error", reason, message };
}

/** How the model (and the call's card) is told of a failure, the same for every tool. */
export function errorText(message: string): string {
  return `Error: ${message}`;
}

export interface ApprovalInfo {
  summary: string;
  /** Paths as the model wrote them; the pipeline resolves and checks them. */
  paths: string[];
  /** The tool asks through `context.approve` itself, once it can show what it will change. */
  reviewed?: boolean;
  /** A category auto-approved on its own, apart from the tool's group (deleting files). */
  category?: ApprovalCategory;
  /** The MCP tool called: the user may have allowed it one by one (alwaysAllow in mcp.json). */
  mcpTool?: { server: string; tool: string };
  /** A loopback or private host the call reaches (browser_action): it asks unless the user allowed those. */
  privateHost?: string;
}

export interface ToolDefinition<S extends ParamSpecs = ParamSpecs> {
  name: string;
  group: ToolGroup;
  description: string;
  params: S;
  /** What the user is asked to approve; undefined for tools that never need approval. */
  approval?(args: ArgsOf<S>): ApprovalInfo;
  /**
   * How a call looks (its chat card, the CLI's line), from its arguments as the model wrote them:
   * any of them may be missing or cut short while they stream. Pure, and never throws.
   */
  present?(args: PartialArgs<S>, status: ToolStatus): ToolView;
  execute(args: ArgsOf<S>, context: ToolContext): Promise<ToolOutcome>;
}

/** A call's arguments as text, as far as they have arrived. */
export type PartialArgs<S extends ParamSpecs> = { readonly [K in keyof S]?: string };

export type AnyTool = ToolDefinition<ParamSpecs>;

/** Keeps each tool's args typed by its own params while the registry holds them all. */
export function defineTool<S extends ParamSpecs>(tool: ToolDefinition<S>): AnyTool {
  return tool as unknown as AnyTool;
}
