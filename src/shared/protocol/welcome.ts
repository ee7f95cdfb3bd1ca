import * as l10n from "@vscode/l10n";
import { z } from "zod";
import { method, type Done } from "./requests";

/**
 * The first-run welcome, part of the chat page's protocol (messages.ts joins it in): pick a
 * provider, give a key, pick a model, test the connection, then chat. The key travels once, in a
 * request, to SecretStorage; the page never gets a key back, only whether one is there.
 */

export const WELCOME_KINDS = ["anthropic", "openai", "openai-compatible"] as const;
export type WelcomeKind = (typeof WELCOME_KINDS)[number];
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
}

/**
 * A provider's name and who it is for, as the welcome shows them, in the user's language: called
 * when the welcome is built, after the bundle is applied. The hosted providers' names are products.
 */
export function welcomeProviderText(kind: WelcomeKind): { label: string; hint: string } {
  switch (kind) {
    case "anthropic":
      return { label: "Anthropic", hint: l10n.t("Claude models, with an Anthropic API key") };
    case "openai":
      return { label: "OpenAI", hint: l10n.t("GPT models, with an OpenAI API key") };
    case "openai-compatible":
      return { label: l10n.t("OpenAI-compatible"), hint: l10n.t("Ollama, LM Studio, vLLM, OpenRouter: any server with the OpenAI API") };
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
