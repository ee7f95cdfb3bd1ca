import { PROVIDER_ENTRIES, providerEntry, type ProviderKind } from "../../shared/providerCatalog";

/**
 * Environment variables users already have set for these APIs; read, never written anywhere.
 * Bedrock and Vertex have none: their credentials come from the AWS chain and Google's ADC.
 */
export const API_KEY_ENV = Object.fromEntries(PROVIDER_ENTRIES.filter((e) => e.keyEnv).map((e) => [e.kind, e.keyEnv])) as Partial<Record<ProviderKind, string>>;

/** Other names the same key is commonly kept under. */
const KEY_ENV_ALIASES: Partial<Record<ProviderKind, string[]>> = { gemini: ["GOOGLE_API_KEY"] };

/** The variables a kind's key is read from, in order. */
export function keyEnvNames(kind: ProviderKind): string[] {
  const main = providerEntry(kind).keyEnv;
  return [...(main ? [main] : []), ...(KEY_ENV_ALIASES[kind] ?? [])];
}

/** Every variable Kiln reads a key from: the CLI takes them all out of its environment. */
/** The codebase index's embedder's key (src/core/codeIndex/embedder.ts), for the CLI. */
export const EMBEDDER_KEY_ENV = "KILN_EMBEDDER_API_KEY";

export const ALL_KEY_ENVS: readonly string[] = [...new Set([...PROVIDER_ENTRIES.flatMap((e) => keyEnvNames(e.kind)), EMBEDDER_KEY_ENV])];

export function apiKeyFromEnv(kind: ProviderKind, env: Record<string, string | undefined>): string | undefined {
  for (const name of keyEnvNames(kind)) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
