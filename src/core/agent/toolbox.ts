import type { Fingerprint } from "../files/guardedWrite";
import type { NativeTool } from "../llm/types";
import type { Mode } from "../modes/modes";
import { BUILTIN_MODES, toolsForMode } from "../modes/modes";
import type { Approvals } from "../ports/approvals";
import type { BrowserSessionFactory } from "../ports/browser";
import type { EditReview } from "../ports/editReview";
import { TaskChanges } from "../edit/taskChanges";
import { StreamPreviews } from "../edit/streamPreview";
import type { McpHubApi } from "../mcp/types";
import { hasUsableServers } from "../prompts/mcpSection";
import { asUseMcpTool, mcpNativeTools } from "../mcp/nativeNames";
import type { ToolUseBlock } from "../toolcall/types";
import type { FileSystem } from "../ports/fileSystem";
import type { Terminal } from "../ports/terminal";
import { buildSystemPrompt, type ToolProtocol } from "../prompts/system";
import type { AutoApproveInput, PipelineDeps } from "./pipeline";
import type { ToolRegistry } from "../tools/registry";
import type { RulesLoad } from "../rules/loadRules";
import type { Skill } from "../skills/skills";
import { WorkspaceIgnore } from "../workspace/ignore";
import type { TaskCheckpoints } from "../checkpoints/taskCheckpoints";
import type { CodeSearchIndex } from "../codeIndex/types";
import type { LanguageServices } from "../ports/languageServices";
import { LANGUAGE_SERVICE_TOOLS } from "../tools/symbolLookup";

/** A task's mode and the modes it may switch to; the task holds it (TaskRuntime), the toolbox reads it. */
export interface ModeState {
  readonly mode: Mode;
  readonly modes: readonly Mode[];
}

/**
 * Everything the loop needs to work with tools, built once per task by the host and never changed
 * after: what depends on the task's mode takes the mode as an argument.
 */
export interface Toolbox {
  readonly maxRequests: number;
  /** The mode a task starts in unless told otherwise, and the modes known when the toolbox was made. */
  readonly startMode: Mode;
  readonly modes: readonly Mode[];
  /** Whether attempt_completion waits for every todo to be done. */
  readonly requireTodosDone: boolean;
  /** Files the task changed (a subtask's too), for the end-of-task review. */
  readonly changes: TaskChanges;
  /** Checkpoints of the workspace before edits; absent where the host takes none. */
  readonly checkpoints?: TaskCheckpoints;
  /** A write still streaming from the model, shown in the review as it comes (if the mode may write there). */
  previewEdit(block: ToolUseBlock, mode: Mode): void;
  /** Closes the previews no edit took over (the turn ended). */
  endPreviews(): Promise<void>;
  /** The same tools and settings for a subtask: shared changes, its own view of the files and browser. */
  forSubtask(): Toolbox;
  xmlParams(): Record<string, string[]>;
  nativeTools(mode: Mode): NativeTool[];
  systemPrompt(protocol: ToolProtocol, modes: ModeState): string;
  pipeline(signal: AbortSignal, modes: ModeState): PipelineDeps;
  /** Keeps a long text in the task's folder and returns its path (cut results, shortened old ones). */
  saveOverflow?(toolName: string, text: string): Promise<string>;
  /** Closes what the tools left open (the browser). The Task calls it when it is disposed. */
  dispose(): void;
}

export interface ToolboxOptions {
  registry: ToolRegistry;
  /** The mode a task starts in unless the host says otherwise. */
  mode: Mode;
  approvals: Approvals;
  autoApprove: AutoApproveInput | (() => AutoApproveInput);
  cwd: string;
  fs: FileSystem;
  os: string;
  maxRequests?: number;
  saveOverflow?(toolName: string, text: string): Promise<string>;
  /** Modes the task may switch to; the built-ins unless the host knows custom ones. */
  modes?: readonly Mode[];
  requireTodosDone?: boolean;
  /** Runs execute_command; shared by a task and its subtasks, so background commands stay readable. */
  terminal?: Terminal;
  /** Makes this toolbox's browser; each toolbox (a task, a subtask) gets its own, closed by dispose(). */
  browser?: BrowserSessionFactory;
  /** The editor's open files, read for each request (the VS Code host has them; the CLI does not). */
  openFiles?(): string[];
  /** Where the edit tools send their writes for review (VS Code's diff editor); absent: straight to disk. */
  edits?: EditReview;
  /** Shared by a task and its subtasks; made by the first toolbox when absent. */
  changes?: TaskChanges;
  /** The MCP servers (the hub); absent where none are configured. */
  mcp?: McpHubApi;
  /** apply_diff's similarity threshold; read per call so a changed setting applies at once. */
  fuzzyThreshold?(): number | undefined;
  /** The limits on what reaches the model (limits.ts), read per call like fuzzyThreshold; defaults when absent. */
  readFileMaxLines?(): number | undefined;
  toolResultMaxChars?(): number | undefined;
  outputMaxChars?(): number | undefined;
  /** Whether the browser may reach loopback and private addresses unasked; read per call. */
  allowPrivateUrls?(): boolean;
  /** kiln.redactSecrets / the CLI's --no-redact (PipelineDeps.redactSecrets), read per call; on when absent. */
  redactSecrets?(): boolean;
  /** The user's rule files for a mode (core/rules/rulesPrompt.ts), read for each system prompt. */
  rules?(mode: string): Pick<RulesLoad, "rules" | "leftOut">;
  /** The user's enabled skills (core/skills/skills.ts), found again for each system prompt and use_skill call. */
  skills?(): readonly Skill[];
  /** Checkpoints before edits; a subtask's toolbox gets a view that shares the task's id. */
  checkpoints?: TaskCheckpoints;
  /** What the model last saw of each file (see ToolContext.seen); a new task starts with none. */
  seen?: Map<string, Fingerprint>;
  /** The workspace's codebase index; without one codebase_search is not offered. */
  codeIndex?: CodeSearchIndex;
  /** codebase_search's result cap (kiln.index.maxResults), read per call; its default when absent. */
  codeSearchMaxResults?(): number | undefined;
  /** The editor's language servers (VS Code); without them go_to_definition and its kin are not offered. */
  languageServices?: LanguageServices;
}

export function createToolbox(options: ToolboxOptions): Toolbox {
  const changes = options.changes ?? new TaskChanges();
  // What this task's model last saw of each file; a subtask is its own conversation with its own.
  const seen = options.seen ?? new Map<string, Fingerprint>();
  const ownFiles = new Set<string>();
  // One cache of ignore rules per task; it re-reads a rules file when it changes.
  const ignore = new WorkspaceIgnore(options.cwd);
  const previews = new StreamPreviews(options.edits, options.fs, options.cwd, ignore);
  // Inert until the model launches it, so making one per task costs nothing.
  const browser = options.browser?.();
  // MCP tools are offered only while a server can take the call: otherwise they are noise in the prompt.
  // codebase_search likewise only where the host keeps an index (the user may have turned it off),
  // and the code-intelligence tools only where the host has language servers (VS Code, not the CLI).
  // use_skill only where there is a skill to load.
  const tools = (mode: Mode, skills: readonly Skill[]) =>
    toolsForMode(mode, options.registry.list()).filter(
      (t) =>
        (t.group !== "mcp" || hasUsableServers(options.mcp?.servers())) &&
        (t.name !== "use_skill" || skills.length > 0) &&
        (t.name !== "codebase_search" || options.codeIndex !== undefined) &&
        (!LANGUAGE_SERVICE_TOOLS.has(t.name) || options.languageServices !== undefined),
    );
  const toolbox: Toolbox = {
    maxRequests: options.maxRequests ?? 100,
    saveOverflow: options.saveOverflow,
    startMode: options.mode,
    modes: options.modes ?? BUILTIN_MODES,
    requireTodosDone: options.requireTodosDone ?? false,
    changes,
    ...(options.checkpoints && { checkpoints: options.checkpoints }),
    previewEdit: (block, mode) => previews.update(block, mode),
    endPreviews: () => previews.end(),
    forSubtask: () => createToolbox({ ...options, changes, seen: undefined, checkpoints: options.checkpoints?.forSubtask() }),
    // Every tool is parsed, not only the mode's: a call the mode forbids is then refused with a
    // message that names the modes that may make it, instead of being read as plain text.
    xmlParams: () => options.registry.xmlParams(),
    // Each MCP tool is also a function of its own, for modes that may use MCP.
    nativeTools: (mode) => [
      ...options.registry.nativeSchemas(tools(mode, options.skills?.() ?? [])),
      ...(mode.groups.some((g) => (Array.isArray(g) ? g[0] : g) === "mcp") ? mcpNativeTools(options.mcp?.servers()) : []),
    ],
    systemPrompt: (protocol, { mode, modes }) => {
      const skills = options.skills?.() ?? [];
      return buildSystemPrompt(mode, protocol, protocol === "xml" ? options.registry.xmlSection(tools(mode, skills)) : "", {
        cwd: options.cwd,
        os: options.os,
        now: new Date(),
        modes,
        openFiles: options.openFiles?.(),
        mcp: options.mcp?.servers(),
        rules: options.rules?.(mode.slug),
        skills,
        languageServices: options.languageServices !== undefined,
      });
    },
    pipeline: (signal, { mode, modes }) => ({
      registry: options.registry,
      mode,
      modes,
      approvals: options.approvals,
      autoApprove: typeof options.autoApprove === "function" ? options.autoApprove() : options.autoApprove,
      context: {
        cwd: options.cwd,
        fs: options.fs,
        signal,
        ignore,
        browser,
        terminal: options.terminal,
        edits: options.edits,
        changes,
        seen,
        mcp: options.mcp,
        fuzzyThreshold: options.fuzzyThreshold?.(),
        readFileMaxLines: options.readFileMaxLines?.(),
        outputMaxChars: options.outputMaxChars?.(),
        allowPrivateUrls: options.allowPrivateUrls?.() === true,
        codeIndex: options.codeIndex,
        codeSearchMaxResults: options.codeSearchMaxResults?.(),
        languageServices: options.languageServices,
        skills: options.skills,
      },
      maxResultChars: options.toolResultMaxChars?.(),
      redactSecrets: options.redactSecrets?.() !== false,
      saveOverflow: options.saveOverflow,
      translate: (block) => asUseMcpTool(block, options.mcp?.servers()),
      ownFiles,
    }),
    dispose: () => void browser?.dispose(),
  };
  // Per task, fixed: a host or tool that tried to change it (its mode, say) would fail loudly here.
  return Object.freeze(toolbox);
}
