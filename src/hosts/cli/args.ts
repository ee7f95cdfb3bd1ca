import { PROVIDER_KINDS, type ProviderKind, type ProviderSettings } from "../../core/llm/types";
import type { ApprovalCategory, ToolGroup } from "../../core/tools/defineTool";
import type { ToolProtocolSetting } from "../../core/prompts/system";

export interface CliArgs {
  command: "run" | "chat";
  settings: ProviderSettings;
  prompt?: string;
  json: boolean;
  workspace: string;
  apiKeyEnv?: string;
  mode: string;
  protocol: ToolProtocolSetting;
  approve: Set<ToolGroup>;
  /** Categories auto-approved on their own (deleting files), apart from the groups. */
  approveCategories: Set<ApprovalCategory>;
  maxRequests: number;
  retries: number;
  fuzzyThreshold?: number;
}

export const USAGE = `Usage:
  kiln run [options] "task"    run the agent with tools on a workspace
  kiln chat [options] "prompt" one streamed reply, no tools
Options:
  --workspace DIR              workspace folder (default: current folder)
  --provider KIND              anthropic | openai | openai-compatible (default anthropic)
  --base-url URL  --model ID
  --api-key-env NAME           read the API key from this variable (default ANTHROPIC_API_KEY,
                               OPENAI_API_KEY or KILN_API_KEY by provider); never from argv
  --mode SLUG                  code | architect | ask | debug | orchestrator (default code)
  --protocol xml|native|auto   how tools are called (default xml; auto: native, XML if the endpoint
                               rejects tools or the model writes XML)
  --approve none|read|all|GROUPS  what runs without asking (groups: read,edit,command,browser,mcp;
                               add delete to let delete_file run too: edit alone does not; all does)
  --max-requests N             stop after N model requests (default 50)
  --retries N                  automatic retries of a failed request (default 3; Retry-After honoured)
  --fuzzy-threshold X          apply_diff similarity from 0.8 to 1 (default 1: exact apart from whitespace)
  --json                       one JSON event per line on stdout
Without "task", it is read from standard input. Exit: 0 completed, 1 error, 2 usage, 3 stopped.`;

export class UsageError extends Error {}

const GROUPS: readonly ToolGroup[] = ["read", "edit", "command", "browser", "mcp"];

const CATEGORIES: readonly ApprovalCategory[] = ["delete"];

function parseApprove(value: string): { groups: Set<ToolGroup>; categories: Set<ApprovalCategory> } {
  if (value === "none") return { groups: new Set(), categories: new Set() };
  if (value === "all") return { groups: new Set(GROUPS), categories: new Set(CATEGORIES) };
  const words = value.split(",").map((g) => g.trim());
  for (const w of words) {
    if (!GROUPS.includes(w as ToolGroup) && !CATEGORIES.includes(w as ApprovalCategory)) {
      throw new UsageError(`--approve: unknown group "${w}" (use none, all, or ${[...GROUPS, ...CATEGORIES].join(",")})`);
    }
  }
  return {
    groups: new Set(words.filter((w): w is ToolGroup => GROUPS.includes(w as ToolGroup))),
    categories: new Set(words.filter((w): w is ApprovalCategory => CATEGORIES.includes(w as ApprovalCategory))),
  };
}

/** Parses argv by hand: a dozen flags do not justify a dependency. */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): CliArgs {
  const [command, ...rest] = argv;
  if (command !== "run" && command !== "chat") throw new UsageError(command ? `unknown command "${command}"` : "");
  const args: CliArgs = {
    command,
    settings: { kind: (env.KILN_PROVIDER as ProviderKind | undefined) ?? "anthropic", baseUrl: env.KILN_BASE_URL ?? "", model: env.KILN_MODEL ?? "" },
    json: false,
    workspace: cwd,
    mode: "code",
    protocol: "xml",
    approve: new Set(),
    approveCategories: new Set(),
    maxRequests: 50,
    retries: 3,
  };
  const words: string[] = [];
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
        break;
      case "--base-url":
        args.settings.baseUrl = value();
        break;
      case "--model":
        args.settings.model = value();
        break;
      case "--workspace":
        args.workspace = value();
        break;
      case "--api-key-env":
        args.apiKeyEnv = value();
        break;
      case "--mode":
        args.mode = value();
        break;
      case "--protocol": {
        const protocol = value();
        if (protocol !== "xml" && protocol !== "native" && protocol !== "auto") throw new UsageError(`--protocol must be xml, native or auto (got "${protocol}")`);
        args.protocol = protocol;
        break;
      }
      case "--approve": {
        const approve = parseApprove(value());
        args.approve = approve.groups;
        args.approveCategories = approve.categories;
        break;
      }
      case "--max-requests": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new UsageError("--max-requests must be a whole number of at least 1");
        args.maxRequests = n;
        break;
      }
      case "--retries": {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 10) throw new UsageError("--retries must be a whole number from 0 to 10");
        args.retries = n;
        break;
      }
      case "--fuzzy-threshold": {
        const x = Number(value());
        if (!Number.isFinite(x) || x < 0.8 || x > 1) throw new UsageError("--fuzzy-threshold must be a number from 0.8 to 1");
        args.fuzzyThreshold = x;
        break;
      }
      case "--json":
        args.json = true;
        break;
      case "--help":
      case "-h":
        throw new UsageError("");
      default:
        if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
        words.push(arg);
    }
  }
  if (!PROVIDER_KINDS.includes(args.settings.kind)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(", ")} (got "${args.settings.kind}")`);
  }
  if (words.length > 0) args.prompt = words.join(" ");
  return args;
}
