import type { ProviderKind } from "./types";

/** Environment variables users already have set for these APIs; read, never written anywhere. */
export const API_KEY_ENV: Record<ProviderKind, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-compatible": "KILN_API_KEY",
};

export function apiKeyFromEnv(kind: ProviderKind, env: Record<string, string | undefined>): string | undefined {
  const value = env[API_KEY_ENV[kind]]?.trim();
  return value ? value : undefined;
}
