import * as vscode from "vscode";
import { ProviderError } from "../../../core/llm/errors";
import { apiKeyFromEnv } from "../../../core/llm/keys";
import { FIRST_REPLY_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS, type StreamTimeouts } from "../../../core/llm/requestWatch";
import { apiKeySecretName, PROVIDER_KINDS, type ProviderConfig, type ProviderKind, type ProviderSettings } from "../../../core/llm/types";
import { secretNameOf, type LegacySettings, type Profile } from "./profiles";

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

/** kiln.provider.firstReplyTimeoutSeconds and idleTimeoutSeconds; a value out of bounds is the default. */
export function readStreamTimeouts(): StreamTimeouts {
  const config = vscode.workspace.getConfiguration("kiln.provider");
  const seconds = (key: string, bounds: { min: number; max: number; default: number }) => {
    const value = config.get<unknown>(key, bounds.default);
    return typeof value === "number" && Number.isInteger(value) && value >= bounds.min && value <= bounds.max ? value : bounds.default;
  };
  return { firstReplyMs: seconds("firstReplyTimeoutSeconds", FIRST_REPLY_TIMEOUT_SECONDS) * 1000, idleMs: seconds("idleTimeoutSeconds", IDLE_TIMEOUT_SECONDS) * 1000 };
}

/** Settings plus the key: SecretStorage first, then the provider's usual environment variable. */
export async function resolveProviderConfig(secrets: vscode.SecretStorage): Promise<ProviderConfig> {
  const settings = readProviderSettings();
  const stored = await secrets.get(apiKeySecretName(settings.kind));
  return { ...settings, apiKey: stored || apiKeyFromEnv(settings.kind, process.env), timeouts: readStreamTimeouts() };
}

/** The `kiln.provider.*` values behind the "default" profile, unchecked (profiles.ts checks them). */
export function readLegacySettings(): LegacySettings {
  const config = vscode.workspace.getConfiguration("kiln.provider");
  return {
    kind: config.get<unknown>("kind", "anthropic"),
    baseUrl: config.get<unknown>("baseUrl", ""),
    model: config.get<unknown>("model", ""),
    protocol: config.get<unknown>("protocol", "xml"),
    modelInfo: config.get<unknown>("modelInfo"),
  };
}

/**
 * A profile plus its key: the profile's SecretStorage entry, then the kind's environment variable.
 * A named profile never borrows the default profile's key: it may point at another endpoint.
 */
export async function resolveProfileConfig(secrets: vscode.SecretStorage, profile: Profile): Promise<ProviderConfig> {
  const stored = await secrets.get(secretNameOf(profile));
  return { kind: profile.kind, baseUrl: profile.baseUrl, model: profile.model, apiKey: stored || apiKeyFromEnv(profile.kind, process.env), timeouts: readStreamTimeouts() };
}
