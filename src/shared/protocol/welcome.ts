import * as l10n from "@vscode/l10n";
import { z } from "zod";
import { method, type Done } from "./requests";
import { isSelfHosted, PROVIDER_KINDS, providerEntry, type ProviderKind } from "../providerCatalog";

/**
 * The first-run welcome, part of the chat page's protocol (messages.ts joins it in): pick a
 * provider, give a key, pick a model, test the connection, then chat. The key travels once, in a
 * request, to SecretStorage; the page never gets a key back, only whether one is there.
 */

/** Set up in Kiln's settings instead: each needs its cloud's own settings (region, project, deployment). */
const SETTINGS_ONLY: readonly ProviderKind[] = ["bedrock", "vertex", "azure"];
/** Every provider a key (or nothing, for a local server) sets up. */
export const WELCOME_KINDS = PROVIDER_KINDS.filter((kind) => !SETTINGS_ONLY.includes(kind)) as [ProviderKind, ...ProviderKind[]];
export type WelcomeKind = ProviderKind;
/** Shown as cards, the way most people start; the rest are in the "Another provider" list. */
export const FEATURED_WELCOME_KINDS: readonly ProviderKind[] = ["anthropic", "openai", "openrouter", "gemini", "ollama"];
export const MAX_WELCOME_KEY = 4096;

/** Which part of the setup is at fault, so the form can point at the field to fix. */
export type ConnectionProblem = "key" | "url" | "model" | "network" | "other";

export interface ConnectionFailure {
  ok: false;
  problem: ConnectionProblem;
  /** One plain sentence: what failed and what to do. */
  message: string;
  /** The provider's own words, for whoever wants them. */
  detail?: string;
}

export type ConnectionCheck = { ok: true; model: string; ms: number } | ConnectionFailure;
export type ModelList = { ok: true; models: string[] } | ConnectionFailure;

/** One provider the welcome offers, with what the host already has for it. */
export interface WelcomeProvider {
  kind: WelcomeKind;
  label: string;
  /** Who it is for, in a few words. */
  hint: string;
  /** The environment variable Kiln reads its key from. */
  envVar: string;
  /** A key is in that variable (its value never reaches the page). */
  envKey: boolean;
  /** A key is in SecretStorage for it. */
  storedKey: boolean;
  /** The model used when none is picked; empty where the server decides. */
  defaultModel: string;
  /** Requests cannot be made without a key (a local server takes none). */
  needsKey: boolean;
  /** The form asks for a base URL: a server the user runs, or one without a default. */
  asksBaseUrl: boolean;
  /** Where requests go when the URL is left empty. */
  defaultBaseUrl?: string;
  /** A card of its own, rather than an entry of "Another provider". */
  featured: boolean;
}

/** What the form needs for a kind, from the catalog. */
export function welcomeNeeds(kind: WelcomeKind): Pick<WelcomeProvider, "needsKey" | "asksBaseUrl" | "defaultBaseUrl" | "featured"> {
  const entry = providerEntry(kind);
  return {
    needsKey: entry.needsKey,
    asksBaseUrl: entry.needsBaseUrl || isSelfHosted(entry),
    ...(entry.defaultBaseUrl ? { defaultBaseUrl: entry.defaultBaseUrl } : {}),
    featured: FEATURED_WELCOME_KINDS.includes(kind),
  };
}

/**
 * A provider's name and who it is for, as the welcome shows them, in the user's language: called
 * when the welcome is built, after the bundle is applied. The hosted providers' names are products.
 */
export function welcomeProviderText(kind: WelcomeKind): { label: string; hint: string } {
  const label = providerEntry(kind).label;
  switch (kind) {
    case "anthropic":
      return { label, hint: l10n.t("Claude models, with an Anthropic API key") };
    case "openai":
      return { label, hint: l10n.t("GPT models, with an OpenAI API key") };
    case "openrouter":
      return { label, hint: l10n.t("Hundreds of models from every vendor, with one OpenRouter key") };
    case "gemini":
      return { label, hint: l10n.t("Gemini models, with a Google AI Studio key") };
    case "ollama":
      return { label, hint: l10n.t("Models on your own machine, no key") };
    case "lmstudio":
      return { label, hint: l10n.t("Models on your own machine, no key") };
    case "openai-compatible":
      return { label: l10n.t("OpenAI-compatible"), hint: l10n.t("vLLM, llama.cpp, a gateway: any server with the OpenAI API") };
    default:
      return { label, hint: l10n.t("With a {0} API key", label) };
  }
}

export interface WelcomeInfo {
  providers: WelcomeProvider[];
  /** What the settings say now, to start the form from. */
  current: { kind: WelcomeKind; baseUrl: string; model: string };
}

/** The form as sent: an empty key means "the one Kiln already has" (stored or in the environment). */
export const WelcomeSetupSchema = z
  .object({
    kind: z.enum(WELCOME_KINDS),
    baseUrl: z.string().trim().max(2_000),
    model: z.string().trim().max(200),
    key: z.string().trim().max(MAX_WELCOME_KEY),
  })
  .strict();
export type WelcomeSetup = z.infer<typeof WelcomeSetupSchema>;

export const WELCOME_REQUESTS = {
  /** The provider's model list with these settings. */
  "welcome/models": method<ModelList>()(WelcomeSetupSchema),
  /** One tiny request with these settings: a reply, or what failed. */
  "welcome/test": method<ConnectionCheck>()(WelcomeSetupSchema),
  /** Saves the settings (the key to SecretStorage) and ends the welcome: the chat shows. */
  "welcome/finish": method<Done>()(WelcomeSetupSchema),
  /** Ends the welcome without changing a setting. */
  "welcome/skip": method<Done>()(z.object({}).strict()),
};
