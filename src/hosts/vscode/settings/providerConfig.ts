import * as vscode from "vscode";
import { ProviderError } from "../../../core/llm/errors";
import { apiKeyFromEnv } from "../../../core/llm/keys";
import type { Logger } from "../../../core/ports";
import type { StreamTimeouts } from "../../../core/llm/requestWatch";
import { apiKeySecretName, PROVIDER_KINDS, type ProviderConfig, type ProviderKind, type ProviderSettings } from "../../../core/llm/types";
import { reasoningOf } from "../../../shared/reasoning";
import { KILN, rawSetting, readSetting } from "./kilnSettings";
import { providerOptionsOf, secretNameOf, type LegacySettings, type Profile } from "./profiles";

/** The default profile's provider; a wrong kind is an error the chat shows, since no default would do. */
export function readProviderSettings(): ProviderSettings {
  const { provider } = KILN;
  const kind = rawSetting(provider.kind);
  if (!PROVIDER_KINDS.includes(kind as ProviderKind)) {
    throw new ProviderError("config", `kiln.provider.kind is "${String(kind)}"; it must be one of ${PROVIDER_KINDS.join(", ")}.`);
  }
  return { kind: kind as ProviderKind, baseUrl: readSetting(provider.baseUrl), model: readSetting(provider.model) };
}

/** kiln.provider.firstReplyTimeoutSeconds and idleTimeoutSeconds; a value out of bounds is the default. */
export function readStreamTimeouts(logger?: Logger): StreamTimeouts {
  const { provider } = KILN;
  return { firstReplyMs: readSetting(provider.firstReplyTimeoutSeconds, logger) * 1000, idleMs: readSetting(provider.idleTimeoutSeconds, logger) * 1000 };
}

/** Settings plus the key: SecretStorage first, then the provider's usual environment variable. */
export async function resolveProviderConfig(secrets: vscode.SecretStorage, logger?: Logger): Promise<ProviderConfig> {
  const settings = readProviderSettings();
  const stored = await secrets.get(apiKeySecretName(settings.kind));
  return { ...settings, apiKey: stored || apiKeyFromEnv(settings.kind, process.env), timeouts: readStreamTimeouts(logger) };
}

/** The `kiln.provider.*` values behind the "default" profile, unchecked (profiles.ts checks them). */
export function readLegacySettings(): LegacySettings {
  const { provider } = KILN;
  return {
    kind: rawSetting(provider.kind),
    baseUrl: rawSetting(provider.baseUrl),
    model: rawSetting(provider.model),
    protocol: rawSetting(provider.protocol),
    modelInfo: rawSetting(provider.modelInfo),
    region: rawSetting(provider.region),
    awsProfile: rawSetting(provider.awsProfile),
    project: rawSetting(provider.project),
    keyFile: rawSetting(provider.keyFile),
    apiVersion: rawSetting(provider.apiVersion),
    reasoningEffort: rawSetting(provider.reasoningEffort),
    thinkingBudget: rawSetting(provider.thinkingBudget),
  };
}

/**
 * A profile plus its key: the profile's SecretStorage entry, then the kind's environment variable.
 * A named profile never borrows the default profile's key: it may point at another endpoint.
 */
export async function resolveProfileConfig(secrets: vscode.SecretStorage, profile: Profile, logger?: Logger): Promise<ProviderConfig> {
  const stored = await secrets.get(secretNameOf(profile));
  return {
    kind: profile.kind,
    baseUrl: profile.baseUrl,
    model: profile.model,
    ...providerOptionsOf(profile),
    ...reasoningOf(profile),
    apiKey: stored || apiKeyFromEnv(profile.kind, process.env),
    timeouts: readStreamTimeouts(logger),
  };
}
