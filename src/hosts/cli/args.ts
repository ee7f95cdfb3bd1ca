import { homedir } from "node:os";
import { join } from "node:path";
import { isProviderKind, PROVIDER_KINDS, type ProviderKind, type ProviderSettings } from "../../core/llm/types";
import type { ProviderOption } from "../../shared/providerCatalog";
import { isReasoningEffort, isThinkingBudget, REASONING_EFFORTS, THINKING_BUDGET } from "../../shared/reasoning";
import { APPROVE_WORDS, isApproveWord, settingsFromWords, type ApproveWord, type AutoApproveSettings } from "../../core/approval/settings";
import type { ToolProtocolSetting } from "../../core/prompts/system";
import { OUTPUT_MAX_CHARS, READ_FILE_MAX_LINES, TOOL_RESULT_MAX_CHARS, withinBounds, type LimitBounds } from "../../shared/limits";
import { MAX_TOOL_CALLS, REPLY_MAX_CHARS, TOOL_ARG_MAX_CHARS, type ReplyLimits } from "../../core/agent/replyLimits";
import { FIRST_REPLY_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS } from "../../core/llm/requestWatch";
import { applyContextFlag, CONTEXT_USAGE, defaultContextArgs, isContextFlag, type ContextArgs } from "./contextArgs";

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
  command: "run" | "chat" | "resume" | "history" | "restore-checkpoint" | "models" | "index";
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
}

export const USAGE = `Usage:
  kiln run [options] "task"    run the agent with tools on a workspace
  kiln chat [options] "prompt" one streamed reply, no tools
  kiln history [--json]        list saved tasks, newest first
  kiln models [--provider P | --profile NAME] [--base-url URL] [--json] [--refresh]
                               the provider's models with window, output limit, prices per
                               million tokens (in/out), tools and vision; cached for a day
  kiln resume ID ["message"]   go on with a saved task (after a stop, a crash or Ctrl+C), in its
                               folder and mode; the message answers its question or adds to it
  kiln index [--workspace DIR] [--status | --rebuild] [--json]
                               build or update the workspace's codebase index (what
                               codebase_search ranks), saved in --index-dir; --status says what
                               is saved and changes nothing, --rebuild indexes from nothing
  kiln restore-checkpoint COMMIT [--workspace DIR]
                               put the workspace's files back as they were at a checkpoint
                               (run and resume print one before each reply's edits)
Options:
  --workspace DIR              workspace folder (default: current folder)
  --profile NAME               run, chat, resume, models: the provider settings of a profile in
                               ~/.kilocode/kiln/config.json (or KILN_CONFIG's file) or the workspace's
                               .kilocode/kiln.json; its defaults.profile without it. Flags and
                               KILN_PROVIDER, KILN_BASE_URL, KILN_MODEL win over the file
  --provider KIND              anthropic | openai | openai-compatible | openrouter | gemini | bedrock |
                               vertex | azure | ollama | lmstudio, or a preset: deepseek | mistral |
                               xai | groq | cerebras | fireworks | together | moonshot | qwen | zai
                               (default anthropic)
  --base-url URL  --model ID   the endpoint (any provider; presets and local servers have one) and model
  --region R  --aws-profile P  Bedrock: the AWS region and named profile (default: the AWS chain)
  --project ID  --key-file F   Vertex: the Google Cloud project and a service account key file
  --api-version V              Azure OpenAI: the API version
  --reasoning low|medium|high  how hard a reasoning model thinks (OpenAI's effort, Gemini's level;
                               a budget of 2k/8k/24k tokens for Claude)
  --thinking-budget N          or the tokens it may think in (${THINKING_BUDGET.min}-${THINKING_BUDGET.max}; an effort for
                               providers that take one). Default: the model's own
  --api-key-env NAME           read the API key from this variable (default: the provider's own,
                               e.g. ANTHROPIC_API_KEY, OPENROUTER_API_KEY, KILN_API_KEY for
                               openai-compatible); never from argv
  --mode SLUG                  code | architect | ask | debug | orchestrator (default code)
  --protocol xml|native|auto   how tools are called (default xml; auto: native, XML if the endpoint
                               rejects tools or the model writes XML)
  --approve none|read|all|WORDS  what runs without asking: read,edit,command,browser,mcp; delete
                               (edit alone does not delete); read-outside, write-outside and
                               write-protected (widen read and edit); mode, subtask, todo. all: every one
  --allow-command PREFIX       with command: only commands whose every part (a && b; c | d) starts
                               with one of these run unasked (repeatable; default: any command)
  --deny-command PREFIX        commands starting so always ask, which here means no (repeatable;
                               the longer matching prefix wins); $(…), backticks and destructive
                               commands always ask too
  --sandbox                    run commands in a sandbox (Linux, bubblewrap): the workspace writable,
                               the rest read-only, ~/.ssh, ~/.aws and other credentials hidden, no
                               network. Allowed commands then also run unasked when they redirect
                               to a file, use options like -e or -o, or name paths outside the
                               workspace. Where it cannot run, it says why and every command asks
  --sandbox-network            with --sandbox: commands may use the network
  --max-approvals N            after N auto-approved calls, every call asks (default: no limit)
  --max-requests N             stop after N model requests (default 50)
  --retries N                  automatic retries of a failed request (default 3; Retry-After honoured)
  --fuzzy-threshold X          apply_diff similarity from 0.8 to 1 (default 1: exact apart from whitespace)
  --read-max-lines N           lines read_file shows per file (${READ_FILE_MAX_LINES.min}-${READ_FILE_MAX_LINES.max}, default ${READ_FILE_MAX_LINES.default})
  --result-max-chars N         characters of a tool result sent to the model; the rest is saved
                               to a file (${TOOL_RESULT_MAX_CHARS.min}-${TOOL_RESULT_MAX_CHARS.max}, default ${TOOL_RESULT_MAX_CHARS.default})
  --output-max-chars N         characters of command output shown, as head and tail
                               (${OUTPUT_MAX_CHARS.min}-${OUTPUT_MAX_CHARS.max}, default ${OUTPUT_MAX_CHARS.default})
  --first-reply-timeout S      seconds to wait for a reply to begin before the request fails and is
                               retried (${FIRST_REPLY_TIMEOUT_SECONDS.min}-${FIRST_REPLY_TIMEOUT_SECONDS.max}, default ${FIRST_REPLY_TIMEOUT_SECONDS.default}; a slow local model may need more)
  --idle-timeout S             seconds a reply that has begun may go silent before the request fails
                               and is retried (${IDLE_TIMEOUT_SECONDS.min}-${IDLE_TIMEOUT_SECONDS.max}, default ${IDLE_TIMEOUT_SECONDS.default})
  --reply-max-chars N          characters of one reply that are read; past them the reply is stopped
                               and the model told (${REPLY_MAX_CHARS.min}-${REPLY_MAX_CHARS.max}, default ${REPLY_MAX_CHARS.default})
  --tool-arg-max-chars N       characters of one tool argument (an XML parameter, a native call's
                               JSON) (${TOOL_ARG_MAX_CHARS.min}-${TOOL_ARG_MAX_CHARS.max}, default ${TOOL_ARG_MAX_CHARS.default})
  --max-tool-calls N           tool calls read from one reply (${MAX_TOOL_CALLS.min}-${MAX_TOOL_CALLS.max}, default ${MAX_TOOL_CALLS.default})
  --allow-private-urls         browser_action may open localhost, 127.0.0.1 and private-network
                               addresses without asking (else opening one asks, and the page
                               may reach no other such address)
  --no-redact                  keep tokens, keys and passwords (known shapes, values of variables
                               named *TOKEN*, *KEY, *SECRET*, *PASSWORD*…) in tool results; by
                               default they reach the model and history as [redacted]. The API
                               key is redacted either way
  --no-index                   no codebase index: codebase_search is not offered (by default the
                               workspace is indexed on its first use, new and changed files after)
  --index-dir DIR              where codebase indexes are saved between runs, one folder per
                               workspace (default ~/.kilocode/kiln/index)
  --mcp-config FILE            global MCP servers (mcp_settings.json format) beside the workspace's
                               .kilocode/mcp.json, whose entries win
  --trust-project-mcp          start the servers of the workspace's .kilocode/mcp.json unasked, for
                               this run only (CI). Without it each asks once at a terminal (a yes
                               is kept in ~/.kilocode/kiln/mcp-approvals.json, asked again when its
                               entry changes); with no terminal they do not start
  --global-rules DIR           folder of global rules (default ~/.kilocode/rules; DIR-<mode> for a
                               mode's). Project rules: .kilocode/rules/, .kilocode/rules-<mode>/,
                               AGENTS.md, .clinerules, .kilocoderules, .roorules
${CONTEXT_USAGE}
  --json                       one JSON event per line on stdout
  --history-dir DIR            where tasks are saved as they run (default ~/.kilocode/kiln/tasks,
                               or KILN_HISTORY_DIR); --no-history saves nothing
  --checkpoint-dir DIR         where checkpoints are kept, in a git repository per workspace
                               apart from the workspace's own .git (default ~/.kilocode/kiln, or
                               KILN_CHECKPOINT_DIR); --no-checkpoints takes none
Without "task", it is read from standard input. Exit: 0 completed, 1 error, 2 usage, 3 stopped.`;

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
  if (command !== "run" && command !== "chat" && command !== "resume" && command !== "history" && command !== "restore-checkpoint" && command !== "models" && command !== "index") {
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
    checkpointDir: env.KILN_CHECKPOINT_DIR || join(env.HOME || env.USERPROFILE || homedir(), ".kilocode", "kiln"),
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
  if (args.profile !== undefined && (command === "history" || command === "restore-checkpoint" || command === "index")) throw new UsageError("--profile is for run, chat, resume and models");
  if (command === "index" && words.length > 0) throw new UsageError(`kiln index takes no text ("${words.join(" ")}"); --workspace DIR names the folder`);
  if (words.length > 0) args.prompt = words.join(" ");
  if (sandboxNetwork && !args.sandbox) throw new UsageError("--sandbox-network needs --sandbox");
  if (args.sandbox) args.sandbox.network = sandboxNetwork;
  return args;
}
