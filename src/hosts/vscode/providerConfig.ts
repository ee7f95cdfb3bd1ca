import * as vscode from "vscode";
import { ProviderError } from "../../core/llm/errors";
import { apiKeyFromEnv } from "../../core/llm/keys";
import { apiKeySecretName, PROVIDER_KINDS, type ProviderConfig, type ProviderKind, type ProviderSettings } from "../../core/llm/types";

export function readProviderSettings(): ProviderSettings {
  const config = vscode.workspace.getConfiguration("kiln.provider");
  const kind = config.get<string>("kind", "anthropic");
  if (!PROVIDER_KINDS.includes(kind as ProviderKind)) {
    throw new ProviderError("config", `kiln.provider.kind is "${kind}"; it must be one of ${PROVIDER_KINDS.join(", ")}.`);
  }
  const text = (key: string) => {
    const value = config.get<unknown>(key, "");
    return typeof value === "string" ? value : "";
  };
  return { kind: kind as ProviderKind, baseUrl: text("baseUrl"), model: text("model") };
}

/** Settings plus the key: SecretStorage first, then the provider's usual environment variable. */
export async function resolveProviderConfig(secrets: vscode.SecretStorage): Promise<ProviderConfig> {
  const settings = readProviderSettings();
  const stored = await secrets.get(apiKeySecretName(settings.kind));
  return { ...settings, apiKey: stored || apiKeyFromEnv(settings.kind, process.env) };
}
