import * as l10n from "@vscode/l10n";
import { AnthropicProvider } from "./anthropic";
import { ProviderError } from "./errors";
import { LazyProvider } from "./lazyProvider";
import { OllamaProvider } from "./ollama";
import { OpenAiProvider } from "./openai";
import { registerSecret } from "./redact";
import { DEFAULT_STREAM_TIMEOUTS } from "./requestWatch";
import { providerEntry, type Provider, type ProviderConfig, type ResolvedProviderConfig } from "./types";

/** The settings with the catalog's defaults filled in, or exactly which setting is missing. */
export function resolveProviderConfig(config: ProviderConfig): ResolvedProviderConfig {
  const entry = providerEntry(config.kind);
  const model = config.model.trim() || entry.defaultModel;
  const given = config.baseUrl.trim();
  if (given && !/^https?:\/\/[^\s]+$/i.test(given)) {
    throw new ProviderError("config", l10n.t('The base URL "{0}" is not an http(s) URL. Fix kiln.provider.baseUrl in the settings.', given));
  }
  if (entry.needsBaseUrl && !given) {
    throw new ProviderError(
      "config",
      entry.family === "azure"
        ? l10n.t("Azure OpenAI needs the resource's endpoint as the base URL (https://NAME.openai.azure.com).")
        : l10n.t("The openai-compatible provider needs a base URL: set kiln.provider.baseUrl (e.g. http://localhost:11434/v1)."),
    );
  }
  if (!model) {
    throw new ProviderError(
      "config",
      entry.family === "azure"
        ? l10n.t("Azure OpenAI needs the deployment's name as the model.")
        : entry.kind === "openai-compatible"
          ? l10n.t("The openai-compatible provider needs a model id: set kiln.provider.model.")
          : l10n.t("{0} needs a model id: pick one from its list, or type the one the server uses.", entry.label),
    );
  }
  if (entry.needsKey && !config.apiKey) {
    throw new ProviderError("no_key", l10n.t('No {0} API key is set. Run "Kiln: Set API Key" (or set {1} in the environment) and retry.', entry.label, entry.keyEnv ?? "the key"));
  }
  const baseUrl = (given || entry.defaultBaseUrl || "").replace(/\/+$/, "");
  return { ...config, model, baseUrl, timeouts: config.timeouts ?? DEFAULT_STREAM_TIMEOUTS };
}

/** Builds the provider for the current settings, or says exactly which setting is missing. */
export function createProvider(config: ProviderConfig): Provider {
  // Every key in use passes here, whichever host read it: from now on it is cut out of what leaves Kiln.
  registerSecret(config.apiKey);
  const resolved = resolveProviderConfig(config);
  const entry = providerEntry(config.kind);
  switch (entry.family) {
    case "anthropic":
      return new AnthropicProvider(resolved.apiKey!, resolved.model, { baseUrl: resolved.baseUrl, timeouts: resolved.timeouts, reasoning: resolved });
    case "openai":
    case "azure":
    case "lmstudio":
      return new OpenAiProvider(resolved);
    case "ollama":
      return new OllamaProvider(resolved);
    // Their SDKs load at the first request (lazyProvider.ts).
    case "gemini":
      return new LazyProvider(resolved, async () => new (await import("./gemini")).GeminiProvider(resolved));
    case "bedrock":
      return new LazyProvider(resolved, async () => new (await import("./bedrock")).BedrockProvider(resolved));
    case "vertex":
      return new LazyProvider(resolved, async () => new (await import("./vertex")).VertexProvider(resolved));
  }
}
