import { PROVIDER_KINDS, type ProviderKind, type ProviderSettings } from "../../core/llm/types";

export interface CliArgs {
  settings: ProviderSettings;
  prompt: string;
  json: boolean;
}

export const USAGE = `Usage: kiln [--provider anthropic|openai|openai-compatible] [--base-url URL] [--model ID] [--json] "prompt"
The API key comes from ANTHROPIC_API_KEY, OPENAI_API_KEY or KILN_API_KEY (openai-compatible).
Without "prompt", the prompt is read from standard input.`;

export class UsageError extends Error {}

/** Parses argv by hand: four flags do not justify a dependency. */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined>): Omit<CliArgs, "prompt"> & { prompt?: string } {
  const settings: ProviderSettings = {
    kind: (env.KILN_PROVIDER as ProviderKind | undefined) ?? "anthropic",
    baseUrl: env.KILN_BASE_URL ?? "",
    model: env.KILN_MODEL ?? "",
  };
  let json = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--provider") settings.kind = value() as ProviderKind;
    else if (arg === "--base-url") settings.baseUrl = value();
    else if (arg === "--model") settings.model = value();
    else if (arg === "--json") json = true;
    else if (arg === "--help" || arg === "-h") throw new UsageError("");
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else rest.push(arg);
  }
  if (!PROVIDER_KINDS.includes(settings.kind)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(", ")} (got "${settings.kind}")`);
  }
  return { settings, json, prompt: rest.length > 0 ? rest.join(" ") : undefined };
}
