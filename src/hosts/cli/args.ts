import { homedir } from "node:os";
import { join } from "node:path";
import { EMBEDDER_KINDS } from "../../core/codeIndex/embedder";
import { isProviderKind, PROVIDER_KINDS, type ProviderKind, type ProviderSettings } from "../../core/llm/types";
import type { ProviderOption } from "../../shared/providerCatalog";
import { isReasoningEffort, isThinkingBudget, REASONING_EFFORTS, THINKING_BUDGET } from "../../shared/reasoning";
import { APPROVE_WORDS, isApproveWord, settingsFromWords, type ApproveWord, type AutoApproveSettings } from "../../core/approval/settings";
import type { ToolProtocolSetting } from "../../core/prompts/system";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS, withinBounds, type LimitBounds } from "../../shared/limits";
import { MAX_TOOL_CALLS, REPLY_MAX_CHARS, TOOL_ARG_MAX_CHARS, type ReplyLimits } from "../../core/agent/replyLimits";
import { FIRST_REPLY_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS } from "../../core/llm/requestWatch";
import { applyContextFlag, defaultContextArgs, isContextFlag, type ContextArgs } from "./contextArgs";
import { isSourceKind, SOURCE_KINDS, type SourceKind } from "../../core/import/sources";
import { hasSettingsExport, SETTINGS_EXPORT_SOURCES } from "../../core/import/providerProfiles";

/** The settings a config file (configFile.ts) may also give: the flags and KILN_* variables win over it. */
export type ConfigurableField = "kind" | "baseUrl" | "model" | ProviderOption | "reasoning" | "modelInfo" | "apiKeyEnv" | "mode" | "protocol" | "maxRequests" | "retries";

/** What the approval flags said; settleApprovals turns them, with a config file's, into autoApprove. */
export interface ApprovalFlags {
  /** --approve's words; absent when it was not given. */
  words?: ApproveWord[];
  allowed: string[];
  denied: string[];
  maxApprovals: number;
}

/** The context and budget flags (context, modelInfo) are in contextArgs.ts. */
export interface CliArgs extends ContextArgs {
  command: "run" | "chat" | "resume" | "history" | "restore-checkpoint" | "models" | "index" | "import";
  /** Which provider settings the flags (or an explicit --profile) gave: those win over a resumed task's own. */
  given: { kind?: boolean; baseUrl?: boolean; model?: boolean };
  /** Which settings the flags or the environment gave; a config file fills only the others. */
  explicit: Set<ConfigurableField>;
  /** --profile: the config file's profile to use (else the file's defaults.profile). */
  profile?: string;
  approval: ApprovalFlags;
  /** models: ask the provider again instead of the cached list. */
  refresh?: boolean;
  /** Where model lists are cached (~/.kilocode/kiln/cache, or KILN_CACHE_DIR). */
  cacheDir: string;
  /** Where checkpoints are kept (default ~/.kilocode/kiln); undefined with --no-checkpoints. */
  checkpointDir?: string;
  /** restore-checkpoint: the checkpoint to put the files back to. */
  commit?: string;
  /** resume: the saved task to go on with. */
  resumeId?: string;
  /** Where tasks are saved (default ~/.kilocode/kiln/tasks); undefined with --no-history. */
  historyDir?: string;
  /** Whether --workspace was given; resume otherwise uses the saved task's folder. */
  workspaceGiven?: boolean;
  settings: ProviderSettings;
  prompt?: string;
  json: boolean;
  workspace: string;
  apiKeyEnv?: string;
  mode: string;
  protocol: ToolProtocolSetting;
  /** What runs without asking: --approve's words, with the command lists and limits of the flags. */
  autoApprove: AutoApproveSettings;
  /** --sandbox: commands run in the command sandbox (src/core/sandbox); network with --sandbox-network. */
  sandbox?: { network: boolean };
  maxRequests: number;
  retries: number;
  fuzzyThreshold?: number;
  /** The limits on what reaches the model; the tools' defaults when absent. */
  readFileMaxLines?: number;
  toolResultMaxChars?: number;
  outputMaxChars?: number;
  /** How long a request waits for the reply to begin, and for each next event of it (seconds). */
  firstReplyTimeout: number;
  idleTimeout: number;
  /** How much of one reply is read. */
  replyLimits: ReplyLimits;
  /** --allow-private-urls: the browser may open loopback and private addresses unasked. */
  allowPrivateUrls?: boolean;
  /** --no-redact: tool results keep credentials of known shapes and secret-named variables' values (never the API key). */
  noRedact?: boolean;
  /** --no-index: no codebase index, so no codebase_search. */
  noIndex?: boolean;
  /** Where workspaces' codebase indexes are saved, one folder each (~/.kilocode/kiln/index, or KILN_INDEX_DIR). */
  indexDir: string;
  /** --index-postgres URL (or KILN_INDEX_POSTGRES): the team's index on a PostgreSQL server instead of one on this machine. */
  indexPostgres?: string;
  /** --embedder KIND, --embedder-model M, --embedder-base-url URL: vectors for codebase_search (the key from the environment). */
  embedder?: { kind: string; model?: string; baseUrl?: string; apiKey?: string; region?: string };
  /** index: --status (say what is saved, change nothing) or --rebuild (index from nothing). */
  indexAction?: "status" | "rebuild";
  /** The global rules folder (rules-<mode> folders beside it); ~/.kilocode/rules when absent. */
  globalRules?: string;
  /** A global MCP config file beside the workspace's .kilocode/mcp.json. */
  mcpConfig?: string;
  /** --trust-project-mcp: the workspace's .kilocode/mcp.json servers start unasked, for this run only. */
  trustProjectMcp?: boolean;
  /** Where a yes to a project MCP server is kept (~/.kilocode/kiln/mcp-approvals.json). */
  mcpApprovals: string;
  /** The global custom modes file (~/.kilocode/kiln/custom_modes.yaml), where `kiln import` puts modes. */
  globalModesFile: string;
  /** The global MCP file used without --mcp-config (~/.kilocode/kiln/mcp_settings.json), where `kiln import` puts servers. */
  globalMcpFile: string;
  /** import: --from, the agent whose data is brought over. */
  importFrom?: SourceKind;
  /** import: --path, that agent's global storage folder (else found for a local VS Code). */
  importPath?: string;
  /** import: --settings, a settings export (Roo, Kilo, Zoo) whose provider profiles go into the config file. */
  importSettings?: string;
  /** import: --dry-run, say what would be imported and write nothing. */
  dryRun?: boolean;
}

/** The user's home folder, as the environment gives it (tests give a temp one). */
export function homeOf(env: Record<string, string | undefined>): string {
  return env.HOME || env.USERPROFILE || homedir();
}

export class UsageError extends Error {}

/** The words of --approve (and a config file's approve): none, all, or a list; else what is wrong. */
export function approveWords(value: string): { words: ApproveWord[] } | { problem: string } {
  if (value === "none") return { words: [] };
  if (value === "all") return { words: [...APPROVE_WORDS] };
  const words = value.split(",").map((g) => g.trim());
  const unknown = words.find((w) => !isApproveWord(w));
  if (unknown !== undefined) return { problem: `unknown group "${unknown}" (use none, all, or ${APPROVE_WORDS.join(",")})` };
  return { words: words as ApproveWord[] };
}

function parseApprove(value: string): ApproveWord[] {
  const parsed = approveWords(value);
  if ("problem" in parsed) throw new UsageError(`--approve: ${parsed.problem}`);
  return parsed.words;
}

function parseLimit(flag: string, raw: string, bounds: LimitBounds): number {
  const n = Number(raw);
  if (raw.trim() === "" || !withinBounds(n, bounds)) throw new UsageError(`${flag} must be a whole number from ${bounds.min} to ${bounds.max} (got "${raw}")`);
  return n;
}

/** The flags of the provider settings only some providers have (Bedrock, Vertex, Azure). */
const PROVIDER_OPTION_FLAGS = {
  "--region": "region",
  "--aws-profile": "awsProfile",
  "--project": "project",
  "--key-file": "keyFile",
  "--api-version": "apiVersion",
} as const satisfies Record<string, ProviderOption>;

/** The flags alone, as the CLI runs without a config file. */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): CliArgs {
  const args = parseFlags(argv, env, cwd);
  settleApprovals(args);
  return args;
}

/**
 * Makes autoApprove from the approval flags and a config file's: the flags' words and allow list win
 * over the file's; deny lists add up, as a deny only ever makes a command ask.
 */
export function settleApprovals(args: CliArgs, file: { words?: readonly ApproveWord[]; allowed?: readonly string[]; denied?: readonly string[] } = {}): void {
  const { approval } = args;
  const words = approval.words ?? file.words ?? [];
  if ((approval.allowed.length || approval.denied.length) && !words.includes("command")) throw new UsageError("--allow-command and --deny-command need command in --approve");
  const allowed = approval.allowed.length ? approval.allowed : (file.allowed ?? []);
  const denied = [...new Set([...(file.denied ?? []), ...approval.denied])];
  // Without a list, --approve command keeps meaning any command; the deny list, $(…) and destructive commands still ask.
  args.autoApprove = settingsFromWords([...words], { allowed: allowed.length ? [...allowed] : ["*"], denied, maxRequests: approval.maxApprovals });
}

/**
 * Parses argv by hand (a dozen flags do not justify a dependency), leaving autoApprove to
 * settleApprovals: a config file may give the --approve words that the command lists need.
 */
export function parseFlags(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): CliArgs {
  const [command, ...rest] = argv;
  if (
    command !== "run" &&
    command !== "chat" &&
    command !== "resume" &&
    command !== "history" &&
    command !== "restore-checkpoint" &&
    command !== "models" &&
    command !== "index" &&
    command !== "import"
  ) {
    throw new UsageError(command ? `unknown command "${command}"` : "");
  }
  const args: CliArgs = {
    command,
    given: {},
    explicit: new Set(),
    approval: { allowed: [], denied: [], maxApprovals: 0 },
    settings: { kind: (env.KILN_PROVIDER as ProviderKind | undefined) ?? "anthropic", baseUrl: env.KILN_BASE_URL ?? "", model: env.KILN_MODEL ?? "" },
    json: false,
    workspace: cwd,
    mode: "code",
    protocol: "xml",
    autoApprove: settingsFromWords([]),
    maxRequests: 50,
    retries: 3,
    firstReplyTimeout: FIRST_REPLY_TIMEOUT_SECONDS.default,
    idleTimeout: IDLE_TIMEOUT_SECONDS.default,
    replyLimits: { maxReplyChars: REPLY_MAX_CHARS.default, maxToolArgChars: TOOL_ARG_MAX_CHARS.default, maxToolCalls: MAX_TOOL_CALLS.default },
    ...defaultContextArgs(),
    cacheDir: env.KILN_CACHE_DIR || join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln", "cache"),
    historyDir: env.KILN_HISTORY_DIR || join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln", "tasks"),
    mcpApprovals: join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln", "mcp-approvals.json"),
    indexDir: env.KILN_INDEX_DIR || join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln", "index"),
    ...(env.KILN_INDEX_POSTGRES && { indexPostgres: env.KILN_INDEX_POSTGRES }),
    checkpointDir: env.KILN_CHECKPOINT_DIR || join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln"),
    globalModesFile: join(homeOf(env), ".kilocode", "kiln", "custom_modes.yaml"),
    globalMcpFile: join(homeOf(env), ".kilocode", "kiln", "mcp_settings.json"),
  };
  if (env.KILN_PROVIDER) args.explicit.add("kind");
  if (env.KILN_BASE_URL) args.explicit.add("baseUrl");
  if (env.KILN_MODEL) args.explicit.add("model");
  const words: string[] = [];
  let sandboxNetwork = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const next = rest[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case "--provider":
        args.settings.kind = value() as ProviderKind;
        args.given.kind = true;
        args.explicit.add("kind");
        break;
      case "--base-url":
        args.settings.baseUrl = value();
        args.given.baseUrl = true;
        args.explicit.add("baseUrl");
        break;
      case "--model":
        args.settings.model = value();
        args.given.model = true;
        args.explicit.add("model");
        break;
      case "--profile": {
        const name = value().trim();
        if (!name) throw new UsageError("--profile needs a profile's name");
        args.profile = name;
        break;
      }
      case "--region":
      case "--aws-profile":
      case "--project":
      case "--key-file":
      case "--api-version":
        args.settings[PROVIDER_OPTION_FLAGS[arg]] = value();
        args.explicit.add(PROVIDER_OPTION_FLAGS[arg]);
        break;
      case "--reasoning": {
        const effort = value();
        if (!isReasoningEffort(effort)) throw new UsageError(`--reasoning must be ${REASONING_EFFORTS.join(", ")} (got "${effort}")`);
        args.settings.reasoningEffort = effort;
        args.explicit.add("reasoning");
        break;
      }
      case "--thinking-budget": {
        const raw = value();
        const budget = Number(raw);
        if (raw.trim() === "" || !isThinkingBudget(budget)) throw new UsageError(`--thinking-budget must be a whole number from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max} (got "${raw}")`);
        args.settings.thinkingBudget = budget;
        args.explicit.add("reasoning");
        break;
      }
      case "--refresh":
        args.refresh = true;
        break;
      case "--workspace":
        args.workspace = value();
        args.workspaceGiven = true;
        break;
      case "--api-key-env":
        args.apiKeyEnv = value();
        args.explicit.add("apiKeyEnv");
        break;
      case "--mode":
        args.mode = value();
        args.explicit.add("mode");
        break;
      case "--protocol": {
        const protocol = value();
        if (protocol !== "xml" && protocol !== "native" && protocol !== "auto") throw new UsageError(`--protocol must be xml, native or auto (got "${protocol}")`);
        args.protocol = protocol;
        args.explicit.add("protocol");
        break;
      }
      case "--approve":
        args.approval.words = parseApprove(value());
        break;
      case "--allow-command":
      case "--deny-command": {
        const prefix = value().trim();
        if (!prefix) throw new UsageError(`${arg} needs a command prefix`);
        (arg === "--allow-command" ? args.approval.allowed : args.approval.denied).push(prefix);
        break;
      }
      case "--max-approvals": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0) throw new UsageError("--max-approvals must be a whole number (0: no limit)");
        args.approval.maxApprovals = n;
        break;
      }
      case "--max-requests": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError("--max-requests must be a whole number of at least 1");
        args.maxRequests = n;
        args.explicit.add("maxRequests");
        break;
      }
      case "--retries": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 10) throw new UsageError("--retries must be a whole number from 0 to 10");
        args.retries = n;
        args.explicit.add("retries");
        break;
      }
      case "--fuzzy-threshold": {
        const x = Number(value());
        if (!Number.isFinite(x) || x < 0.8 || x > 1) throw new UsageError("--fuzzy-threshold must be a number from 0.8 to 1");
        args.fuzzyThreshold = x;
        break;
      }
      case "--read-max-lines":
        args.readFileMaxLines = parseLimit(arg, value(), READ_FILE_MAX_LINES);
        break;
      case "--result-max-chars":
        args.toolResultMaxChars = parseLimit(arg, value(), TOOL_RESULT_MAX_CHARS);
        break;
      case "--output-max-chars":
        args.outputMaxChars = parseLimit(arg, value(), OUTPUT_MAX_CHARS);
        break;
      case "--first-reply-timeout":
        args.firstReplyTimeout = parseLimit(arg, value(), FIRST_REPLY_TIMEOUT_SECONDS);
        break;
      case "--idle-timeout":
        args.idleTimeout = parseLimit(arg, value(), IDLE_TIMEOUT_SECONDS);
        break;
      case "--reply-max-chars":
        args.replyLimits.maxReplyChars = parseLimit(arg, value(), REPLY_MAX_CHARS);
        break;
      case "--tool-arg-max-chars":
        args.replyLimits.maxToolArgChars = parseLimit(arg, value(), TOOL_ARG_MAX_CHARS);
        break;
      case "--max-tool-calls":
        args.replyLimits.maxToolCalls = parseLimit(arg, value(), MAX_TOOL_CALLS);
        break;
      case "--allow-private-urls":
        args.allowPrivateUrls = true;
        break;
      case "--sandbox":
        args.sandbox = { network: false };
        break;
      case "--sandbox-network":
        sandboxNetwork = true;
        break;
      case "--no-redact":
        args.noRedact = true;
        break;
      case "--no-index":
        args.noIndex = true;
        break;
      case "--index-dir":
        args.indexDir = value();
        break;
      case "--index-postgres":
        args.indexPostgres = value();
        break;
      case "--embedder":
        args.embedder = { ...args.embedder, kind: value() };
        break;
      case "--embedder-model":
        args.embedder = { kind: "", ...args.embedder, model: value() };
        break;
      case "--embedder-base-url":
        args.embedder = { kind: "", ...args.embedder, baseUrl: value() };
        break;
      case "--embedder-region":
        args.embedder = { kind: "", ...args.embedder, region: value() };
        break;
      case "--status":
      case "--rebuild": {
        const action = arg === "--status" ? "status" : "rebuild";
        if (args.indexAction && args.indexAction !== action) throw new UsageError("give --status or --rebuild, not both");
        args.indexAction = action;
        break;
      }
      case "--mcp-config":
        args.mcpConfig = value();
        break;
      case "--trust-project-mcp":
        args.trustProjectMcp = true;
        break;
      case "--global-rules":
        args.globalRules = value();
        break;
      case "--json":
        args.json = true;
        break;
      case "--from": {
        const from = value();
        if (!isSourceKind(from)) throw new UsageError(`--from must be ${SOURCE_KINDS.join(", ")} (got "${from}")`);
        args.importFrom = from;
        break;
      }
      case "--path":
        args.importPath = value();
        break;
      case "--settings":
        args.importSettings = value();
        break;
      case "--dry-run":
        args.dryRun = true;
        break;
      case "--history-dir":
        args.historyDir = value();
        break;
      case "--no-history":
        args.historyDir = undefined;
        break;
      case "--checkpoint-dir":
        args.checkpointDir = value();
        break;
      case "--no-checkpoints":
        args.checkpointDir = undefined;
        break;
      case "--help":
      case "-h":
        throw new UsageError("");
      default:
        if (isContextFlag(arg)) {
          const problem = applyContextFlag(arg, value(), args);
          if (problem) throw new UsageError(problem);
          if (arg === "--model-info") args.explicit.add("modelInfo");
          break;
        }
        if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
        words.push(arg);
    }
  }
  if (!isProviderKind(args.settings.kind)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(", ")} (got "${args.settings.kind}")`);
  }
  if (args.settings.reasoningEffort && args.settings.thinkingBudget !== undefined) throw new UsageError("give --reasoning or --thinking-budget, not both");
  if (command === "restore-checkpoint") {
    args.commit = words.shift();
    if (!args.commit || !/^[0-9a-f]{7,64}$/.test(args.commit)) throw new UsageError("restore-checkpoint needs a checkpoint's commit (kiln run prints them)");
    if (!args.checkpointDir) throw new UsageError("restore-checkpoint reads the checkpoints: drop --no-checkpoints");
  }
  if (command === "resume") {
    args.resumeId = words.shift();
    if (!args.resumeId || !/^[A-Za-z0-9_-]{1,80}$/.test(args.resumeId)) throw new UsageError("resume needs the id of a saved task (kiln history lists them)");
    if (!args.historyDir) throw new UsageError("resume reads the task history: drop --no-history");
  }
  if (args.indexAction && command !== "index") throw new UsageError(`--${args.indexAction} is for kiln index`);
  if (command === "index" && args.noIndex) throw new UsageError("kiln index builds the index: drop --no-index");
  if (args.embedder && args.embedder.kind === "") throw new UsageError(`--embedder-model, --embedder-base-url and --embedder-region need --embedder ${EMBEDDER_KINDS.join("|")}`);
  if (args.embedder && args.noIndex) throw new UsageError("--embedder gives the codebase index vectors: drop --no-index");
  if (args.indexPostgres !== undefined && args.noIndex) throw new UsageError("--index-postgres names where the codebase index is: drop --no-index");
  if (args.profile !== undefined && (command === "history" || command === "restore-checkpoint" || command === "index" || command === "import"))
    throw new UsageError("--profile is for run, chat, resume and models");
  if (command !== "import" && (args.importFrom || args.importPath !== undefined || args.importSettings !== undefined || args.dryRun))
    throw new UsageError("--from, --path, --settings and --dry-run are for kiln import");
  if (command === "import") {
    if (!args.importFrom) throw new UsageError(`kiln import needs --from ${SOURCE_KINDS.join("|")}`);
    if (args.importSettings !== undefined && !hasSettingsExport(args.importFrom)) {
      throw new UsageError(`--settings reads a settings export of ${SETTINGS_EXPORT_SOURCES.join(", ")}; ${args.importFrom} writes none`);
    }
    if (!args.historyDir) throw new UsageError("kiln import saves tasks to the history: drop --no-history");
    if (words.length > 0) throw new UsageError(`kiln import takes no text ("${words.join(" ")}"); --path DIR names the source's folder`);
  }
  if (command === "index" && words.length > 0) throw new UsageError(`kiln index takes no text ("${words.join(" ")}"); --workspace DIR names the folder`);
  if (words.length > 0) args.prompt = words.join(" ");
  if (sandboxNetwork && !args.sandbox) throw new UsageError("--sandbox-network needs --sandbox");
  if (args.sandbox) args.sandbox.network = sandboxNetwork;
  return args;
}
