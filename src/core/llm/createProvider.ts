import * as l10n from "@vscode/l10n";
import { AnthropicProvider } from "./anthropic";
import { ProviderError } from "./errors";
import { OpenAiProvider } from "./openai";
import { registerSecret } from "./redact";
import { DEFAULT_MODELS, type Provider, type ProviderConfig } from "./types";

/** Builds the provider for the current settings, or says exactly which setting is missing. */
export function createProvider(config: ProviderConfig): Provider {
  // Every key in use passes here, whichever host read it: from now on it is cut out of what leaves Kiln.
  registerSecret(config.apiKey);
  const model = config.model.trim() || DEFAULT_MODELS[config.kind];
  const baseUrl = config.baseUrl.trim();
  if (baseUrl && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
    throw new ProviderError("config", l10n.t('The base URL "{0}" is not an http(s) URL. Fix kiln.provider.baseUrl in the settings.', baseUrl));
  }
  switch (config.kind) {
    case "anthropic":
      if (!config.apiKey) throw new ProviderError("no_key", l10n.t('No Anthropic API key is set. Run "Kiln: Set API Key" (or set the key in the environment) and retry.'));
      return new AnthropicProvider(config.apiKey, model, baseUrl, config.timeouts);
    case "openai":
      if (!config.apiKey) throw new ProviderError("no_key", l10n.t('No OpenAI API key is set. Run "Kiln: Set API Key" (or set the key in the environment) and retry.'));
      return new OpenAiProvider("openai", config.apiKey, model, baseUrl, config.timeouts);
    case "openai-compatible":
      if (!baseUrl) {
        throw new ProviderError("config", l10n.t("The openai-compatible provider needs a base URL: set kiln.provider.baseUrl (e.g. http://localhost:11434/v1)."));
      }
      if (!model) throw new ProviderError("config", l10n.t("The openai-compatible provider needs a model id: set kiln.provider.model."));
      // Local servers (Ollama, LM Studio) take no key, but the SDK insists on a non-empty one.
      return new OpenAiProvider("openai-compatible", config.apiKey || "no-key", model, baseUrl, config.timeouts);
  }
}
